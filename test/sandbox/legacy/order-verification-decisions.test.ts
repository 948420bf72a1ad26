/**
 * A CALLBACK widget's order and the merchant's decision (issue 10): the real token; the verification URL's
 * answer approving, or rejecting with a reason that the widget API's error carries; and the official
 * client's flow, in which the answer decides nothing and the merchant approves (`PUT`) or rejects (`DELETE`,
 * `{reasonCode}`) through merchant API v2, in its own shape (a JWS body signed with the merchant's key) or
 * the toolkit client's. Real HTTP throughout; tokens are checked by jsrsasign alone.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import jsrsasign from 'jsrsasign';
import { ORDER_REJECTION_REASONS } from '../../../src/core/legacy-callbacks.js';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { createMerchantApiV2Client, MerchantApiError } from '../../../src/server/index.js';
import { listen } from '../../server/support.js';
import {
  API_KEY,
  call,
  FakeMerchant,
  merchantKeys,
  paidOrder,
  startCli,
  tempDir,
  testConfigFile,
  WIDGETS,
} from '../support.js';
import { jwsParts, officialJws, rawExchange } from './official-client.js';

/** Whether `token` is `good` written otherwise: a compact JWS whose three parts decode to the same bytes. */
function sameJws(token: string, good: string): boolean {
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) return false;
  const parts = (text: string) => text.split('.').map((part) => Buffer.from(part, 'base64url'));
  const [a, b] = [parts(token), parts(good)];
  return a.every((part, index) => part.equals(b[index]!));
}

/** What the merchant's verification URL answers; it may call merchant API v2 first. */
type Verifier = (orderId: string) => Promise<{ status: number; body: string } | 'hang up'>;

