/**
 * The hosted checkout page in each of its states: Latvian and Russian fit 320 px without sideways scrolling,
 * also with WCAG text spacing (1.4.10, 1.4.12), and nothing moves when reduced motion is asked for. The checks
 * are the shared probe's (test/support/accessibility-probe.js); the other raised checks are in
 * checkout-accessibility.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { probePage } from '../../support/accessibility-probe-source.js';
import { withHostedPageBrowser } from './hosted-page-browser.js';
import { everyState } from './hosted-page-states.js';

const env = withHostedPageBrowser();

describe('the hosted checkout page: reflow, text spacing and motion', () => {
  for (const language of ['lv', 'ru'] as const) {
    everyState(
      env,
      `in ${language} at 320 px no sideways scrolling, also with text spacing`,
      language,
      { viewport: { width: 320, height: 640 } },
      async (page) => [
        ...(await probePage(page, 'reflowProblems')),
        ...(await probePage(page, 'textSpacingProblems')),
      ],
    );
  }

  everyState(env, 'with reduced motion nothing moves', 'en', { reducedMotion: 'reduce' }, (page) =>
    probePage(page, 'motionProblems'),
  );

  test('no state breaks the page’s Content-Security-Policy', () => {
    assert.deepEqual(env.cspViolations, []);
  });
});
