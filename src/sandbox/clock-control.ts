/**
 * `/sandbox/v1/clock`: merchants' own integration tests read the sandbox clock and move it forward, to reach
 * what waits on time (a reservation's 6-day release, a Purchase's `due`, the slow acquirer's answer, a
 * webhook's next retry) without sleeping.
 *
 * No key is asked for (the clock is the whole sandbox's, not a merchant's), but only a JSON body moves it:
 * a page in the developer's browser can send a cross-site form or `text/plain` post without asking, and a
 * JSON one only after a preflight that the sandbox never grants.
 */

import { BodyReader, type Json } from './body-reader.js';
import type { SandboxClock } from './clock.js';
import { HttpError, type Router, sendJson } from './http.js';

export const CLOCK_PATH = '/sandbox/v1/clock';

/** The longest single step: a year, so that a typo of a few digits is refused rather than taken. */
const MAX_STEP_MS = 366 * 24 * 60 * 60 * 1000;

/** What `GET` and `POST /sandbox/v1/clock` answer. */
export interface ClockView {
  /** Now on the sandbox clock, ISO 8601. */
  now: string;
  /** The same in Unix seconds, as v1 timestamps are written. */
  now_unix: number;
  /** How far the sandbox clock is ahead of real time, in milliseconds. */
  ahead_ms: number;
}

export function mountClockControl(router: Router, clock: SandboxClock): void {
  const view = (): ClockView => ({
    now: clock.now().toISOString(),
    now_unix: Math.floor(clock.nowMs() / 1000),
    ahead_ms: clock.aheadMs,
  });
  router.on('GET', CLOCK_PATH, ({ res }) => sendJson(res, 200, view()));
  router.on('POST', CLOCK_PATH, async (context) => {
    const type = context.req.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new HttpError(
        415,
        'unsupported_media_type',
        'Send the step as JSON (Content-Type: application/json), such as {"advance_seconds": 518400}',
      );
    }
    clock.advance(readStep(await context.json()));
    sendJson(context.res, 200, view());
  });
}

/** `advance_seconds` or `advance_ms`, exactly one, a whole number from 0 to a year. */
function readStep(body: Json): number {
  const given = (['advance_seconds', 'advance_ms'] as const).filter((name) => body[name] !== undefined);
  const unknown = Object.keys(body).filter((name) => name !== 'advance_seconds' && name !== 'advance_ms');
  if (unknown.length > 0 || given.length !== 1) {
    // A problem of the whole body, not of a member: no field.
    throw new HttpError(
      400,
      'invalid_request',
      `Send exactly one of advance_seconds or advance_ms${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}`,
    );
  }
  const field = given[0]!;
  const perUnit = field === 'advance_seconds' ? 1000 : 1;
  const reader = new BodyReader();
  // The clock never goes back, and moves at most a year at a time.
  const step = reader.integer(body, field, field, { min: 0, max: MAX_STEP_MS / perUnit }, true);
  reader.throwFirst();
  return step! * perUnit;
}
