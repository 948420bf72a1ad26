/**
 * `/sandbox/v1/clock`: merchants' own integration tests read their merchant's clock and move it forward, to
 * reach what waits on time (a reservation's 6-day release, a Purchase's `due`, the slow acquirer's answer, a
 * webhook's or notification's next retry) without sleeping.
 *
 * Each merchant has its own clock, and a step moves only the clock of the merchant whose key it carries:
 * test files of different merchants run in parallel without disturbing each other. Moving it takes the
 * merchant's v1 secret key (`Authorization: Bearer`) or its merchant API key (`X-Svc-Api-Key`, for merchants
 * without v1). Reading it takes none (time is no secret): with a key, or `?merchant_id=`, it answers that
 * merchant's clock, else the first merchant's. Only a JSON body moves it: a page in the developer's browser
 * can send a cross-site form or `text/plain` post without asking, and a JSON one only after a preflight that
 * the sandbox never grants.
 *
 * A step answers once what fell due on the way is done, delivery attempts included (see
 * {@link SandboxClock.step}): the merchant's test reads the outcome right after it.
 */
import { BodyReader, type Json } from './body-reader.js';
import type { SandboxClock, SandboxClocks } from './clock.js';
import type { MerchantConfig } from './config.js';
import { HttpError, type Router, sendJson } from './http.js';
import { bearerRefusal, type KeyLookup, merchantKeyLookup } from './merchant-keys.js';

export const CLOCK_PATH = '/sandbox/v1/clock';

/** The longest single step: a year, so that a typo of a few digits is refused rather than taken. */
const MAX_STEP_MS = 366 * 24 * 60 * 60 * 1000;

/** What `GET` and `POST /sandbox/v1/clock` answer: one merchant's clock. */
export interface ClockView {
  /** Whose clock it is. */
  merchant_id: string;
  /** Now on the merchant's clock, ISO 8601. */
  now: string;
  /** The same in Unix seconds, as v1 timestamps are written. */
  now_unix: number;
  /** How far the merchant's clock is ahead of real time, in milliseconds. */
  ahead_ms: number;
}

export function mountClockControl(
  router: Router,
  clocks: SandboxClocks,
  merchants: readonly MerchantConfig[],
): void {
  const lookup = merchantKeyLookup(merchants);
  const view = (clock: SandboxClock): ClockView => ({
    merchant_id: clock.merchantId,
    now: clock.now().toISOString(),
    now_unix: Math.floor(clock.nowMs() / 1000),
    ahead_ms: clock.aheadMs,
  });
  router.on('GET', CLOCK_PATH, ({ req, res, url }) => {
    const named = url.searchParams.get('merchant_id');
    if (named !== null && !merchants.some((merchant) => merchant.id === named)) {
      throw new HttpError(404, 'merchant_not_found', `No merchant ${named} in this sandbox`, 'merchant_id');
    }
    // Reading takes no key; a key that is sent (any Authorization header) must be a merchant's.
    const sent = req.headers.authorization !== undefined || req.headers['x-svc-api-key'] !== undefined;
    const merchantId = sent ? merchantOf(lookup(req, KEYS)) : (named ?? merchants[0]!.id);
    sendJson(res, 200, view(clocks.for(merchantId)));
  });
  router.on('POST', CLOCK_PATH, async (context) => {
    const clock = clocks.for(merchantOf(lookup(context.req, KEYS)));
    const type = context.req.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new HttpError(
        415,
        'unsupported_media_type',
        'Send the step as JSON (Content-Type: application/json), such as {"advance_seconds": 518400}',
      );
    }
    await clock.step(readStep(await context.json()));
    sendJson(context.res, 200, view(clock));
  });
}

/** A bearer key first, as v1 sends it; else the merchant API key, for merchants without v1. */
const KEYS = ['bearer', 'api_key'] as const;

/** The merchant whose key the request carries, else a 401 that says what to send. */
function merchantOf(found: KeyLookup): string {
  if (found.kind === 'merchant') return found.merchant.id;
  throw bearerRefusal(
    found,
    "Send a merchant's v1 secret key as Authorization: Bearer <secret key>, or its merchant API key as X-Svc-Api-Key, to move its clock",
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
