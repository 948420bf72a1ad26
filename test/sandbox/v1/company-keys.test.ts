/**
 * One company key pair per v1 merchant (issue 21). The attack: merchant A creates a Purchase naming merchant
 * B's success callback URL and pays it; with one sandbox key for every merchant, B's receiver saw a validly
 * signed "paid". Now A's callback is signed with A's key, which B's does not verify, and a receiver given its
 * brand id refuses another brand's Purchase even when the key matched. Keys stay across restarts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import {
  constructSuccessCallback,
  SignatureVerificationError,
  type SignatureVerificationErrorCode,
} from '../../../src/server/index.js';
import { listen } from '../../server/support.js';
import { FakeMerchant, tempDir } from '../support.js';
import { cardForm, OTHER, postForm, purchaseBody, startV1Sandbox, V1, v1 } from './support.js';

describe('v1 company keys', () => {
  let merchant: FakeMerchant;
  before(async () => {
    merchant = await FakeMerchant.start();
  });
  after(() => merchant.close());

  test("merchant A's paid Purchase sent to merchant B's success callback is refused by B's receiver", async () => {
    const dataDir = await tempDir();
    const sandbox = await startV1Sandbox(merchant, { dataDir });
    // B is m1 (V1); A is m2 (OTHER). B's receiver is the README's: B's own key, B's brand.
    const keyOfB = (await v1(sandbox, 'GET', '/public_key/')).body as string;
    const keyOfA = (await v1(sandbox, 'GET', '/public_key/', { key: OTHER.secretKey })).body as string;
    const outcomes: Array<{ reference: string; outcome: 'accepted' | SignatureVerificationErrorCode }> = [];
    const received = new Map<string, { rawBody: Buffer; headers: IncomingHttpHeaders }>();
    const receiverOfB = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const request = { rawBody: Buffer.concat(chunks), headers: req.headers };
      const reference = JSON.parse(request.rawBody.toString('utf8')).reference as string;
      received.set(reference, request);
      try {
        await constructSuccessCallback(request, keyOfB, { brandId: V1.brandId });
        outcomes.push({ reference, outcome: 'accepted' });
        res.writeHead(204).end();
      } catch (error) {
        assert.ok(error instanceof SignatureVerificationError, String(error));
        outcomes.push({ reference, outcome: error.code });
        res.writeHead(401).end();
      }
    });
    try {
      const pay = async (key: string, brandId: string, reference: string) => {
        const created = await v1(sandbox, 'POST', '/purchases/', {
          key,
          body: purchaseBody({
            brand_id: brandId,
            reference,
            success_callback: `${receiverOfB.url}/paid`,
            success_redirect: 'https://shop.example/ok',
          }),
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const paid = await postForm(
          sandbox,
          `/checkout/${created.body.id}/pay`,
          cardForm('4111 1111 1111 1111'),
        );
        assert.equal(paid.status, 303, paid.html);
      };
      await pay(OTHER.secretKey, OTHER.brandId, 'order-of-B-17');
      await pay(V1.secretKey, V1.brandId, 'order-of-B-18');
      const deadline = Date.now() + 5000;
      // A's callback, refused, is delivered again: wait for each Purchase's first, not for any two.
      const heardBoth = () =>
        ['order-of-B-17', 'order-of-B-18'].every((reference) =>
          outcomes.some((entry) => entry.reference === reference),
        );
      while (!heardBoth()) {
        assert.ok(Date.now() < deadline, `callbacks so far: ${JSON.stringify(outcomes)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.deepEqual(
        outcomes.filter((entry) => entry.reference === 'order-of-B-17').map((entry) => entry.outcome)[0],
        'signature_invalid',
        "A's callback is not signed with B's key",
      );
      assert.deepEqual(
        outcomes.filter((entry) => entry.reference === 'order-of-B-18').map((entry) => entry.outcome),
        ['accepted'],
      );
      assert.notEqual(keyOfA, keyOfB, 'each company has its own key');
      // Had A's key verified (a receiver given the wrong key), B's brand id still refuses A's Purchase.
      await assert.rejects(
        constructSuccessCallback(received.get('order-of-B-17')!, keyOfA, { brandId: V1.brandId }),
        (error: unknown) => error instanceof SignatureVerificationError && error.code === 'brand_mismatch',
      );
    } finally {
      await receiverOfB.close();
      await sandbox.close();
    }

    // The same data dir: the same keys, each in a file of its own.
    const again = await startV1Sandbox(merchant, { dataDir });
    try {
      assert.equal((await v1(again, 'GET', '/public_key/')).body, keyOfB);
      assert.equal((await v1(again, 'GET', '/public_key/', { key: OTHER.secretKey })).body, keyOfA);
    } finally {
      await again.close();
    }
    assert.deepEqual((await readdir(join(dataDir, 'company-keys'))).sort(), [
      'merchant-m1.pem',
      'merchant-m2.pem',
      'merchant-m3.pem',
    ]);
  });

  test('a company key file emptied by hand stops the start with one line naming it', async () => {
    const dataDir = await tempDir();
    const first = await startV1Sandbox(merchant, { dataDir });
    await first.close();
    const file = join(dataDir, 'company-keys', 'merchant-m2.pem');
    writeFileSync(file, '');
    await assert.rejects(startV1Sandbox(merchant, { dataDir }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'unreadable_key');
      assert.equal(
        error.message,
        `${file} is empty; delete it to have a new company key made for merchant m2 (its receivers then fetch GET /api/v1/public_key/ again)`,
      );
      return true;
    });
  });
});

describe('service.privateKeyFile', () => {
  test('an empty file stops the CLI with one line naming the file and what to do', async () => {
    const dir = await tempDir();
    const keyFile = join(dir, 'empty.pem');
    writeFileSync(keyFile, '');
    const configFile = join(dir, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        service: { privateKeyFile: 'empty.pem' },
        merchants: [
          {
            id: 'm',
            name: 'M',
            apiKey: 'k',
            callbacks: { notificationUrl: 'http://127.0.0.1:9/n', termsUrl: 'http://127.0.0.1:9/t' },
          },
        ],
      }),
    );
    const run = promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/sandbox/cli.ts',
        '--port',
        '0',
        '--config',
        configFile,
        '--data-dir',
        join(dir, 'data'),
      ],
      { cwd: join(import.meta.dirname, '../../..') },
    );
    const failed = (await run.then(
      () => assert.fail('the CLI started'),
      (error: unknown) => error,
    )) as { code: number; stderr: string };
    assert.equal(failed.code, 1);
    assert.equal(
      failed.stderr,
      `svc-sandbox: ${keyFile} is empty; put the sandbox's RSA private key PEM there (BEGIN PRIVATE KEY), or ` +
        'remove service.privateKeyFile from the config to have a key pair made in the data dir\n',
    );
  });
});
