// The accessibility probe (accessibility-probe.js) for Playwright's tests, which run in Node: its source is
// evaluated in the page as it is, so that tsx never rewrites it (it would call a `__name` the page lacks).
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { AccessibilityProbe, Problems } from './accessibility-probe.js';

const SOURCE = await readFile(new URL('./accessibility-probe.js', import.meta.url), 'utf8');

/** The name of a check of the probe (each answers its problems). */
type DocumentCheck = {
  [K in keyof AccessibilityProbe]: AccessibilityProbe[K] extends (...args: never[]) => Problems ? K : never;
}[keyof AccessibilityProbe];

/** Runs one check of the probe on the page's whole document (the probe is installed first, each time). */
export async function probePage(page: Page, check: DocumentCheck, minimum?: number): Promise<Problems> {
  await page.evaluate(SOURCE);
  const args = minimum === undefined ? '' : `document, ${minimum}`;
  return page.evaluate<Problems>(`svcAccessibilityProbe.${check}(${args})`);
}
