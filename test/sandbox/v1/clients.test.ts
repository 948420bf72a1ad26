/**
 * v1 Clients and their saved cards: the typed client against the sandbox over HTTP, every endpoint with its
 * 400 and 404 cases, and the Clients rules of the document: a Purchase with `client_id` paid with
 * `force_recurring` saves a token to the Client; a deleted token is refused by `charge` and turns
 * `is_recurring_token` false.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { CreatePurchaseRequest } from '../../../src/core/v1-types.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { createV1Client, V1ApiError, type V1Client } from '../../../src/server/index.js';
import type { FakeMerchant } from '../support.js';
import { cardForm, OTHER, postForm, purchaseBody, v1, withV1Sandbox } from './support.js';

/** The hosted page in English, for the tests that read it. */
const ENGLISH = { purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language: 'en' } };

describe('v1 Clients and saved cards', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let client: V1Client;

  before(() => ({ merchant, sandbox, client } = fixture));

  async function rejected(call: Promise<unknown>): Promise<V1ApiError> {
    const error = await call.then(
      () => assert.fail('expected a refusal'),
      (error: unknown) => error,
    );
    assert.ok(error instanceof V1ApiError, String(error));
    return error;
  }

  /** A Purchase of {@link purchaseBody} with `overrides`, created through the client. */
  const createPurchase = (overrides?: Record<string, unknown>) =>
    client.purchases.create(purchaseBody(overrides) as unknown as CreatePurchaseRequest);

  /** A Purchase of the Client paid on the hosted page with `card`, saving it when `save`. */
  async function paidFor(clientId: string, save: boolean, card = '4111111111111111') {
    const purchase = await createPurchase({ client_id: clientId, force_recurring: save });
    await postForm(sandbox, `/checkout/${purchase.id}/pay`, cardForm(card));
    return client.purchases.get(purchase.id);
  }

  test('create, get, list, replace, change and delete a Client', async () => {
    const created = await client.clients.create({
      email: 'anna@example.com',
      full_name: 'Anna Tester',
      country: 'LV',
    });
    assert.equal(created.email, 'anna@example.com');
    assert.equal(created.full_name, 'Anna Tester');
    assert.equal(created.phone, '', 'every member of the platform’s ClientDetails is there, unset ones ""');
    assert.equal(created.shipping_street_address, '');
    assert.deepEqual(created.cc, []);
    assert.equal(created.client_type, null);
    assert.deepEqual(created.delivery_methods, [{ method: 'email', options: {} }]);
    assert.equal(typeof created.created_on, 'number');
    assert.deepEqual(await client.clients.get(created.id), created);

    const patched = await client.clients.patch(created.id, {
      phone: '+371 2000 0000',
      full_name: null,
      shipping_country: 'EE',
      bcc: ['books@example.com'],
    });
    assert.equal(patched.phone, '+371 2000 0000');
    assert.equal(patched.full_name, '');
    assert.equal(patched.shipping_country, 'EE');
    assert.deepEqual(patched.bcc, ['books@example.com']);
    assert.equal(patched.country, 'LV', 'a PATCH keeps what it does not name');
    const replaced = await client.clients.update(created.id, { email: 'anna@example.org' });
    assert.equal(replaced.email, 'anna@example.org');
    assert.equal(replaced.phone, '', 'a PUT clears what it does not send');
    assert.deepEqual(replaced.bcc, []);
    const roundTrip = await v1(sandbox, 'PUT', `/clients/${created.id}/`, { body: replaced });
    assert.equal(roundTrip.status, 200, 'what a GET answers, PUT back unchanged, is taken');
    assert.equal(replaced.created_on, created.created_on);

    const listed = [];
    for await (const item of client.clients.list({ per_page: 1 })) listed.push(item.id);
    assert.ok(listed.includes(created.id));

    await client.clients.delete(created.id);
    assert.equal((await rejected(client.clients.get(created.id))).code, 'not_found');
    assert.equal((await rejected(client.clients.delete(created.id))).code, 'not_found');
  });

  test('bodies are checked field by field, with the document’s 400 shape', async () => {
    const missing = await v1(sandbox, 'POST', '/clients/', { body: { full_name: 'No Mail' } });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.email.code, 'required');
    const bad = await v1(sandbox, 'POST', '/clients/', {
      body: { email: 'not-an-address', country: 'lv', phone: 5, nickname: 'x', city: 'x'.repeat(300) },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.email.code, 'invalid');
    assert.equal(bad.body.country.code, 'invalid');
    assert.equal(bad.body.phone.code, 'invalid');
    assert.equal(bad.body.nickname.code, 'invalid');
    assert.equal(bad.body.city.code, 'max_length');
    const created = await client.clients.create({ email: 'b@example.com' });
    const put = await v1(sandbox, 'PUT', `/clients/${created.id}/`, { body: { full_name: 'No Mail' } });
    assert.equal(put.body.email.code, 'required', 'a PUT is a whole Client');
    const patch = await v1(sandbox, 'PATCH', `/clients/${created.id}/`, { body: { email: '' } });
    assert.equal(patch.status, 400);
    assert.equal((await client.clients.get(created.id)).email, 'b@example.com', 'nothing changed');
  });

  test('another account’s Client is no Client: 404 everywhere, and no client_id of a Purchase', async () => {
    const theirs = createV1Client({ baseUrl: sandbox.url, secretKey: OTHER.secretKey });
    const created = await theirs.clients.create({ email: 'c@example.com' });
    assert.equal((await rejected(client.clients.get(created.id))).code, 'not_found');
    assert.equal((await rejected(client.clients.patch(created.id, { phone: '1' }))).code, 'not_found');
    const walk = async () => {
      for await (const _token of client.clients.recurringTokens(created.id)) assert.fail('none of ours');
    };
    assert.equal((await rejected(walk())).code, 'not_found');
    const purchase = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ client_id: created.id }),
    });
    assert.equal(purchase.status, 400);
    assert.equal(purchase.body.client_id.code, 'invalid');
  });

  test('a Purchase with client_id takes the Client’s details where its own client leaves them out', async () => {
    const stored = await client.clients.create({
      email: 'd@example.com',
      full_name: 'Dace',
      personal_code: '1',
      city: 'Rīga',
    });
    const purchase = await createPurchase({
      client_id: stored.id,
      client: { full_name: 'Dace Tester' },
    });
    assert.equal(purchase.client.email, 'd@example.com');
    assert.equal(purchase.client.full_name, 'Dace Tester');
    assert.equal(purchase.client.personal_code, '1');
    assert.equal(purchase.client.city, 'Rīga');
    assert.equal(purchase.client.phone, '', 'what neither gives is ""');
    assert.equal(purchase.client_id, stored.id);
  });

  test('a card saved with force_recurring is the Client’s token; deleted, charge refuses it', async () => {
    const stored = await client.clients.create({ email: 'e@example.com' });
    await paidFor(stored.id, false);
    const saved = await paidFor(stored.id, true);
    assert.equal(saved.is_recurring_token, true);
    const tokens = [];
    for await (const token of client.clients.recurringTokens(stored.id)) tokens.push(token);
    assert.deepEqual(
      tokens.map((token) => [token.id, token.payment_method, token.description, token.card?.last4]),
      [[saved.id, 'visa', 'Visa •••• 1111', '1111']],
      'only the saved card, not the one paid without saving',
    );
    assert.deepEqual(await client.clients.getRecurringToken(stored.id, saved.id), tokens[0]);

    // It pays a later Purchase without the customer.
    const next = await createPurchase({ client_id: stored.id });
    assert.equal((await client.purchases.charge(next.id, { recurring_token: saved.id })).status, 'paid');

    await client.clients.deleteRecurringToken(stored.id, saved.id);
    assert.equal((await client.purchases.get(saved.id)).is_recurring_token, false);
    assert.equal((await rejected(client.clients.getRecurringToken(stored.id, saved.id))).code, 'not_found');
    const another = await createPurchase();
    const refused = await rejected(client.purchases.charge(another.id, { recurring_token: saved.id }));
    assert.equal(refused.errors?.[0]?.code, 'purchase_charge_error');
  });

  test('deleting a Client deletes its saved cards; its Purchases stay', async () => {
    const stored = await client.clients.create({ email: 'f@example.com' });
    const saved = await paidFor(stored.id, true);
    await client.clients.delete(stored.id);
    const after = await client.purchases.get(saved.id);
    assert.equal(after.status, 'paid');
    assert.equal(after.is_recurring_token, false);
    assert.equal((await rejected(client.clients.getRecurringToken(stored.id, saved.id))).code, 'not_found');
  });

  test('tokens of an unknown Client are a 404; a token of another Client of the account is not this one’s', async () => {
    const first = await client.clients.create({ email: 'g@example.com' });
    const second = await client.clients.create({ email: 'h@example.com' });
    const saved = await paidFor(first.id, true);
    assert.equal((await rejected(client.clients.getRecurringToken(second.id, saved.id))).code, 'not_found');
    const unknown = await v1(
      sandbox,
      'GET',
      '/clients/00000000-0000-4000-8000-000000000000/recurring_tokens/',
    );
    assert.equal(unknown.status, 404);
    const deletion = await v1(sandbox, 'DELETE', `/clients/${second.id}/recurring_tokens/${saved.id}/`);
    assert.equal(deletion.status, 404);
    assert.equal((await client.purchases.get(saved.id)).is_recurring_token, true, 'still first’s token');
  });
  test('the hosted page offers the Client’s saved cards first and pays with one in one click', async () => {
    const stored = await client.clients.create({ email: 'i@example.com' });
    const saved = await paidFor(stored.id, true);
    const next = await createPurchase({ client_id: stored.id, ...ENGLISH });
    const page = await (await fetch(next.checkout_url)).text();
    assert.match(page, /Your saved cards/);
    assert.match(
      page,
      new RegExp(
        `<input type="radio" id="method-saved:${saved.id}" name="method" value="saved:${saved.id}" checked>`,
      ),
      'the saved card is the choice the page opens with',
    );
    assert.match(page, /Visa •••• 1111/);
    const answer = await postForm(sandbox, `/checkout/${next.id}/pay`, { method: `saved:${saved.id}` });
    assert.equal(answer.status, 200, answer.html);
    const paid = await client.purchases.get(next.id);
    assert.equal(paid.status, 'paid');
    assert.equal(paid.transaction_data.attempts[0]?.payment_method, 'visa');
    // A purchase without a Client offers none.
    const anonymous = await createPurchase(ENGLISH);
    assert.doesNotMatch(await (await fetch(anonymous.checkout_url)).text(), /saved cards/);
  });

  test('one click takes only a card of the Purchase’s own Client that is still saved', async () => {
    const owner = await client.clients.create({ email: 'j@example.com' });
    const stranger = await client.clients.create({ email: 'k@example.com' });
    const saved = await paidFor(owner.id, true);
    const theirs = await createPurchase({ client_id: stranger.id, ...ENGLISH });
    assert.doesNotMatch(await (await fetch(theirs.checkout_url)).text(), /saved cards/);
    const forged = await postForm(sandbox, `/checkout/${theirs.id}/pay`, { method: `saved:${saved.id}` });
    assert.equal(forged.status, 400);
    assert.equal((await client.purchases.get(theirs.id)).status, 'created', 'nothing was charged');

    await client.clients.deleteRecurringToken(owner.id, saved.id);
    const mine = await createPurchase({ client_id: owner.id, ...ENGLISH });
    assert.doesNotMatch(
      await (await fetch(mine.checkout_url)).text(),
      /saved cards/,
      'a deleted card is hidden',
    );
    const late = await postForm(sandbox, `/checkout/${mine.id}/pay`, { method: `saved:${saved.id}` });
    assert.equal(late.status, 400);
    assert.equal((await client.purchases.get(mine.id)).status, 'created');
  });

  test('a saved card the bank now declines fails on the page, and a new card can be saved instead', async () => {
    const stored = await client.clients.create({ email: 'l@example.com' });
    const saved = await paidFor(stored.id, true, '4000000000000341');
    const next = await createPurchase({
      client_id: stored.id,
      force_recurring: true,
      ...ENGLISH,
    });
    const declined = await postForm(sandbox, `/checkout/${next.id}/pay`, { method: `saved:${saved.id}` });
    assert.match(declined.html, /The card was declined/);
    assert.equal((await client.purchases.get(next.id)).status, 'error');
    await postForm(sandbox, `/checkout/${next.id}/pay`, cardForm('4111111111111111'));
    const paid = await client.purchases.get(next.id);
    assert.deepEqual([paid.status, paid.is_recurring_token], ['paid', true]);
    const tokens = [];
    for await (const token of client.clients.recurringTokens(stored.id)) tokens.push(token.card?.last4);
    assert.deepEqual(tokens, ['0341', '1111']);
    // The new card charges later Purchases.
    const renewal = await createPurchase(ENGLISH);
    assert.equal((await client.purchases.charge(renewal.id, { recurring_token: paid.id })).status, 'paid');
  });
  test('under a hostile tester: malformed ids and bodies are 4xx, concurrent deletes delete once, fuzz finds no 5xx', async () => {
    for (const path of [
      '/clients/nope/',
      '/clients/%zz/',
      '/clients/00000000-0000-4000-8000-000000000000/recurring_tokens/x/',
    ]) {
      const answer = await v1(sandbox, 'GET', path);
      assert.ok(answer.status === 404 || answer.status === 400, `${path}: ${answer.status}`);
    }
    const created = await client.clients.create({ email: 'm@example.com' });
    const nullEmail = await v1(sandbox, 'PATCH', `/clients/${created.id}/`, { body: { email: null } });
    assert.equal(nullEmail.status, 400);
    const huge = await v1(sandbox, 'POST', '/clients/', {
      body: { email: 'n@example.com', city: 'x'.repeat(2_000_000) },
    });
    assert.equal(huge.status, 413);
    const list = await v1(sandbox, 'POST', '/clients/', { body: '[]' });
    assert.equal(list.status, 400);

    const saved = await paidFor(created.id, true);
    const deletes = await Promise.all(
      Array.from({ length: 4 }, () =>
        v1(sandbox, 'DELETE', `/clients/${created.id}/recurring_tokens/${saved.id}/`),
      ),
    );
    assert.deepEqual(deletes.map((answer) => answer.status).sort(), [204, 404, 404, 404]);

    const bodies = fc.sample(
      fc.dictionary(
        fc.constantFrom('email', 'full_name', 'country', 'phone', 'zip_code', '__proto__', 'id', 'extra'),
        fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.emailAddress()),
      ),
      { numRuns: 120, seed: 12 },
    );
    for (const [index, body] of bodies.entries()) {
      const method = (['POST', 'PUT', 'PATCH'] as const)[index % 3]!;
      const path = method === 'POST' ? '/clients/' : `/clients/${created.id}/`;
      const answer = await v1(sandbox, method, path, { body });
      assert.ok(answer.status < 500, `${method} ${JSON.stringify(body)}: ${answer.status}`);
      if (answer.status < 300)
        assert.equal(typeof answer.body.email, 'string', 'a Client always has an email');
    }
  });
});
