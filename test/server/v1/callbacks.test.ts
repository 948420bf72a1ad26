/**
 * v1 callback verification and the event deduplicator: bodies signed by an independent implementation
 * (jsrsasign), every request shape, every refusal; then a real success callback and webhook from the sandbox,
 * paid through its hosted checkout form over HTTP, verified with the sandbox's keys and told apart from the
 * gateway's repeat.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import {
  constructSuccessCallback,
  constructWebhookEvent,
  createEventDeduplicator,
  type IncomingRequest,
  MemoryCacheStore,
  type PurchaseCallbackPayload,
  refusalStatus,
  SignatureVerificationError,
  type SignatureVerificationErrorCode,
  type V1Client,
  type V1WebhookEvent,
  v1EventKey,
} from '../../../src/server/index.js';
import { type FakeMerchant, merchantKeys } from '../../sandbox/support.js';
import { V1, withV1Sandbox } from '../../sandbox/v1/support.js';
import { independentSign, independentVerify, listen } from '../support.js';

// Any two distinct RSA pairs do; the sandbox fixtures imported here already make theirs once per file.
const company = merchantKeys.main;
const webhookKeys = merchantKeys.old;
/** The receiving merchant's brand, which the payloads below name. */
const BRAND = '2f0c9b6e-8d4a-4e1f-9c3b-7a5d1e2f4b60';

/** A Purchase snapshot as a callback carries it (non-ASCII on purpose: the signature covers UTF-8 bytes). */
function purchasePayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '6f9619ff-8b86-4011-b42d-00c04fc964ff',
    status: 'paid',
    event_type: 'purchase.paid',
    brand_id: BRAND,
    reference: 'Tēja-17',
    purchase: { products: [{ name: 'Zaļā tēja', price: 1250, quantity: 2 }], currency: 'EUR' },
    updated_on: 1_900_000_000,
    ...overrides,
  };
}

/** `{rawBody, headers}` with X-Signature made by jsrsasign. */
function signed(body: string, privateKeyPem: string, header = 'X-Signature') {
  return { rawBody: body, headers: { [header]: independentSign(body, privateKeyPem) } };
}

async function refusal(
  promise: Promise<unknown>,
  code: SignatureVerificationErrorCode,
): Promise<SignatureVerificationError> {
  const error = await promise.then(
    () => assert.fail(`expected ${code}`),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof SignatureVerificationError, String(error));
  assert.equal(error.code, code, error.message);
  return error;
}

