/**
 * `Date` and `Digest` of a signed merchant API v2 request as `verifyHttpSignature` reads them (issue 10):
 * the HTTP date (`GMT`) and the official client's PHP `D, d M Y H:i:s O` (`+0000`, any offset honoured), and
 * nothing else `Date.parse` would take; the Digest's algorithm name in any letter case. Requests are written
 * by hand and signed by jsrsasign.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import {
  generateMerchantKeyPair,
  type MerchantKeyPair,
  verifyHttpSignature,
} from '../../../src/server/index.js';
import { independentSign } from '../support.js';

let merchant: MerchantKeyPair;
before(async () => {
  merchant = await generateMerchantKeyPair();
});

const path = '/v2/merchants/m-1/orders/ord_1/refunds';
const body = '{"amount":10,"reason":"OTHER_REFUND","note":"Actual weight differs from ordered"}';
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** Verifies a POST signed by hand over `(request-target) date content-type digest`, as the official client signs. */
function verify(date: string, now: Date, digest = `SHA-256=${sha256(body)}`) {
  const signingString = [
    `(request-target): post ${path}`,
    `date: ${date}`,
    'content-type: application/json',
    `digest: ${digest}`,
  ].join('\n');
  const signature = independentSign(signingString, merchant.privateKeyPem);
  return verifyHttpSignature(
    {
      method: 'POST',
      path,
      rawBody: body,
      headers: {
        date,
        'content-type': 'application/json',
        digest,
        authorization: `Signature keyId="main",algorithm="rsa-sha256",headers="(request-target) date content-type digest",signature="${signature}"`,
      },
    },
    (keyId) => (keyId === 'main' ? merchant.publicKeyPem : undefined),
    { now },
  );
}

const outcome = (result: ReturnType<typeof verifyHttpSignature>) => (result.ok ? 'ok' : result.code);

describe('verifyHttpSignature: Date', () => {
  const now = new Date('2022-06-07T10:00:00Z');

  it('takes the HTTP date and the official client’s +0000 form of the same instant', () => {
    assert.equal(outcome(verify('Tue, 07 Jun 2022 10:00:00 GMT', now)), 'ok');
    assert.equal(outcome(verify('Tue, 07 Jun 2022 10:00:00 +0000', now)), 'ok');
  });

  it('honours another numeric zone: 12:00 +0200 and 04:30 -0530 are 10:00 UTC', () => {
    assert.equal(outcome(verify('Tue, 07 Jun 2022 12:00:00 +0200', now)), 'ok');
    assert.equal(outcome(verify('Tue, 07 Jun 2022 04:30:00 -0530', now)), 'ok');
    // The same wall time in UTC is two hours off: outside the skew.
    assert.equal(outcome(verify('Tue, 07 Jun 2022 12:00:00 +0000', now)), 'date_skew');
  });

  it('keeps the skew for both forms: 5 minutes either way', () => {
    for (const date of ['Tue, 07 Jun 2022 10:05:00 GMT', 'Tue, 07 Jun 2022 09:55:00 +0000']) {
      assert.equal(outcome(verify(date, now)), 'ok', date);
    }
    for (const date of ['Tue, 07 Jun 2022 10:05:01 GMT', 'Tue, 07 Jun 2022 09:54:59 +0000']) {
      assert.equal(outcome(verify(date, now)), 'date_skew', date);
    }
  });

  it('refuses text that is no HTTP date, naming the two forms to send, even where Date.parse reads it', () => {
    const notDates = [
      '2022-06-07T10:00:00Z',
      '2022-06-07T10:00:00.000Z',
      'Tue Jun 07 2022 10:00:00 GMT+0000',
      'Tue, 7 Jun 2022 10:00:00 GMT',
      'Tue, 07 Jun 2022 10:00:00 gmt',
      'Tue, 07 Jun 2022 10:00:00 UTC',
      'Tue, 07 Jun 2022 10:00:00 +00:00',
      'Tue, 07 Jun 2022 10:00:00',
      'Tue, 07 Jun 2022 10:00:00 +0060',
      'Tue, 31 Feb 2022 10:00:00 GMT',
      'Tue, 07 Jun 2022 24:00:00 GMT',
      'Tue, 07 Jun 2022 10:00:60 GMT',
      'Tue, 07 Jux 2022 10:00:00 GMT',
      'garbage June 7 2022 10:00',
    ];
    for (const date of notDates) {
      const result = verify(date, now);
      assert.equal(outcome(result), 'date_skew', date);
      assert.ok(!result.ok && /GMT.*\+0000/.test(result.message), date);
    }
    const wrongDay = verify('Mon, 07 Jun 2022 10:00:00 +0000', now);
    assert.ok(!wrongDay.ok && /says Mon, but 07 Jun 2022 is a Tue/.test(wrongDay.message));
  });
});

describe('verifyHttpSignature: Digest', () => {
  const now = new Date('2022-06-07T10:00:00Z');
  const date = 'Tue, 07 Jun 2022 10:00:00 +0000';

  it('matches the digest the official client’s own test pins for its refund body', () => {
    assert.equal(`SHA-256=${sha256(body)}`, 'SHA-256=T1tfEOr6+zk0tOzCIjaFSS/dd2tWDYrtNWA5gP5ivoQ=');
  });

  it('takes the algorithm name in any letter case, and checks the digest all the same', () => {
    for (const name of ['SHA-256', 'sha-256', 'Sha-256']) {
      assert.equal(outcome(verify(date, now, `${name}=${sha256(body)}`)), 'ok', name);
      assert.equal(outcome(verify(date, now, `${name}=${sha256(`${body} `)}`)), 'digest_mismatch', name);
    }
    assert.equal(outcome(verify(date, now, `md5=${sha256(body)}`)), 'digest_mismatch');
  });
});
