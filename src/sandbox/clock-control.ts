/**
 * `/sandbox/v1/clock`: merchants' own integration tests read the sandbox clock and move it forward, to reach
 * what waits on time (a reservation's 6-day release, a Purchase's `due`, the slow acquirer's answer, a
 * webhook's next retry) without sleeping.
 *
 * Moving it takes a merchant's v1 secret key: the clock is the whole sandbox's, so a step moves every
 * merchant's time rules, and only a merchant of this sandbox may make one. Reading it takes none. Only a
 * JSON body moves it: a page in the developer's browser can send a cross-site form or `text/plain` post
 * without asking, and a JSON one only after a preflight that the sandbox never grants.
 *
 * A step answers once what fell due on the way is done, delivery attempts included (see
 * {@link SandboxClock.step}): the merchant's test reads the outcome right after it.
 */
import type { IncomingMessage } from 'node:http';

import { BodyReader, type Json } from './body-reader.js';
import type { SandboxClock } from './clock.js';
import type { MerchantConfig } from './config.js';
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

export function mountClockControl(
  router: Router,
  clock: SandboxClock,
  merchants: readonly MerchantConfig[],
): void {
  const secretKeys = new Set(merchants.flatMap((merchant) => (merchant.v1 ? [merchant.v1.secretKey] : [])));
  const view = (): ClockView => ({
    now: clock.now().toISOString(),
    now_unix: Math.floor(clock.nowMs() / 1000),
    ahead_ms: clock.aheadMs,
  });
  router.on('GET', CLOCK_PATH, ({ res }) => sendJson(res, 200, view()));
  router.on('POST', CLOCK_PATH, async (context) => {
    requireSecretKey(context.req, secretKeys);
    const type = context.req.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new HttpError(
        415,
        'unsupported_media_type',
        'Send the step as JSON (Content-Type: application/json), such as {"advance_seconds": 518400}',
      );
    }
    await clock.step(readStep(await context.json()));
    sendJson(context.res, 200, view());
  });
}

/** A merchant's v1 secret key as `Authorization: Bearer <key>`, or a 401 that says so. */
function requireSecretKey(req: IncomingMessage, secretKeys: ReadonlySet<string>): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (match && secretKeys.has(match[1]!)) return;
  throw new HttpError(
    401,
    match ? 'authentication_failed' : 'not_authenticated',
    match
      ? 'The secret key is not valid: send a v1 secret key of a merchant of this sandbox'
      : "Send a merchant's v1 secret key as Authorization: Bearer <secret key> to move the clock",
    undefined,
    undefined,
    { 'www-authenticate': 'Bearer realm="svc-sandbox v1"' },
  );
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