describe('constructSuccessCallback and constructWebhookEvent', () => {
  test('verify a body signed by jsrsasign, given as {rawBody, headers}, bytes, or a fetch Request', async () => {
    const body = JSON.stringify(purchasePayload());
    const fromText = await constructSuccessCallback(
      signed(body, company.privateKeyPem),
      company.publicKeyPem,
      { brandId: BRAND },
    );
    assert.equal(fromText.id, '6f9619ff-8b86-4011-b42d-00c04fc964ff');
    assert.equal(fromText.event_type, 'purchase.paid');
    assert.equal(fromText.reference, 'Tēja-17');

    const signature = independentSign(body, company.privateKeyPem);
    const fromBytes = await constructSuccessCallback(
      { rawBody: new TextEncoder().encode(body), headers: new Headers({ 'x-signature': signature }) },
      company.publicKeyPem,
      { brandId: BRAND },
    );
    assert.deepEqual(fromBytes, fromText);

    const request = new Request('https://shop.example/svc/success', {
      method: 'POST',
      headers: { 'X-Signature': signature, 'content-type': 'application/json' },
      body,
    });
    assert.deepEqual(
      await constructSuccessCallback(request, company.publicKeyPem, { brandId: BRAND }),
      fromText,
    );
  });

  test("verify a Node IncomingMessage on a real server, reading the body's raw bytes", async () => {
    const outcomes: string[] = [];
    const server = await listen(async (req, res) => {
      try {
        const payload = await constructSuccessCallback(req, company.publicKeyPem, { brandId: BRAND });
        outcomes.push(`ok ${payload.reference as string}`);
        res.writeHead(204).end();
      } catch (error) {
        outcomes.push((error as SignatureVerificationError).code);
        res.writeHead(401).end();
      }
    });
    try {
      const body = JSON.stringify(purchasePayload());
      const send = (signature: string, sentBody = body) =>
        fetch(server.url, { method: 'POST', headers: { 'x-signature': signature }, body: sentBody });
      assert.equal((await send(independentSign(body, company.privateKeyPem))).status, 204);
      assert.equal((await send(independentSign(body, webhookKeys.privateKeyPem))).status, 401);
      assert.equal(
        (await send(independentSign(body, company.privateKeyPem), body.replace('paid', 'PAID'))).status,
        401,
      );
      assert.deepEqual(outcomes, ['ok Tēja-17', 'signature_invalid', 'signature_invalid']);
    } finally {
      await server.close();
    }
  });

  test('refuse what the key did not sign, before reading the body', async () => {
    const body = JSON.stringify(purchasePayload());
    await refusal(
      constructSuccessCallback({ rawBody: body, headers: {} }, company.publicKeyPem, { brandId: BRAND }),
      'signature_missing',
    );
    // The legacy header is not the v1 one.
    await refusal(
      constructSuccessCallback(signed(body, company.privateKeyPem, 'X-Svc-Signature'), company.publicKeyPem, {
        brandId: BRAND,
      }),
      'signature_missing',
    );
    const altered = signed(body, company.privateKeyPem);
    altered.rawBody = body.replace('1250', '1');
    await refusal(
      constructSuccessCallback(altered, company.publicKeyPem, { brandId: BRAND }),
      'signature_invalid',
    );
    // A webhook's key does not sign success callbacks, and the other way round.
    await refusal(
      constructSuccessCallback(signed(body, webhookKeys.privateKeyPem), company.publicKeyPem, {
        brandId: BRAND,
      }),
      'signature_invalid',
    );
    await refusal(
      constructWebhookEvent(signed(body, company.privateKeyPem), webhookKeys.publicKeyPem, {
        brandId: BRAND,
      }),
      'signature_invalid',
    );
    // Garbage with a wrong signature is refused for the signature, not parsed.
    const garbage = {
      rawBody: '{not json',
      headers: { 'x-signature': independentSign('{}', company.privateKeyPem) },
    };
    await refusal(
      constructSuccessCallback(garbage, company.publicKeyPem, { brandId: BRAND }),
      'signature_invalid',
    );
    await refusal(
      constructSuccessCallback(
        { rawBody: 'x'.repeat(2048), headers: { 'x-signature': 'AAAA' } },
        company.publicKeyPem,
        { brandId: BRAND, maxBodyBytes: 1024 },
      ),
      'body_too_large',
    );
  });

  test('refuse signed bodies that are not the callback', async () => {
    const check = (body: string) =>
      refusal(
        constructSuccessCallback(signed(body, company.privateKeyPem), company.publicKeyPem, {
          brandId: BRAND,
        }),
        'malformed_body',
      );
    await check('{not json');
    await check('[1, 2]');
    await check(JSON.stringify(purchasePayload({ event_type: undefined })));
    await check(JSON.stringify(purchasePayload({ id: '' })));
    await check(JSON.stringify(purchasePayload({ status: 7 })));
    const refund = await check(JSON.stringify({ id: 'p-1', event_type: 'payment.refunded' }));
    assert.match(refund.message, /payment\.refunded event, not one of a Purchase/);
    await refusal(
      constructWebhookEvent(
        signed(JSON.stringify({ id: 'p-1' }), webhookKeys.privateKeyPem),
        webhookKeys.publicKeyPem,
        { brandId: BRAND },
      ),
      'malformed_body',
    );
  });

  test("refuse another brand's Purchase signed with a key that verifies, naming both brands", async () => {
    const other = '0b000000-0000-4000-8000-0000000000b2';
    const body = JSON.stringify(purchasePayload({ brand_id: other }));
    const error = await refusal(
      constructSuccessCallback(signed(body, company.privateKeyPem), company.publicKeyPem, { brandId: BRAND }),
      'brand_mismatch',
    );
    assert.ok(error.message.includes(other) && error.message.includes(BRAND), error.message);
    assert.equal(refusalStatus(error), 400);
    await refusal(
      constructWebhookEvent(signed(body, webhookKeys.privateKeyPem), webhookKeys.publicKeyPem, {
        brandId: BRAND,
      }),
      'brand_mismatch',
    );
    // A Purchase that names no brand cannot be told to be yours.
    await refusal(
      constructSuccessCallback(
        signed(JSON.stringify(purchasePayload({ brand_id: undefined })), company.privateKeyPem),
        company.publicKeyPem,
        { brandId: BRAND },
      ),
      'malformed_body',
    );
    // Brand ids are UUIDs: letter case does not tell them apart.
    const upper = await constructSuccessCallback(
      signed(JSON.stringify(purchasePayload()), company.privateKeyPem),
      company.publicKeyPem,
      { brandId: BRAND.toUpperCase() },
    );
    assert.equal(upper.brand_id, BRAND);
    // A refund's Payment names no brand; the webhook's own key is what ties it to you.
    const refund = await constructWebhookEvent(
      signed(JSON.stringify({ id: 'p-1', event_type: 'payment.refunded' }), webhookKeys.privateKeyPem),
      webhookKeys.publicKeyPem,
      { brandId: BRAND },
    );
    assert.equal(refund.event_type, 'payment.refunded');
    // Without the brand id, the receiver is told at once, by name.
    await assert.rejects(
      // @ts-expect-error: what JavaScript, or an older call, passes
      constructSuccessCallback(signed(body, company.privateKeyPem), company.publicKeyPem),
      /constructSuccessCallback.*brandId/,
    );
  });

  test('what is no request is refused with a typed error, never a TypeError (fixed-seed fuzz)', async () => {
    const body = JSON.stringify(purchasePayload());
    const signature = independentSign(body, company.privateKeyPem);
    const fixed: unknown[] = [
      null,
      undefined,
      7,
      'text',
      {},
      [],
      { headers: null, rawBody: body },
      { headers: {}, rawBody: 5 },
      { headers: 'x-signature: a', rawBody: body },
      { rawBody: body },
    ];
    for (const garbage of fixed) {
      await refusal(
        constructSuccessCallback(garbage as IncomingRequest, company.publicKeyPem, { brandId: BRAND }),
        'not_a_request',
      );
    }
    // Header values of any kind, bodies of any bytes: each is refused with a literal code.
    let seed = 21;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const values: unknown[] = [
      signature,
      '',
      ' ',
      'AAAA',
      7,
      null,
      ['a', 'b'],
      [signature],
      {},
      '\uD800',
      true,
    ];
    const bodies = [body, '', '{', '\uD800', 'x'.repeat(3000), JSON.stringify({ id: '\uD800' }), '[]'];
    const codes = new Set<string>();
    for (let round = 0; round < 300; round += 1) {
      const rawBody = random() < 0.5 ? pick(bodies) : Buffer.from(pick(bodies));
      const request = { rawBody, headers: { 'x-signature': pick(values) } } as unknown as IncomingRequest;
      const verify = random() < 0.5 ? constructSuccessCallback : constructWebhookEvent;
      try {
        await verify(request, company.publicKeyPem, { brandId: BRAND, maxBodyBytes: 2048 });
        codes.add('accepted');
      } catch (error) {
        assert.ok(error instanceof SignatureVerificationError, `round ${round}: ${String(error)}`);
        codes.add(error.code);
      }
    }
    assert.deepEqual([...codes].sort(), [
      'accepted',
      'body_too_large',
      'signature_invalid',
      'signature_missing',
    ]);
  });

  test("read a webhook's Purchase and Payment events, told apart by event_type", async () => {
    const read = (payload: Record<string, unknown>) =>
      constructWebhookEvent(
        signed(JSON.stringify(payload), webhookKeys.privateKeyPem),
        webhookKeys.publicKeyPem,
        { brandId: BRAND },
      );
    const describeEvent = (event: V1WebhookEvent): string =>
      event.event_type === 'payment.refunded'
        ? `refund ${event.id}`
        : `${event.event_type} of ${event.id}: ${event.status}`;
    assert.equal(
      describeEvent(await read(purchasePayload({ event_type: 'purchase.payment_failure', status: 'error' }))),
      'purchase.payment_failure of 6f9619ff-8b86-4011-b42d-00c04fc964ff: error',
    );
    assert.equal(
      describeEvent(await read({ id: 'pay-1', event_type: 'payment.refunded', amount: 500 })),
      'refund pay-1',
    );
  });
});

