/**
 * Fixtures of the v1 sandbox tests: a sandbox whose merchants have v1 credentials, and requests made by hand
 * with fetch, as a merchant's server would make them.
 */
import assert from 'node:assert/strict';
import { createVerify } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { after, before } from 'node:test';
import type { BillingTemplateRequest, Client } from '../../../src/core/v1-types.js';
import { parseConfig, type SandboxConfigFile } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { createV1Client, V1ApiError, type V1Client } from '../../../src/server/index.js';
import { FakeMerchant, type ReceivedRequest, tempDir, testConfigFile } from '../support.js';

/** Merchant `m1` of the shared test config, with v1 credentials and the document's rate limit. */
export const V1 = {
  secretKey: 'test-v1-secret-key',
  brandId: '0b000000-0000-4000-8000-0000000000b1',
} as const;

/** A second merchant, whose purchases `m1` must never see; its lookups are not rate limited in practice. */
export const OTHER = {
  secretKey: 'other-v1-secret-key',
  brandId: '0b000000-0000-4000-8000-0000000000b2',
} as const;

/** A third merchant with a short window, to see the rate limit open again. */
export const SHORT_WINDOW = {
  secretKey: 'short-window-v1-secret-key',
  brandId: '0b000000-0000-4000-8000-0000000000b3',
  rateLimit: { max: 2, windowMs: 600 },
} as const;

/**
 * The creditors `m2` whitelisted, as its config writes them (the IBANs spaced and in lower case, which the
 * sandbox normalises). `m1` keeps the default whitelist, the sandbox's TEST_CREDITORS.
 */
export const OTHER_CREDITORS = [
  { name: 'Other Creditor SIA', iban: 'lv14 unla 0050 0142 0751 0' },
  { name: 'Other Creditor OÜ', iban: 'EE541700017000123456' },
] as const;

/**
 * `m1` (V1): the default creditor whitelist, variable creditor enabled. `m2` (OTHER): its own whitelist,
 * variable creditor not enabled. `m3` (SHORT_WINDOW): the defaults, variable creditor not enabled.
 */
export function v1ConfigFile(merchantUrl: string): SandboxConfigFile {
  const file = testConfigFile(merchantUrl);
  const first = file.merchants[0]!;
  first.v1 = { ...V1, variableCreditor: true };
  const sibling = (id: string, apiKey: string) => ({
    id,
    name: `Merchant ${id}`,
    apiKey,
    defaults: { currency: 'EUR', taxRate: '21', language: 'en' as const },
    callbacks: { notificationUrl: `${merchantUrl}/notify-${id}`, termsUrl: `${merchantUrl}/terms` },
  });
  file.merchants.push(
    {
      ...sibling('m2', 'm2-api-key'),
      v1: {
        ...OTHER,
        rateLimit: { max: 1000, windowMs: 60_000 },
        creditors: OTHER_CREDITORS.map((creditor) => ({ ...creditor })),
      },
    },
    { ...sibling('m3', 'm3-api-key'), v1: { ...SHORT_WINDOW, rateLimit: { ...SHORT_WINDOW.rateLimit } } },
  );
  return file;
}

/**
 * A sandbox of {@link v1ConfigFile} (on a new data dir unless given); `retryBaseMs` replaces the test config's
 * delivery retry interval, `now` fixes real time.
 */
export async function startV1Sandbox(
  merchant: FakeMerchant,
  options: { dataDir?: string; retryBaseMs?: number; now?: () => Date } = {},
): Promise<Sandbox> {
  const file = v1ConfigFile(merchant.url);
  if (options.retryBaseMs !== undefined) file.notifications = { retryBaseMs: options.retryBaseMs };
  return startSandbox({
    port: 0,
    config: parseConfig(file),
    dataDir: options.dataDir ?? (await tempDir()),
    now: options.now,
  });
}

/**
 * Subscribes a webhook to every event, delivered to `path` of the fixture's merchant: the set-up of the suites
 * that read the events an operation sends. Answers the webhook's public key, which checks their signatures.
 */
export async function subscribeToEveryEvent(fixture: V1SandboxFixture, path: string): Promise<string> {
  const webhook = await fixture.client.webhooks.create({
    title: 'every event',
    callback: `${fixture.merchant.url}${path}`,
    all_events: true,
  });
  return webhook.public_key;
}

/** What {@link withV1Sandbox} started for a suite; read its members in tests and hooks, after its `before`. */
export interface V1SandboxFixture {
  readonly merchant: FakeMerchant;
  readonly sandbox: Sandbox;
  /** The toolkit's v1 client with `m1`'s secret key, for the sandbox now running. */
  readonly client: V1Client;
  /** The sandbox's data dir, removed after the suite. */
  readonly dataDir: string;
  /** Starts the sandbox again on the same data dir, after a test closed it (to look at the store, say). */
  restart(): Promise<Sandbox>;
  /**
   * Resolves once the `before` has started everything: for a file's top-level hooks, which node:test runs as
   * soon as they are registered rather than one after the other.
   */
  readonly ready: Promise<V1SandboxFixture>;
}

