/**
 * What the journal costs a Purchase that is asked the same refused operation over and over (issue 21: 3,000
 * refused captures of one Purchase wrote 848 MB, each refusal rewriting the whole record): each change is
 * journalled as what changed, so the journal grows by a small record per refusal (with the deliveries' own
 * records, which depend on timing), and a restart loads the
 * Purchase exactly as it was answered.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { cardForm, postForm, purchaseBody, v1, withV1Sandbox } from './support.js';

const fixture = withV1Sandbox();
let dataDir: string;
let sandbox: Sandbox;

before(async () => ({ dataDir, sandbox } = await fixture.ready));

test('1,000 refused captures of a paid Purchase add a small journal record each', async (t) => {
  const created = await v1(sandbox, 'POST', '/purchases/', {
    body: purchaseBody({ client: { email: 'a@example.com', full_name: 'Anna' } }),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;
  assert.equal((await postForm(sandbox, `/checkout/${id}/pay`, cardForm('4111111111111111'))).status, 200);
  assert.equal((await v1(sandbox, 'GET', `/purchases/${id}/`)).body.status, 'paid');
  const journal = join(dataDir, 'state', 'journal.jsonl');
  const before = statSync(journal).size;
  const refusals = 1000;
  for (let i = 0; i < refusals; i++) {
    const refused = await v1(sandbox, 'POST', `/purchases/${id}/capture/`, { body: {} });
    assert.ok(refused.status >= 400 && refused.status < 500, `refusal ${i}: ${refused.status}`);
  }
  const purchase = await v1(sandbox, 'GET', `/purchases/${id}/`);
  const perRefusal = (statSync(journal).size - before) / refusals;
  t.diagnostic(`${perRefusal.toFixed(0)} journal bytes a refusal`);
  assert.ok(
    perRefusal < 4_000,
    `the journal grew by ${perRefusal.toFixed(0)} bytes a refusal (the Purchase: ${JSON.stringify(purchase.body).length} bytes)`,
  );
  const answered = JSON.stringify(purchase.body).replaceAll(sandbox.url, '<sandbox>');
  await sandbox.close();
  sandbox = await fixture.restart();
  const reloaded = await v1(sandbox, 'GET', `/purchases/${id}/`);
  // The restarted sandbox listens on another port: its links differ, nothing else does.
  assert.equal(JSON.stringify(reloaded.body).replaceAll(sandbox.url, '<sandbox>'), answered);
});

test('a changed digit or id in the journal stops the start, naming the file and the line', async () => {
  const created = await v1(sandbox, 'POST', '/purchases/', {
    body: purchaseBody({ client: { email: 'b@example.com', full_name: 'Berta' } }),
  });
  const id = created.body.id as string;
  assert.equal((await postForm(sandbox, `/checkout/${id}/pay`, cardForm('4111111111111111'))).status, 200);
  assert.equal((await v1(sandbox, 'GET', `/purchases/${id}/`)).body.status, 'paid');
  await sandbox.close();
  const journal = join(dataDir, 'state', 'journal.jsonl');
  const original = readFileSync(journal, 'utf8');
  const lines = original.split('\n');
  // A whole record or a patch: `"refundable_amount":2500` or `["refundable_amount"],2500`.
  for (const [from, to] of [
    [/("refundable_amount"(?::|\],))2500/, '$19500'],
    [new RegExp(id), `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`],
  ] as const) {
    const index = lines.findLastIndex((line) => from.test(line));
    assert.ok(index > 0, `the journal holds ${from}`);
    const damaged = [...lines];
    damaged[index] = damaged[index]!.replace(from, to);
    writeFileSync(journal, damaged.join('\n'));
    await assert.rejects(fixture.restart(), (error: Error) => {
      assert.match(
        error.message,
        new RegExp(`journal\\.jsonl is damaged at line ${index + 1}: its checksum does not match`),
      );
      return true;
    });
  }
  writeFileSync(journal, original);
  sandbox = await fixture.restart();
  assert.equal((await v1(sandbox, 'GET', `/purchases/${id}/`)).body.refundable_amount, 2500);
});