describe('createEventDeduplicator', () => {
  const paid = purchasePayload() as unknown as PurchaseCallbackPayload;
  /** A clock a minute after the fixture's `updated_on`, so that its age stays inside the tolerance. */
  const atEventTime = { now: () => 1_900_000_060_000 };

  test('tells the first delivery from repeats, and a later event of the same kind from a repeat', async () => {
    const events = createEventDeduplicator(atEventTime);
    const handled: string[] = [];
    const handle = (event: PurchaseCallbackPayload) =>
      events.once(event, () => {
        handled.push(`${event.event_type}@${event.updated_on}`);
        return handled.length;
      });
    assert.deepEqual(await handle(paid), { status: 'processed', value: 1 });
    assert.deepEqual(await handle({ ...paid }), { status: 'duplicate' });
    const failure = {
      ...paid,
      event_type: 'purchase.payment_failure',
      status: 'error',
    } as PurchaseCallbackPayload;
    assert.equal((await handle(failure)).status, 'processed');
    assert.equal((await handle({ ...failure, updated_on: 1_900_000_060 })).status, 'processed');
    assert.equal((await handle({ ...failure, updated_on: 1_900_000_060 })).status, 'duplicate');
    assert.deepEqual(handled, [
      'purchase.paid@1900000000',
      'purchase.payment_failure@1900000000',
      'purchase.payment_failure@1900000060',
    ]);
    assert.equal(v1EventKey(paid), 'purchase.paid:6f9619ff-8b86-4011-b42d-00c04fc964ff:paid:1900000000');
  });

  test('keys an id with a lone surrogate apart from its look-alikes, without a URIError', async () => {
    const lone = { ...paid, id: 'a\uD800b' };
    const written = { ...paid, id: 'a%uD800b' };
    assert.equal(v1EventKey(lone), 'purchase.paid:a%uD800b:paid:1900000000');
    assert.notEqual(v1EventKey(lone), v1EventKey(written));
    assert.notEqual(v1EventKey(lone), v1EventKey({ ...paid, id: 'a\uFFFDb' }));
    const events = createEventDeduplicator(atEventTime);
    assert.equal((await events.once(lone, () => 'handled')).status, 'processed');
    assert.equal((await events.once(lone, () => 'handled')).status, 'duplicate');
    assert.equal((await events.once(written, () => 'handled')).status, 'processed');
  });

  test('handles a delivery again when its handling failed, and runs concurrent copies once', async () => {
    const events = createEventDeduplicator(atEventTime);
    await assert.rejects(
      events.once(paid, () => {
        throw new Error('database down');
      }),
      /database down/,
    );
    let runs = 0;
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const first = events.once(paid, async () => {
      runs += 1;
      await gate;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const copies = await Promise.all(Array.from({ length: 20 }, () => events.once(paid, () => runs++)));
    assert.ok(
      copies.every((copy) => copy.status === 'in_progress'),
      'answer non-2xx while the first runs',
    );
    finish();
    assert.equal((await first).status, 'processed');
    assert.equal((await events.once(paid, () => runs++)).status, 'duplicate');
    assert.equal(runs, 1);
  });

  test('shares a store between servers, remembers an event until it is too old, and frees a claim whose handler vanished', async () => {
    let now = 1_900_000_000_000;
    const clock = () => now;
    const store = new MemoryCacheStore({ now: clock });
    const options = { store, now: clock, ttlMs: 60_000, toleranceMs: 120_000, processingLeaseMs: 5_000 };
    const serverA = createEventDeduplicator(options);
    const serverB = createEventDeduplicator(options);

    const claimA = await serverA.claim(paid);
    assert.equal(claimA.status, 'first');
    assert.equal((await serverB.claim(paid)).status, 'in_progress');
    if (claimA.status === 'first') await claimA.complete();
    assert.equal((await serverB.claim(paid)).status, 'duplicate');
    now += 119_999;
    assert.equal(
      (await serverB.claim(paid)).status,
      'duplicate',
      'remembered past ttlMs, within the tolerance',
    );
    now += 1;
    await assert.rejects(serverB.claim(paid), { code: 'event_too_old' });

    const timeless = { id: paid.id, event_type: paid.event_type, status: paid.status };
    const claimed = await serverA.claim(timeless);
    if (claimed.status === 'first') await claimed.complete();
    assert.equal((await serverB.claim(timeless)).status, 'duplicate');
    now += 60_000;
    assert.equal(
      (await serverB.claim(timeless)).status,
      'first',
      'without a timestamp, ttlMs is all there is',
    );

    const other = { ...paid, id: 'b5a1e0c2-0000-4000-8000-000000000001', updated_on: now / 1000 };
    assert.equal((await serverA.claim(other)).status, 'first');
    assert.equal((await serverB.claim(other)).status, 'in_progress');
    now += 5_000;
    const retry = await serverB.claim(other);
    assert.equal(retry.status, 'first', 'the lease of a crashed handler lapses');
    if (retry.status === 'first') await retry.release();
    assert.equal((await serverA.claim(other)).status, 'first', 'a released claim is free again');
  });

  test('refuses durations that are not positive', () => {
    assert.throws(() => createEventDeduplicator({ ttlMs: 0 }), RangeError);
    assert.throws(() => createEventDeduplicator({ processingLeaseMs: Number.NaN }), RangeError);
  });
});

describe('v1 callbacks from the sandbox', () => {
  const started = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let v1: V1Client;
  before(() => ({ merchant, sandbox, client: v1 } = started));

  test('a purchase paid on the hosted form sends a success callback and a webhook that verify, and a repeat is told apart', async () => {
    const companyKey = await v1.publicKey();
    // One deduplicator per channel tells a channel's repeats apart; one for both tells that the success
    // callback and the webhook are the same event.
    const perChannel = { success: createEventDeduplicator(), webhook: createEventDeduplicator() };
    const shared = createEventDeduplicator();
    const log: Array<{
      via: 'success' | 'webhook';
      status: string;
      shared?: string;
      signatureByJsrsasign?: boolean;
      event?: string;
    }> = [];
    let webhookPublicKey = '';
    let loseFirstAcknowledgement = true;

    const receiver = await listen(async (req: IncomingMessage, res) => {
      const via = req.url === '/success' ? 'success' : 'webhook';
      let request: IncomingRequest = req;
      let signatureByJsrsasign: boolean | undefined;
      if (via === 'webhook') {
        // Buffered as a framework would, so that jsrsasign can check the same bytes on its own.
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const rawBody = Buffer.concat(chunks);
        request = { rawBody, headers: req.headers };
        signatureByJsrsasign = independentVerify(
          rawBody.toString('utf8'),
          String(req.headers['x-signature']),
          webhookPublicKey,
        );
      }
      try {
        const event =
          via === 'success'
            ? await constructSuccessCallback(request, companyKey, { brandId: V1.brandId })
            : await constructWebhookEvent(request, webhookPublicKey, { brandId: V1.brandId });
        const result = await perChannel[via].once(event, () => event.event_type);
        const once = await shared.once(event, () => event.event_type);
        log.push({
          via,
          status: result.status,
          shared: once.status,
          signatureByJsrsasign,
          event: event.event_type,
        });
        if (via === 'success' && loseFirstAcknowledgement) {
          // Handled, but the gateway does not hear so: it must deliver again.
          loseFirstAcknowledgement = false;
          res.writeHead(500).end();
          return;
        }
        res.writeHead(result.status === 'in_progress' ? 409 : 204).end();
      } catch (error) {
        log.push({ via, status: (error as SignatureVerificationError).code, signatureByJsrsasign });
        res.writeHead(401).end();
      }
    });
    try {
      const webhook = await v1.webhooks.create({
        title: 'paid',
        callback: `${receiver.url}/webhook`,
        events: ['purchase.paid'],
      });
      webhookPublicKey = webhook.public_key;
      assert.notEqual(webhookPublicKey, companyKey, 'the webhook has its own key');

      const purchase = await v1.purchases.create({
        brand_id: V1.brandId,
        purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language: 'en' },
        success_callback: `${receiver.url}/success`,
        success_redirect: 'https://shop.example/ok',
      });
      const expiry = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
      const paid = await fetch(new URL(`/checkout/${purchase.id}/pay`, sandbox.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          method: 'card',
          card_number: '4111 1111 1111 1111',
          card_expiry: expiry,
          card_cvc: '123',
          card_holder: 'Anna Tester',
        }).toString(),
        redirect: 'manual',
      });
      assert.equal(paid.status, 303);
      assert.equal(paid.headers.get('location'), 'https://shop.example/ok');
      assert.equal((await v1.purchases.get(purchase.id)).status, 'paid');

      const deadline = Date.now() + 5000;
      while (
        log.filter((entry) => entry.via === 'success').length < 2 ||
        !log.some((e) => e.via === 'webhook')
      ) {
        assert.ok(Date.now() < deadline, `callbacks so far: ${JSON.stringify(log)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(
        log.filter((entry) => entry.via === 'webhook').every((entry) => entry.signatureByJsrsasign === true),
        'jsrsasign verifies the webhook deliveries',
      );
      assert.ok(
        log.every((entry) => entry.event === 'purchase.paid'),
        JSON.stringify(log),
      );
      const successes = log.filter((entry) => entry.via === 'success').map((entry) => entry.status);
      assert.deepEqual(successes, ['processed', 'duplicate'], 'the repeat after a lost acknowledgement');
      assert.deepEqual(
        log.filter((entry) => entry.via === 'webhook').map((entry) => entry.status),
        ['processed'],
      );
      assert.equal(
        log.filter((entry) => entry.shared === 'processed').length,
        1,
        `callback and webhook carry the same snapshot, so they are one event: ${JSON.stringify(log)}`,
      );
    } finally {
      await receiver.close();
    }
  });
});