/**
 * A fake merchant and a v1 sandbox on a new data dir for the suite it is called in (its `before` and
 * `after`), with the toolkit's client for `m1`; closed and removed afterwards. Options as {@link startV1Sandbox}'s.
 */
export function withV1Sandbox(options: { retryBaseMs?: number; now?: () => Date } = {}): V1SandboxFixture {
  let started: { merchant: FakeMerchant; sandbox: Sandbox; client: V1Client; dataDir: string } | undefined;
  const get = () => {
    if (started === undefined) throw new Error('withV1Sandbox: read in a test or hook, after its before');
    return started;
  };
  const start = async (merchant: FakeMerchant, dataDir: string) => {
    const sandbox = await startV1Sandbox(merchant, { ...options, dataDir });
    started = {
      merchant,
      sandbox,
      client: createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey }),
      dataDir,
    };
    return sandbox;
  };
  let resolve!: (fixture: V1SandboxFixture) => void;
  let reject!: (error: unknown) => void;
  const ready = new Promise<V1SandboxFixture>((resolved, rejected) => {
    resolve = resolved;
    reject = rejected;
  });
  // A suite that never reads it must not fail on an unhandled rejection: its before fails already.
  ready.catch(() => {});
  before(async () => {
    try {
      await start(await FakeMerchant.start(), await tempDir());
      resolve(fixture);
    } catch (error) {
      reject(error);
      throw error;
    }
  });
  after(async () => {
    if (started === undefined) return;
    await started.sandbox.close();
    await started.merchant.close();
    await rm(started.dataDir, { recursive: true, force: true });
  });
  const fixture: V1SandboxFixture = {
    ready,
    get merchant() {
      return get().merchant;
    },
    get sandbox() {
      return get().sandbox;
    },
    get client() {
      return get().client;
    },
    get dataDir() {
      return get().dataDir;
    },
    restart: () => start(get().merchant, get().dataDir),
  };
  return fixture;
}

export interface V1Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them
  body: any;
}

/**
 * A v1 request. `key` is the bearer secret key (null sends no Authorization header); a string `body` is sent
 * as is, anything else as JSON.
 */
export async function v1(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: {
    key?: string | null;
    body?: unknown;
    authorization?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<V1Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? V1.secretKey : options.key;
  if (options.authorization !== undefined) headers['authorization'] = options.authorization;
  else if (key !== null) headers['authorization'] = `Bearer ${key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(`${sandbox.url}/api/v1${path}`, {
    method,
    headers,
    ...(body !== undefined && { body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A valid create request for merchant `m1`, with `overrides` on top. */
export function purchaseBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    brand_id: V1.brandId,
    client: { email: 'customer@example.com' },
    purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }] },
    ...overrides,
  };
}

/** An expiry three years ahead, as the hosted page's field takes it. */
export const FUTURE_EXPIRY = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;

/**
 * Moves the sandbox clock `ms` forward through `/sandbox/v1/clock` with a merchant's secret key, as a
 * merchant's own tests would; it answers once what fell due on the way was delivered or attempted.
 */
export async function advanceClock(
  sandbox: Pick<Sandbox, 'url'>,
  ms: number,
  secretKey: string = V1.secretKey,
): Promise<void> {
  const answer = await fetch(`${sandbox.url}/sandbox/v1/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
    body: JSON.stringify({ advance_ms: ms }),
  });
  assert.equal(answer.status, 200, await answer.text());
}

/** The hosted page's form filled in to pay with the test card `number`. */
export function cardForm(number: string): Record<string, string> {
  return {
    method: 'card',
    card_number: number,
    card_expiry: FUTURE_EXPIRY,
    card_cvc: '123',
    card_holder: 'Anna Tester',
  };
}

