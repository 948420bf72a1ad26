/**
 * axe-core in a page of the shop: its document and the element's shadow DOM, not the cross-origin frame
 * (the frame's own tests run axe inside it).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

interface AxeViolation {
  id: string;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

let axeSource: Promise<string> | undefined;

/** Runs axe on the page's document; the violations, described (empty when it passes). */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(await axeSource);
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { iframes: false }).then((result) => result.violations)`,
  );
  return violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')})`,
  );
}
