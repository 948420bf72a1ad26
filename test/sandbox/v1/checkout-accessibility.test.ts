/**
 * The hosted checkout page passes the raised accessibility check in each of its states, beyond axe: every
 * control's focus ring and every field's border have 3:1 against the colours beside them (WCAG 1.4.11), every
 * button and field shows a boundary in forced colours, and targets are 24 px or more (reflow, text spacing and motion:
 * checkout-reflow.test.ts).
 * The checks are the shared probe's (test/support/accessibility-probe.js), as for the frame and the picker.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { probePage } from '../../support/accessibility-probe-source.js';
import { withHostedPageBrowser } from './hosted-page-browser.js';
import { everyState } from './hosted-page-states.js';

const env = withHostedPageBrowser();

describe('the hosted checkout page, raised accessibility check', () => {
  everyState(
    env,
    'axe, focus rings and field borders of 3:1 beside them, and targets',
    'en',
    {},
    async (page) => {
      const problems = await env.axeViolations(page);
      await page.keyboard.press('Tab');
      problems.push(...(await probePage(page, 'focusRingsProblems', 3)));
      problems.push(...(await probePage(page, 'targetSizeProblems')));
      problems.push(...(await probePage(page, 'fieldBoundaryProblems')));
      return problems;
    },
  );

  everyState(
    env,
    'in forced colours every button and field shows a boundary',
    'en',
    { forcedColors: 'active' },
    (page) => probePage(page, 'boundaryProblems'),
  );

  test('no state breaks the page’s Content-Security-Policy', () => {
    assert.deepEqual(env.cspViolations, []);
  });
});