/** Posts a form to the sandbox (`/checkout/<id>/pay` or a step) as a browser does, not following redirects. */
export async function postForm(
  sandbox: Sandbox,
  path: string,
  form: Record<string, string>,
): Promise<{ status: number; location: string | null; html: string }> {
  const response = await fetch(new URL(path, sandbox.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

/**
 * Resolves once the event types of the webhook deliveries to `path` about object `id`, in the order they
 * arrived, are exactly `expected` (waiting up to 5 s for them); with `publicKeyPem`, each delivery must verify
 * with it.
 */
export async function expectWebhookEvents(
  merchant: FakeMerchant,
  path: string,
  id: string,
  expected: string[],
  publicKeyPem?: string,
): Promise<void> {
  const events = () =>
    merchant
      .requests(path)
      .filter((request) => (JSON.parse(request.body) as { id: string }).id === id)
      .map((request) => {
        if (publicKeyPem !== undefined) {
          assert.ok(signedBy(request, publicKeyPem), 'the webhook delivery verifies with the webhook key');
        }
        return (JSON.parse(request.body) as { event_type: string }).event_type;
      });
  const deadline = Date.now() + 5000;
  while (events().length < expected.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.deepEqual(events(), expected);
}

/**
 * Whether `body` (the request's own by default) verifies against the request's X-Signature with
 * `publicKeyPem`, by node:crypto alone: Base64 SHA256withRSA (PKCS#1 v1.5) over the raw bytes.
 */
export function signedBy(request: ReceivedRequest, publicKeyPem: string, body = request.body): boolean {
  const signature = request.headers['x-signature'];
  assert.equal(typeof signature, 'string', 'every delivery carries X-Signature');
  return createVerify('RSA-SHA256')
    .update(Buffer.from(body, 'utf8'))
    .verify(publicKeyPem, signature as string, 'base64');
}

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Real time stands still in the billing suites: only advancing the clock moves it. */
export const BILLING_START = Date.UTC(2027, 0, 31, 10, 0, 0);
export const BILLING_CARD = { approved: '4111111111111111', chargesDeclined: '4000000000000341' } as const;
export const BILLING_PRODUCTS = { products: [{ name: 'Tea club', price: 990, quantity: 1 }] };
const BILLING_WEBHOOK_PATH = '/v1/webhook';

/** What {@link withBillingSandbox} gives a billing suite: its sandbox and the requests its tests share. */
export interface BillingSandbox {
  readonly fixture: V1SandboxFixture;
  /** The V1ApiError `call` is rejected with, once its status is `status`. */
  rejected(call: Promise<unknown>, status: number): Promise<V1ApiError>;
  /** The field and code of each problem of a 400. */
  problems(call: Promise<unknown>): Promise<string[]>;
  /** A Client of `m1` with an email address of its own. */
  newClient(): Promise<Client>;
  /** A monthly subscription to {@link BILLING_PRODUCTS}, with `overrides`. */
  template(overrides?: Partial<BillingTemplateRequest>): BillingTemplateRequest;
  /** Pays Purchase `purchaseId` on the hosted page with the test card `card`. */
  pay(purchaseId: string, card: string): Promise<void>;
  /** Resolves once the webhook events about Purchase `id`, in the order they arrived, are exactly `expected`. */
  expectEvents(id: string, expected: string[]): Promise<void>;
  /** The sandbox's outbox of the merchant of `key` (`m1` by default), its first 100 messages. */
  outbox(key?: string): Promise<{
    results: Array<{
      kind: string;
      to: string;
      purchase_id: string;
      checkout_url: string | null;
      created_on: number;
    }>;
  }>;
}

/**
 * A v1 sandbox for the invoices, billing templates and subscriptions suites: its clock stands at
 * {@link BILLING_START} (calendar months from 31 January), and a webhook of `m1` takes every event.
 */
export function withBillingSandbox(): BillingSandbox {
  const fixture = withV1Sandbox({ now: () => new Date(BILLING_START) });

  before(async () => {
    await fixture.client.webhooks.create({
      title: 'all',
      callback: `${fixture.merchant.url}${BILLING_WEBHOOK_PATH}`,
      all_events: true,
    });
  });

  async function rejected(call: Promise<unknown>, status: number): Promise<V1ApiError> {
    const error = await call.then(
      () => assert.fail(`expected ${status}`),
      (error: unknown) => error,
    );
    assert.ok(error instanceof V1ApiError, String(error));
    assert.equal(error.status, status, error.message);
    return error;
  }

  let seq = 0;
  return {
    fixture,
    rejected,
    async problems(call) {
      const error = await rejected(call, 400);
      return (error.errors ?? []).map((problem) => `${problem.field}: ${problem.code}`);
    },
    newClient() {
      seq += 1;
      return fixture.client.clients.create({
        email: `subscriber${seq}@example.com`,
        full_name: `Subscriber ${seq}`,
      });
    },
    template(overrides = {}) {
      return {
        brand_id: V1.brandId,
        title: 'Tea club',
        is_subscription: true,
        subscription_period: { unit: 'month', count: 1 },
        purchase: BILLING_PRODUCTS,
        ...overrides,
      };
    },
    async pay(purchaseId, card) {
      const answer = await postForm(fixture.sandbox, `/checkout/${purchaseId}/pay`, cardForm(card));
      assert.equal(answer.status, 200, answer.html);
    },
    expectEvents: (id, expected) => expectWebhookEvents(fixture.merchant, BILLING_WEBHOOK_PATH, id, expected),
    async outbox(key = V1.secretKey) {
      const answer = await fetch(`${fixture.sandbox.url}/sandbox/v1/outbox/?per_page=100`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(answer.status, 200);
      return answer.json();
    },
  };
}
