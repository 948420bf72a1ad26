/**
 * The v1 picker's lookup of payment methods at the merchant's endpoint (`payment-methods-url`), reused in
 * the tab for a minute: the gateway allows one lookup a minute, and although the merchant's endpoint caches
 * it, a page that renders the picker again (another element, a reload, the next step of a single-page app)
 * should not ask again. Answers are kept in memory (elements of one page share one request, even while it
 * runs) and in `sessionStorage` with their time (the tab's next pages); failures are not kept.
 */

import { readPaymentMethods } from '../core/payment-method-groups.js';
import { isPlainObject } from '../core/plain-object.js';
import type { PaymentMethods } from '../core/v1-types.js';

/** How long an answer is reused, in milliseconds: the gateway's once a minute. */
export const LOOKUP_REUSE_MS = 60_000;

/** How long the endpoint may take to answer, in milliseconds. */
const LOOKUP_TIMEOUT_MS = 15_000;

/** The prefix of the `sessionStorage` keys; the rest of the key is the request URL. */
export const LOOKUP_STORAGE_PREFIX = 'svc-checkout:payment-methods:';

/**
 * A lookup's outcome: the methods, or why there are none (for the merchant's console). `explained` is the
 * HTTP status of an error answer that says why in its JSON body's `message` (as `createPaymentMethodsHandler`
 * answers: `{error, parameter?, message}`); the reason then relays that message.
 */
export type LookupResult =
  | { ok: true; methods: PaymentMethods }
  | { ok: false; reason: string; explained?: number };

interface Kept {
  /** When the answer came (`Date.now()`). */
  at: number;
  methods: PaymentMethods;
}

/** Answers and running requests by request URL. */
const answers = new Map<string, Kept>();
const running = new Map<string, Promise<LookupResult>>();

/**
 * The URL to ask: the endpoint (relative to the page) with `language` added unless the endpoint names one
 * itself. Undefined when the endpoint is not an http(s) URL.
 */
export function lookupUrl(endpoint: string, language: string | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint, document.baseURI);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (language && !url.searchParams.has('language')) url.searchParams.set('language', language);
  return url.href;
}

const fresh = (kept: Kept | undefined): kept is Kept =>
  kept !== undefined && Date.now() - kept.at < LOOKUP_REUSE_MS && Date.now() >= kept.at;

function stored(url: string): Kept | undefined {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(LOOKUP_STORAGE_PREFIX + url) ?? 'null');
    if (!isPlainObject(raw)) return undefined;
    const { at, methods } = raw;
    const read = readPaymentMethods(methods);
    return typeof at === 'number' && read ? { at, methods: read } : undefined;
  } catch {
    // Storage may be switched off, full or foreign: the memory still serves this page.
    return undefined;
  }
}

function keep(url: string, kept: Kept): void {
  answers.set(url, kept);
  try {
    sessionStorage.setItem(LOOKUP_STORAGE_PREFIX + url, JSON.stringify(kept));
  } catch {}
}

/** The answer for `url` when one younger than a minute is kept (in memory or in the tab's storage). */
export function keptPaymentMethods(url: string): PaymentMethods | undefined {
  const inMemory = answers.get(url);
  if (fresh(inMemory)) return inMemory.methods;
  const inStorage = stored(url);
  if (!fresh(inStorage)) return undefined;
  answers.set(url, inStorage);
  return inStorage.methods;
}

/** The payment methods at `url`: kept ones when younger than a minute, else one request shared by all. */
export function lookUpPaymentMethods(url: string): Promise<LookupResult> {
  const methods = keptPaymentMethods(url);
  if (methods) return Promise.resolve({ ok: true, methods });
  let request = running.get(url);
  if (!request) {
    request = fetchPaymentMethods(url).finally(() => running.delete(url));
    running.set(url, request);
  }
  return request;
}

async function fetchPaymentMethods(url: string): Promise<LookupResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, reason: `${url} cannot be reached (${(error as Error).message})` };
  }
  if (!response.ok) {
    const { status } = response;
    const message = await errorMessage(response);
    return message === undefined
      ? { ok: false, reason: `${url} answered HTTP ${status}` }
      : { ok: false, reason: `the endpoint ${url} answered ${status}: ${message}`, explained: status };
  }
  let methods: PaymentMethods | undefined;
  try {
    methods = readPaymentMethods(await response.json());
  } catch {}
  if (!methods) {
    return { ok: false, reason: `${url} did not answer the gateway's payment methods JSON` };
  }
  keep(url, { at: Date.now(), methods });
  return { ok: true, methods };
}

/** The `message` of an error answer's JSON body, when it has one. */
async function errorMessage(response: Response): Promise<string | undefined> {
  try {
    const { message } = (await response.json()) as { message?: unknown };
    return typeof message === 'string' && message.trim() ? message.trim() : undefined;
  } catch {
    return undefined;
  }
}