describe('CALLBACK order verification and the merchant’s decision', () => {
  let merchant: FakeMerchant;
  let verificationUrl: Awaited<ReturnType<typeof listen>>;
  /** Waits for decisions as long as the default (30 s): decisions here come at once. */
  let sandbox: Sandbox;
  /** Gives up waiting after 150 ms. */
  let quick: Sandbox;
  let verify: Verifier = async () => ({ status: 200, body: '{"approved":true}' });
  const tokens: string[] = [];
  const arrivals: Array<() => void> = [];

  before(async () => {
    merchant = await FakeMerchant.start();
    verificationUrl = await listen(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const token = Buffer.concat(chunks).toString('utf8');
      tokens.push(token);
      for (const wake of arrivals.splice(0)) wake();
      const answer = await verify(JSON.parse(jwsParts(token).payload).orderId);
      if (answer === 'hang up') req.socket.destroy();
      else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    const start = async (decisionTimeoutMs?: number) => {
      const file = testConfigFile(merchant.url);
      file.merchants[0]!.callbacks.orderVerificationUrl = `${verificationUrl.url}/verify-order`;
      if (decisionTimeoutMs !== undefined) file.orderVerification = { decisionTimeoutMs };
      return startSandbox({ port: 0, config: parseConfig(file), dataDir: await tempDir() });
    };
    [sandbox, quick] = await Promise.all([start(), start(150)]);
  });
  after(async () => {
    await Promise.all([sandbox.close(), quick.close()]);
    await verificationUrl.close();
    await merchant.close();
  });

  const client = (on: Sandbox = sandbox) =>
    createMerchantApiV2Client({
      baseUrl: on.url,
      merchantId: 'm1',
      apiKey: API_KEY,
      certificateName: 'main',
      privateKeyPem: merchantKeys.main.privateKeyPem,
    });
  /** The page's order intake; resolves when the sandbox answers it. */
  const intake = (orderId: string, on: Sandbox = sandbox) =>
    call(on, 'POST', '/widget-api/v1/orders', {
      order: { widgetId: WIDGETS.callback, orderId, items: [{ amount: '12.00', label: 'Tea' }] },
    });
  /** The gateway id of the next order the verification URL is asked about. */
  const nextOrderId = async (): Promise<string> => {
    const seen = tokens.length;
    while (tokens.length === seen) await new Promise<void>((resolve) => arrivals.push(resolve));
    return JSON.parse(jwsParts(tokens[seen]!).payload).orderId as string;
  };
  /** An intake whose verification URL answers 2xx without a decision; its gateway id once asked. */
  const pendingIntake = async (orderId: string, on: Sandbox = sandbox) => {
    verify = async () => ({ status: 200, body: '' });
    const asked = nextOrderId();
    const answered = intake(orderId, on);
    return { id: await asked, answered };
  };
  /** Approval or rejection exactly as the official client sends it: a JWS body, the API key, no signature. */
  const official = (
    method: 'PUT' | 'DELETE',
    id: string,
    payload: object,
    signer: { kid?: string; privateKeyPem?: string; token?: string } = {},
    on: Sandbox = sandbox,
  ) => {
    const body =
      signer.token ??
      officialJws(payload, signer.kid ?? 'main', signer.privateKeyPem ?? merchantKeys.main.privateKeyPem);
    const head = [
      `${method} /v2/merchants/m1/orders/${id} HTTP/1.1`,
      `Host: 127.0.0.1:${on.port}`,
      'Content-Type: application/json',
      'Accept: application/json',
      'User-Agent: Klix/1.0.0/php',
      `X-Svc-Api-Key: ${API_KEY}`,
    ].join('\r\n');
    return rawExchange(on.port, head, body);
  };
  const pay = (id: string, on: Sandbox = sandbox) =>
    call(on, 'POST', `/widget-api/v1/orders/${id}/payments`, {
      idempotencyKey: `pay-${id}`,
      card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'T' },
    });
  const code = (answer: { body: Record<string, unknown> }) =>
    (answer.body['error'] as { code: string } | undefined)?.code;

  test('sends the real token: {kid, alg: RS256} over {orderId, externalOrderId}, without iat', async () => {
    verify = async () => ({ status: 200, body: '{"approved":true}' });
    const seen = tokens.length;
    const approved = await intake('CB-TOKEN');
    assert.equal(approved.status, 201, JSON.stringify(approved.body));
    const token = tokens[seen]!;
    // jsrsasign alone, with the sandbox's certificate as merchants download it.
    assert.ok(jsrsasign.KJUR.jws.JWS.verifyJWT(token, sandbox.serviceCertificatePem, { alg: ['RS256'] }));
    const { header, payload } = jwsParts(token);
    assert.equal(header, '{"kid":"svc-sandbox","alg":"RS256"}');
    assert.equal(payload, `{"orderId":"${approved.body['id']}","externalOrderId":"CB-TOKEN"}`);
    assert.equal((await pay(approved.body['id'])).body['state'], 'PAID');
  });

  test('the answer rejects with each reason, which the intake’s error carries', async () => {
    for (const reasonCode of ORDER_REJECTION_REASONS) {
      verify = async () => ({ status: 200, body: JSON.stringify({ approved: false, reasonCode }) });
      const asked = nextOrderId();
      const rejected = await intake(`CB-REJECT-${reasonCode}`);
      assert.equal(rejected.status, 403, reasonCode);
      assert.equal(code(rejected), 'order_rejected');
      assert.equal(rejected.body['error'].reason, reasonCode);
      // Kept for the merchant to read, and never payable.
      const id = await asked;
      assert.equal((await client().getOrder(id)).id, id);
      assert.equal(code(await pay(id)), 'order_not_approved');
    }
  });

  test('a rejection without a known reason carries none; a non-2xx or unclear answer is a rejection', async () => {
    const answers = [
      { status: 200, body: '{"approved":false}', says: /did not approve this order$/ },
      {
        status: 200,
        body: '{"approved":false,"reasonCode":"Out of stock"}',
        says: /"Out of stock" is not one of/,
      },
      { status: 200, body: '{"approved":"yes"}', says: /not true or false/ },
      { status: 500, body: '{"approved":true}', says: /answered 500/ },
    ];
    for (const [index, answer] of answers.entries()) {
      verify = async () => answer;
      const rejected = await intake(`CB-UNCLEAR-${index}`);
      assert.equal(rejected.status, 403, answer.body);
      assert.equal(code(rejected), 'order_rejected');
      assert.equal(rejected.body['error'].reason, undefined, answer.body);
      assert.match(rejected.body['error'].message, answer.says);
    }
  });

  test('an order id read through merchant API v2 is the approved cart, not one rejected before it', async () => {
    verify = async () => ({ status: 200, body: '{"approved":false,"reasonCode":"PRICE_CHANGED"}' });
    assert.equal((await intake('CB-AGAIN')).status, 403);
    verify = async () => ({ status: 200, body: '{"approved":true}' });
    const approved = await intake('CB-AGAIN');
    assert.equal(approved.status, 201);
    assert.equal((await client().getOrder('CB-AGAIN')).id, approved.body['id']);
  });

  test('the official client’s flow: no decision in the answer, the order read, then PUT approves it', async () => {
    const { id, answered } = await pendingIntake('CB-PUT');
    // Meanwhile the order is kept: the merchant reads it; the widget API does not take it.
    const order = await client().getOrder(id);
    assert.equal(order.id, id);
    assert.equal(code(await call(sandbox, 'GET', `/widget-api/v1/orders/${id}`)), 'order_not_approved');
    // The official client sends back the order it read, in a JWS.
    const approved = await official('PUT', id, order);
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.deepEqual(approved.body, { id, decision: 'APPROVED', reasonCode: null });
    const created = await answered;
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body['id'], id);
    assert.equal((await pay(id)).body['state'], 'PAID');
  });

  test('the official client’s DELETE with {reasonCode} rejects: the intake answers order_rejected with it', async () => {
    const { id, answered } = await pendingIntake('CB-DELETE');
    const rejected = await official('DELETE', id, { reasonCode: 'PRICE_CHANGED' });
    assert.deepEqual(rejected.body, { id, decision: 'REJECTED', reasonCode: 'PRICE_CHANGED' });
    const refused = await answered;
    assert.equal(refused.status, 403);
    assert.deepEqual(
      { code: code(refused), reason: refused.body['error'].reason },
      { code: 'order_rejected', reason: 'PRICE_CHANGED' },
    );
  });

  test('the toolkit client’s approveOrder and rejectOrder, HTTP-signed', async () => {
    const first = await pendingIntake('CB-CLIENT-1');
    const approved = await client().approveOrder(first.id);
    assert.deepEqual(
      [approved.httpStatus, approved.id, approved.decision, approved.reasonCode],
      [200, first.id, 'APPROVED', null],
    );
    assert.equal((await first.answered).status, 201);
    const second = await pendingIntake('CB-CLIENT-2');
    const rejected = await client().rejectOrder(second.id, 'DELIVERY_ADDRESS_NOT_SUPPORTED');
    assert.equal(rejected.reasonCode, 'DELIVERY_ADDRESS_NOT_SUPPORTED');
    assert.equal((await second.answered).body['error'].reason, 'DELIVERY_ADDRESS_NOT_SUPPORTED');
    await assert.rejects(
      client().rejectOrder(second.id, 'Out of stock' as never),
      (error: unknown) =>
        error instanceof MerchantApiError && error.code === 'invalid_request' && /OTHER/.test(error.message),
    );
  });

  test('a decision made before the verification URL answers stands, whatever the answer says after', async () => {
    verify = async (orderId) => {
      await client().approveOrder(orderId);
      return { status: 200, body: '{}' };
    };
    assert.equal((await intake('CB-EARLY-1')).status, 201);
    verify = async (orderId) => {
      await client().rejectOrder(orderId, 'MERCHANT_RISK_TOO_HIGH');
      return { status: 200, body: '{"approved":true}' };
    };
    const refused = await intake('CB-EARLY-2');
    assert.equal(refused.status, 403);
    assert.equal(refused.body['error'].reason, 'MERCHANT_RISK_TOO_HIGH');
  });

  test('a decision is taken once: a repeat, a contrary one, or two at once get 409 order_already_decided', async () => {
    const { id, answered } = await pendingIntake('CB-TWICE');
    assert.equal((await client().approveOrder(id)).httpStatus, 200);
    for (const again of [
      () => official('PUT', id, { id }),
      () => official('DELETE', id, { reasonCode: 'OTHER' }),
    ]) {
      const answer = await again();
      assert.equal(answer.status, 409);
      assert.equal(code(answer), 'order_already_decided');
    }
    assert.equal((await answered).status, 201);

    const race = await pendingIntake('CB-RACE');
    const answers = await Promise.all([
      official('PUT', race.id, { id: race.id }),
      official('DELETE', race.id, { reasonCode: 'OTHER' }),
    ]);
    const won = answers.find((answer) => answer.status === 200)!;
    assert.deepEqual(
      answers.map((answer) => answer.status).sort(),
      [200, 409],
      JSON.stringify(answers.map((answer) => answer.body)),
    );
    assert.equal(code(answers.find((answer) => answer.status === 409)!), 'order_already_decided');
    const result = await race.answered;
    assert.equal(result.status, won.body['decision'] === 'APPROVED' ? 201 : 403);
  });

  test('a decision on an order that awaits none: 409 order_not_awaiting_decision; an unknown order: 404', async () => {
    const signed = await paidOrder(sandbox, 'CB-SIGNED');
    const answer = await official('PUT', signed, { id: signed });
    assert.equal(answer.status, 409);
    assert.equal(code(answer), 'order_not_awaiting_decision');
    const missing = await official('DELETE', 'no-such-order', { reasonCode: 'OTHER' });
    assert.equal(missing.status, 404);
  });

  test('no decision in time: the intake is refused 504, and a decision after it gets 409 verification_expired', async () => {
    const { id, answered } = await pendingIntake('CB-LATE', quick);
    const refused = await answered;
    assert.equal(refused.status, 504);
    assert.equal(code(refused), 'verification_timeout');
    assert.match(refused.body['error'].message, /orderVerification\.decisionTimeoutMs/);
    for (const method of ['PUT', 'DELETE'] as const) {
      const late = await official(method, id, { id, reasonCode: 'OTHER' }, {}, quick);
      assert.equal(late.status, 409);
      assert.equal(code(late), 'verification_expired');
    }
    assert.equal(code(await pay(id, quick)), 'order_not_approved');
  });

  test('the wait is orderVerification.decisionTimeoutMs in the config: 30 s unless set, at least 1 ms', () => {
    assert.deepEqual(parseConfig(testConfigFile(merchant.url)).orderVerification, {
      decisionTimeoutMs: 30_000,
    });
    assert.throws(
      () => parseConfig({ ...testConfigFile(merchant.url), orderVerification: { decisionTimeoutMs: 0 } }),
      /orderVerification\.decisionTimeoutMs/,
    );
  });

  test('a verification URL that hangs up: 502, and a decision after it gets 409 verification_expired', async () => {
    verify = async () => 'hang up';
    const asked = nextOrderId();
    const refused = await intake('CB-HANGUP');
    assert.equal(refused.status, 502);
    assert.equal(code(refused), 'verification_unreachable');
    const late = await client()
      .approveOrder(await asked)
      .catch((error: unknown) => error);
    assert.ok(late instanceof MerchantApiError && late.status === 409, String(late));
    assert.equal((late.body as { error: { code: string } }).error.code, 'verification_expired');
  });

  test('kill -9 while an order waits for its decision: after the restart the order stays unpayable, and a late decision gets 409 verification_expired', async () => {
    const dataDir = await tempDir();
    const file = testConfigFile(merchant.url);
    file.merchants[0]!.callbacks.orderVerificationUrl = `${verificationUrl.url}/verify-order`;
    const configPath = join(dataDir, '..', `${basename(dataDir)}-config.json`);
    await writeFile(configPath, JSON.stringify(file));
    const first = await startCli(configPath, dataDir);
    const on = { url: first.url, port: first.port } as Sandbox;
    verify = async () => ({ status: 200, body: '' });
    const asked = nextOrderId();
    const answered = intake('CB-KILLED', on).catch((error: unknown) => error);
    const id = await asked;
    first.cli.kill('SIGKILL');
    assert.equal((await once(first.cli, 'exit'))[1], 'SIGKILL');
    assert.ok((await answered) instanceof Error, 'the page’s intake was cut with the process');

    const second = await startCli(configPath, dataDir);
    try {
      const after = { url: second.url, port: second.port } as Sandbox;
      const late = await client(after)
        .approveOrder(id)
        .catch((error: unknown) => error);
      assert.ok(late instanceof MerchantApiError && late.status === 409, String(late));
      assert.equal((late.body as { error: { code: string } }).error.code, 'verification_expired');
      // Nobody approved it: the stored order takes no card.
      const refused = await pay(id, after);
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(code(refused), 'order_not_approved');
    } finally {
      second.cli.kill('SIGKILL');
      await once(second.cli, 'exit');
    }
  });

  test('refuses decisions it cannot trust or read, naming why, and decides nothing until a good one', async () => {
    const { id, answered } = await pendingIntake('CB-REFUSED');
    const other = merchantKeys.cert.privateKeyPem;
    const none = `${Buffer.from('{"alg":"none","kid":"main"}').toString('base64url')}.${Buffer.from(`{"id":"${id}"}`).toString('base64url')}.`;
    // HMAC keyed with the certificate's public text, which anyone may know.
    const hs256 = jsrsasign.KJUR.jws.JWS.sign(null, '{"alg":"HS256","kid":"main"}', `{"id":"${id}"}`, {
      utf8: merchantKeys.main.publicKeyPem,
    });
    const refusals: Array<[Promise<{ status: number; body: Record<string, unknown> }>, number, string]> = [
      [official('PUT', id, { id }, { privateKeyPem: other }), 401, 'signature_invalid'],
      [official('PUT', id, { id }, { kid: 'cert' }), 401, 'signature_invalid'],
      [
        official('PUT', id, { id }, { kid: 'old', privateKeyPem: merchantKeys.old.privateKeyPem }),
        401,
        'unknown_key',
      ],
      [official('PUT', id, { id }, { kid: 'nobody' }), 401, 'unknown_key'],
      // Without a signature part it is no JWS: read as JSON, which needs an HTTP signature.
      [official('PUT', id, {}, { token: none }), 401, 'missing_authorization'],
      [official('PUT', id, {}, { token: `${none}AAAA` }), 401, 'signature_invalid'],
      [official('PUT', id, {}, { token: hs256 }), 401, 'signature_invalid'],
      [official('PUT', id, { id: 'another-order' }), 400, 'order_mismatch'],
      // A rejection's JWS names no order, and a JWS does not sign the method: it cannot approve.
      [official('PUT', id, { reasonCode: 'OTHER' }), 400, 'order_mismatch'],
      [official('DELETE', id, { reasonCode: 'OUT_OF_STOCK' }), 400, 'invalid_reason_code'],
      [official('DELETE', id, {}), 400, 'invalid_reason_code'],
    ];
    for (const [answer, status, expected] of refusals) {
      const { status: got, body } = await answer;
      assert.deepEqual([got, code({ body })], [status, expected], JSON.stringify(body));
    }
    // JSON without an HTTP signature is not the official client's shape: it must be signed.
    const unsigned = await fetch(`${sandbox.url}/v2/merchants/m1/orders/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-svc-api-key': API_KEY },
      body: JSON.stringify({ id }),
    });
    assert.equal(unsigned.status, 401);
    const wrongKey = await fetch(`${sandbox.url}/v2/merchants/m1/orders/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-svc-api-key': 'nope' },
      body: officialJws({ id }, 'main', merchantKeys.main.privateKeyPem),
    });
    assert.equal(wrongKey.status, 401);
    assert.equal((await official('PUT', id, { id })).status, 200, 'nothing was decided before');
    assert.equal((await answered).status, 201);
  });

  test('fixed-seed fuzz: mangled decision bodies on a raw socket get a 4xx, never a 5xx or a decision', async () => {
    const { id, answered } = await pendingIntake('CB-FUZZ');
    const good = officialJws({ reasonCode: 'OTHER' }, 'main', merchantKeys.main.privateKeyPem);
    const mangled = fc
      .record({
        method: fc.constantFrom('PUT', 'DELETE'),
        at: fc.nat({ max: good.length - 1 }),
        insert: fc.constantFrom('', '.', 'A', '=', '%', '{', '"', '__proto__', '\u0000', '..'),
        cut: fc.nat({ max: 4 }),
      })
      .map(({ method, at, insert, cut }) => ({
        method: method as 'PUT' | 'DELETE',
        body: `${good.slice(0, at)}${insert}${good.slice(at + (insert === '' ? Math.max(cut, 1) : cut))}`,
      }))
      // A change that decodes to the same bytes (the last Base64url letter's unused bits) is the same JWS.
      .filter(({ body }) => !sameJws(body, good));
    const extra = [
      '{"reasonCode":"OTHER","__proto__":{"approved":true}}',
      `${good}.`,
      good.split('.').slice(0, 2).join('.'),
      '["OTHER"]',
      'null',
    ].map((body) => ({ method: 'DELETE' as const, body }));
    for (const { method, body } of [...fc.sample(mangled, { seed: 20261010, numRuns: 150 }), ...extra]) {
      const answer = await official(method, id, {}, { token: body });
      assert.ok(answer.status >= 400 && answer.status < 500, `${method} ${body}: ${answer.status}`);
    }
    assert.equal((await official('DELETE', id, {}, { token: good })).status, 200);
    assert.equal((await answered).body['error'].reason, 'OTHER');
  });
});
