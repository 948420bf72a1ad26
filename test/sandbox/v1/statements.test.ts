/**
 * `GET /balance/` and the company statements end to end: the toolkit's typed client against the sandbox over
 * HTTP, Purchases paid on the hosted page by form posts, captured and refunded through the client, and the
 * statements' files read back by hand (CSV parsed here, RFC 4180). Time moves on the sandbox clock.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { CompanyBalance, CreateCompanyStatementRequest, Purchase } from '../../../src/core/v1-types.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { csvCell, STATEMENT_COLUMNS, ZoneTime } from '../../../src/sandbox/v1/statement-rows.js';
import { STATEMENT_QUEUE_MS } from '../../../src/sandbox/v1/statements.js';
import { createV1Client, V1ApiError, type V1Client } from '../../../src/server/index.js';
import { cardForm, OTHER, postForm, purchaseBody, V1, v1, withV1Sandbox } from './support.js';

const CARD = { approved: '4111111111111111', challenge: '4000000000003220' } as const;

type Row = Record<(typeof STATEMENT_COLUMNS)[number], string | number | boolean | null>;

/** RFC 4180 by hand: quoted cells with doubled quotes, CRLF line ends, a header row. */
function parseCsv(text: string): Array<Record<string, string>> {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  assert.equal(cell, '', 'the file ends with CRLF');
  const [header, ...rows] = records;
  return rows.map((row) => {
    assert.equal(row.length, header!.length, `a row has every column: ${row.join('|')}`);
    return Object.fromEntries(header!.map((name, index) => [name, row[index]!]));
  });
}

describe('v1 balance and company statements against the sandbox', () => {
  const fixture = withV1Sandbox();
  let sandbox: Sandbox;
  let client: V1Client;
  let other: V1Client;

  before(async () => {
    ({ sandbox, client } = fixture);
    other = createV1Client({ baseUrl: sandbox.url, secretKey: OTHER.secretKey });
  });

  async function create(overrides: Record<string, unknown> = {}): Promise<Purchase> {
    return client.purchases.create(
      purchaseBody({
        client: { email: 'anna@example.com', full_name: 'Anna Tester' },
        ...overrides,
      }) as unknown as Parameters<V1Client['purchases']['create']>[0],
    );
  }

  /** A purchase paid (or held) on the hosted page with `card`, approving a 3-D Secure step if one comes. */
  async function checkout(overrides: Record<string, unknown> = {}, card: string = CARD.approved) {
    const purchase = await create(overrides);
    const answer = await postForm(sandbox, `/checkout/${purchase.id}/pay`, cardForm(card));
    if (answer.status === 303 && answer.location?.includes('/steps/')) {
      await postForm(sandbox, answer.location, { decision: 'approve' });
    } else assert.equal(answer.status, 200, answer.html);
    return client.purchases.get(purchase.id);
  }

  /** A purchase paid by the test bank `method` on its confirmation step. */
  async function bankCheckout(method: string, overrides: Record<string, unknown> = {}) {
    const purchase = await create(overrides);
    const started = await postForm(sandbox, `/checkout/${purchase.id}/pay`, { method });
    assert.equal(started.status, 303, started.html);
    await postForm(sandbox, started.location!, { decision: 'approve' });
    const paid = await client.purchases.get(purchase.id);
    assert.equal(paid.status, 'paid');
    return paid;
  }

  /** Creates a statement, lets the clock take it up, and reads its file as text. */
  async function statementText(body: CreateCompanyStatementRequest, as: V1Client = client) {
    const statement = await as.statements.create(body);
    assert.equal(statement.status, 'queued');
    assert.equal(statement.download_url, null);
    sandbox.clock.advance(STATEMENT_QUEUE_MS);
    const file = await as.statements.download(statement.id, { intervalMs: 10, waitMs: 10_000 });
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of file) text += decoder.decode(chunk, { stream: true });
    return { text: text + decoder.decode(), file };
  }

  async function jsonRows(body: CreateCompanyStatementRequest = {}): Promise<Row[]> {
    const { text, file } = await statementText({ ...body, format: 'json' });
    assert.equal(file.contentType, 'application/json; charset=utf-8');
    const rows = JSON.parse(text) as Row[];
    assert.equal(file.statement.row_count, rows.length);
    return rows;
  }

  async function ids(filters: CreateCompanyStatementRequest): Promise<Set<string>> {
    return new Set((await jsonRows(filters)).map((row) => row.id as string));
  }

  async function rejected(call: Promise<unknown>): Promise<V1ApiError> {
    const error = await call.then(
      () => assert.fail('expected a rejection'),
      (error: unknown) => error,
    );
    assert.ok(error instanceof V1ApiError, String(error));
    return error;
  }

  // First, while these are the merchant's only Purchases: the balance's figures are exact.
  test('the balance: money in, refunds out, holds and pending per account and currency; it agrees with a statement', async () => {
    const empty = await client.balance();
    assert.deepEqual([empty.e_commerce, empty.bank], [{}, {}]);

    await checkout(); // 25.00 paid
    const captured = await checkout({ skip_capture: true });
    await client.purchases.capture(captured.id, { amount: 1000 }); // 10.00 of 25.00 taken
    const refunded = await checkout();
    await client.purchases.refund(refunded.id, { amount: 500 });
    await checkout({ skip_capture: true }); // 25.00 held
    const slowRefund = await checkout();
    const pending = await v1(sandbox, 'POST', `/purchases/${slowRefund.id}/refund/`, {
      body: { amount: 700 },
      headers: { 'x-sandbox-acquirer': 'slow' },
    });
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    const marked = await create();
    await client.purchases.markAsPaid(marked.id); // no money through the gateway
    await checkout({ purchase: { currency: 'USD', products: [{ name: 'Mug', price: 900 }] } });
    await bankCheckout('swedbank_lv_pis');

    const balance = await client.balance();
    assert.deepEqual(balance.e_commerce, {
      EUR: {
        paid: 2500 + 1000 + 2500 + 2500,
        refunded: 500,
        pending_refunds: 700,
        available: 2500 + 1000 + 2500 + 2500 - 500 - 700,
        held: 2500,
        pending: 0,
      },
      USD: { paid: 900, refunded: 0, pending_refunds: 0, available: 900, held: 0, pending: 0 },
    });
    assert.deepEqual(balance.bank, {
      EUR: { paid: 2500, refunded: 0, pending_refunds: 0, available: 2500, held: 0, pending: 0 },
    });

    // The same Purchases in a statement sum to the same figures, account by account.
    const rows = await jsonRows();
    assert.equal(rows.length, 8);
    const summed: CompanyBalance = { e_commerce: {}, bank: {} };
    for (const row of rows) {
      if (row.account === null) continue;
      const account = summed[row.account as 'e_commerce' | 'bank'];
      const amounts = account[row.currency as string] ?? {
        paid: 0,
        refunded: 0,
        pending_refunds: 0,
        available: 0,
        held: 0,
        pending: 0,
      };
      account[row.currency as string] = amounts;
      amounts.paid += row.paid_amount as number;
      amounts.refunded += row.refunded_amount as number;
      amounts.pending_refunds += row.pending_refund_amount as number;
      amounts.available = amounts.paid - amounts.refunded - amounts.pending_refunds;
      if (row.status === 'hold') amounts.held += row.total as number;
    }
    for (const account of ['e_commerce', 'bank'] as const) {
      assert.deepEqual(summed[account], balance[account], account);
    }
    const markedRow = rows.find((row) => row.id === marked.id)!;
    assert.equal(markedRow.marked_as_paid, true);
    assert.equal(markedRow.paid_amount, 0);
    assert.notEqual(markedRow.paid_on, null, 'a purchase marked as paid has its paid time');

    // Another merchant's balance is its own.
    assert.deepEqual([(await other.balance()).e_commerce, (await other.balance()).bank], [{}, {}]);
  });

  test('a statement goes queued, then ready on the clock, and serves its file only with the key', async () => {
    const statement = await client.statements.create({ format: 'csv' });
    assert.equal(statement.status, 'queued');
    assert.equal(statement.timezone, 'UTC');
    assert.equal((await client.statements.get(statement.id)).status, 'queued');
    const notReady = await v1(sandbox, 'GET', `/company_statements/${statement.id}/download/`);
    assert.equal(notReady.status, 400);
    assert.equal(notReady.body.__all__.code, 'statement_not_ready');

    sandbox.clock.advance(STATEMENT_QUEUE_MS);
    const ready = await client.statements.waitUntilReady(statement.id, { intervalMs: 10 });
    assert.equal(ready.status, 'ready');
    assert.equal(ready.download_url, `${sandbox.url}/api/v1/company_statements/${statement.id}/download/`);
    assert.equal(typeof ready.row_count, 'number');

    const anonymous = await fetch(ready.download_url!);
    assert.equal(anonymous.status, 401);
    const withKey = await fetch(ready.download_url!, {
      headers: { authorization: `Bearer ${V1.secretKey}` },
    });
    assert.equal(withKey.status, 200);
    assert.equal(withKey.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(
      withKey.headers.get('content-disposition'),
      `attachment; filename="statement-${statement.id}.csv"`,
    );
    const rows = parseCsv(await withKey.text());
    assert.equal(rows.length, ready.row_count);

    // The list: newest first, paginated.
    const second = await client.statements.create({ format: 'json' });
    const listed = await client.statements.list({ per_page: 1 }).toArray();
    assert.deepEqual(
      listed.slice(0, 2).map((item) => item.id),
      [second.id, statement.id],
    );
    const page = await v1(sandbox, 'GET', '/company_statements/?per_page=1');
    assert.equal(page.body.results.length, 1);
    assert.match(page.body.next, /page=2/);
  });

  test('cancel: a queued statement never becomes ready; a ready one cannot be cancelled', async () => {
    const statement = await client.statements.create({});
    const cancelled = await client.statements.cancel(statement.id);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(
      (await client.statements.cancel(statement.id)).status,
      'cancelled',
      'cancelling again changes nothing',
    );
    sandbox.clock.advance(STATEMENT_QUEUE_MS * 5);
    assert.equal((await client.statements.get(statement.id)).status, 'cancelled');
    const waiting = await rejected(client.statements.waitUntilReady(statement.id, { intervalMs: 10 }));
    assert.equal(waiting.code, 'invalid_request');
    assert.match(waiting.message, /cancelled/);
    const download = await v1(sandbox, 'GET', `/company_statements/${statement.id}/download/`);
    assert.equal(download.body.__all__.code, 'statement_not_ready');

    const ready = await client.statements.create({});
    sandbox.clock.advance(STATEMENT_QUEUE_MS);
    await client.statements.waitUntilReady(ready.id, { intervalMs: 10 });
    const refused = await rejected(client.statements.cancel(ready.id));
    assert.equal(refused.code, 'bad_request');
    assert.equal(refused.errors[0]?.code, 'statement_cancel_error');
  });

  test('waiting is bounded and abortable, and its options are checked', async () => {
    const queued = await client.statements.create({});
    const timedOut = await rejected(
      client.statements.waitUntilReady(queued.id, { intervalMs: 5, waitMs: 30 }),
    );
    assert.equal(timedOut.code, 'timeout');
    assert.match(timedOut.message, /queued/);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const aborted = await rejected(
      client.statements.download(queued.id, { intervalMs: 5, signal: controller.signal }),
    );
    assert.equal(aborted.code, 'aborted');
    for (const options of [{ waitMs: 0 }, { intervalMs: -1 }, { waitMs: Number.NaN }]) {
      assert.equal(
        (await rejected(client.statements.waitUntilReady(queued.id, options))).code,
        'invalid_request',
      );
    }
    assert.equal((await rejected(client.statements.get(''))).code, 'invalid_request');
  });

  test('404: no such statement, a malformed id, and another merchant’s statement', async () => {
    const mine = await client.statements.create({});
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      assert.equal((await rejected(client.statements.get(id))).code, 'not_found');
      assert.equal((await rejected(client.statements.cancel(id))).code, 'not_found');
    }
    assert.equal((await rejected(other.statements.get(mine.id))).code, 'not_found');
    assert.equal((await rejected(other.statements.cancel(mine.id))).code, 'not_found');
    sandbox.clock.advance(STATEMENT_QUEUE_MS);
    await client.statements.waitUntilReady(mine.id, { intervalMs: 10 });
    const stolen = await v1(sandbox, 'GET', `/company_statements/${mine.id}/download/`, {
      key: OTHER.secretKey,
    });
    assert.equal(stolen.status, 404);
    assert.equal((await other.statements.list().toArray()).length, 0);
  });

  test('400: every parameter is checked and named; unknown members are refused', async () => {
    const error = await rejected(
      client.statements.create({
        format: 'xlsx',
        timezone: 'Mars/Olympus',
        from: -1,
        to: 1.5,
        paid_from: 'yesterday',
        updated_from: 100,
        updated_to: 100,
        brand_id: 'brand',
        shop_id: 42,
        q: '   ',
        products: 'x'.repeat(201),
        total: [500, 100],
        currency: 'euro',
        payment_method: 'cash',
        three_d_secure: 'maybe',
        country: 'LVA',
        status: ['paid', 'lost'],
        product: 'subscription',
        colour: 'red',
      } as unknown as CreateCompanyStatementRequest),
    );
    assert.equal(error.code, 'bad_request');
    const byField = Object.fromEntries(error.errors.map((entry) => [entry.field, entry.code]));
    assert.deepEqual(byField, {
      colour: 'invalid',
      format: 'invalid',
      timezone: 'invalid',
      from: 'invalid',
      to: 'invalid',
      paid_from: 'invalid',
      updated_to: 'invalid',
      brand_id: 'invalid',
      shop_id: 'invalid',
      q: 'blank',
      products: 'max_length',
      total: 'invalid',
      currency: 'invalid',
      payment_method: 'invalid',
      three_d_secure: 'invalid',
      country: 'invalid',
      status: 'invalid',
      product: 'invalid',
    });
    for (const total of [[1], [1, 2, 3], ['1', 2], 5]) {
      const refused = await rejected(
        client.statements.create({ total } as unknown as CreateCompanyStatementRequest),
      );
      assert.equal(refused.errors[0]?.field, 'total');
    }
    const offset = await rejected(client.statements.create({ timezone: '+02:00' }));
    assert.equal(offset.errors[0]?.field, 'timezone');
    const notObject = await v1(sandbox, 'POST', '/company_statements/', { body: '[1]' });
    assert.equal(notObject.status, 400);
    assert.equal(
      (await rejected(client.statements.create(null as unknown as CreateCompanyStatementRequest))).code,
      'invalid_request',
    );
  });

  test('every filter selects its Purchases', async () => {
    const t0 = Math.floor(sandbox.clock.now().getTime() / 1000);
    const early = await checkout({
      reference: 'filter-early',
      client: { email: 'early.bird@example.com', full_name: 'Early Bird', personal_code: 'PC-778899' },
      purchase: { products: [{ name: 'Blue Teapot', price: 3100 }] },
    });
    sandbox.clock.advance(3_600_000);
    const t1 = Math.floor(sandbox.clock.now().getTime() / 1000);
    const secure = await checkout(
      { reference: 'filter-3ds', purchase: { products: [{ name: 'Green Cup', price: 3200 }] } },
      CARD.challenge,
    );
    const bank = await bankCheckout('seb_lv_pis', {
      reference: 'filter-bank',
      purchase: { products: [{ name: 'Green Saucer', price: 3300 }] },
    });
    const held = await checkout({
      reference: 'filter-held',
      skip_capture: true,
      purchase: { products: [{ name: 'Red Plate', price: 3400 }], currency: 'GBP' },
    });
    const unpaid = await create({
      reference: 'filter-unpaid',
      purchase: { products: [{ name: 'Bowl', price: 3500 }] },
    });
    sandbox.clock.advance(3_600_000);
    const t2 = Math.floor(sandbox.clock.now().getTime() / 1000);
    // A change an hour later: the early purchase is refunded, so it was updated in the last hour.
    await client.purchases.refund(early.id, { amount: 100 });
    const mine = [early, secure, bank, held, unpaid].map((purchase) => purchase.id);
    const only = async (filters: CreateCompanyStatementRequest) =>
      [...(await ids(filters))].filter((id) => mine.includes(id)).sort();
    const expect = (...purchases: Purchase[]) => purchases.map((purchase) => purchase.id).sort();

    assert.deepEqual(await only({ from: t0, to: t1 }), expect(early));
    assert.deepEqual(await only({ from: t1 }), expect(secure, bank, held, unpaid));
    assert.deepEqual(await only({ paid_from: t0, paid_to: t1 }), expect(early));
    assert.deepEqual(
      await only({ paid_from: t1 }),
      expect(secure, bank),
      'a hold and an unpaid purchase are not paid',
    );
    assert.deepEqual(await only({ updated_from: t2 }), expect(early));
    assert.deepEqual(await only({ updated_to: t2, from: t1 }), expect(secure, bank, held, unpaid));
    assert.deepEqual(
      await only({ brand_id: V1.brandId.toUpperCase() }),
      expect(early, secure, bank, held, unpaid),
    );
    assert.deepEqual(await only({ brand_id: OTHER.brandId }), []);
    assert.deepEqual(await only({ shop_id: '0b000000-0000-4000-8000-0000000000aa' }), []);
    assert.deepEqual(await only({ q: 'EARLY.BIRD@' }), expect(early));
    assert.deepEqual(await only({ q: 'pc-7788' }), expect(early), 'the personal code');
    assert.deepEqual(await only({ q: 'filter-bank' }), expect(bank), 'the reference');
    assert.deepEqual(await only({ q: held.id }), expect(held), 'the id');
    assert.deepEqual(await only({ q: 'green' }), expect(secure, bank), 'a product name');
    assert.deepEqual(await only({ products: 'green s' }), expect(bank));
    assert.deepEqual(await only({ total: [3200, 3400] }), expect(secure, bank, held));
    assert.deepEqual(await only({ currency: 'gbp' }), expect(held));
    assert.deepEqual(await only({ payment_method: 'seb_lv_pis' }), expect(bank));
    assert.deepEqual(await only({ country: 'LV' }), expect(bank));
    assert.deepEqual(await only({ country: 'ee' }), []);
    assert.deepEqual(await only({ three_d_secure: true }), expect(secure));
    assert.deepEqual(await only({ three_d_secure: 'false', from: t1 }), expect(bank, held, unpaid));
    assert.deepEqual(await only({ status: 'hold' }), expect(held));
    assert.deepEqual(await only({ status: ['created', 'hold'] }), expect(held, unpaid));
    assert.deepEqual(await only({ product: 'purchase', from: t1 }), expect(secure, bank, held, unpaid));
    assert.deepEqual(
      await only({ q: 'green', total: [3300, 9999], currency: 'EUR' }),
      expect(bank),
      'filters combine',
    );

    // A statement lists nothing created after it was asked for.
    const statement = await client.statements.create({ format: 'json', q: 'filter-late' });
    sandbox.clock.advance(STATEMENT_QUEUE_MS);
    await create({ reference: 'filter-late' });
    const file = await client.statements.download(statement.id, { intervalMs: 10 });
    let text = '';
    for await (const chunk of file) text += Buffer.from(chunk).toString('utf8');
    assert.deepEqual(JSON.parse(text), []);
  });

  test('filters given as query parameters select as in the body; unknown, doubled or malformed ones are a 400 naming them', async () => {
    const t0 = Math.floor(sandbox.clock.now().getTime() / 1000);
    const pound = await create({
      reference: 'query-pound',
      purchase: { products: [{ name: 'Scone', price: 700 }], currency: 'GBP' },
    });
    const euro = await create({
      reference: 'query-euro',
      purchase: { products: [{ name: 'Scone', price: 800 }] },
    });
    const statementOf = async (query: string, body: Record<string, unknown> = {}) => {
      const answer = await v1(sandbox, 'POST', `/company_statements/?${query}`, { body });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      sandbox.clock.advance(STATEMENT_QUEUE_MS);
      const file = await client.statements.download(answer.body.id, { intervalMs: 10 });
      let text = '';
      for await (const chunk of file) text += Buffer.from(chunk).toString('utf8');
      return { filters: answer.body.filters, ids: (JSON.parse(text) as Row[]).map((row) => row.id) };
    };
    const pounds = await statementOf(`q=query-&currency=GBP&from=${t0}`, { format: 'json' });
    assert.deepEqual(pounds.ids, [pound.id]);
    assert.deepEqual(pounds.filters, { from: t0, q: 'query-', currency: 'GBP' });
    assert.deepEqual(
      (await statementOf(`format=json&q=query-&total=750&total=900&status=created,hold`)).ids,
      [euro.id],
      'total as two values, status as a list',
    );
    assert.deepEqual((await statementOf('format=json&q=query-&total=600,750&three_d_secure=0')).ids, [
      pound.id,
    ]);

    for (const [query, body, field] of [
      ['nope=1', {}, 'nope'],
      ['q=pound', { q: 'euro' }, 'q'],
      ['from=yesterday', {}, 'from'],
      ['currency=EUR&currency=GBP', {}, 'currency'],
      ['total=5', {}, 'total'],
    ] as const) {
      const answer = await v1(sandbox, 'POST', `/company_statements/?${query}`, { body });
      assert.equal(answer.status, 400, query);
      assert.deepEqual(Object.keys(answer.body), [field], query);
    }
  });

  test('the CSV: RFC 4180 quoting, formula cells defused, times in the requested zone', async () => {
    const tricky = await checkout({
      reference: '=HYPERLINK("http://evil.example","click")',
      client: { email: 'anna@example.com', full_name: '@Dūmiņa, "Anna"\r\nsecond line' },
      purchase: {
        products: [
          { name: '+Tea', price: 1250, quantity: 2 },
          { name: '-Cake', price: 400 },
        ],
      },
    });
    for (const [timezone, offsetMinutes, suffix] of [
      ['Asia/Tokyo', 9 * 60, '+09:00'],
      ['Asia/Kolkata', 5 * 60 + 30, '+05:30'],
      ['America/St_Johns', null, null],
      ['UTC', 0, '+00:00'],
    ] as const) {
      const { text, file } = await statementText({ format: 'csv', timezone, q: tricky.id });
      assert.equal(file.contentType, 'text/csv; charset=utf-8');
      assert.ok(text.startsWith(`${STATEMENT_COLUMNS.join(',')}\r\n`), 'the header row');
      const rows = parseCsv(text);
      assert.equal(rows.length, 1);
      const row = rows[0]!;
      assert.equal(row['id'], tricky.id);
      assert.equal(row['reference'], `'=HYPERLINK("http://evil.example","click")`);
      assert.equal(row['client_email'], 'anna@example.com');
      assert.equal(row['client_full_name'], `'@Dūmiņa, "Anna"\r\nsecond line`);
      assert.equal(row['products'], `'+Tea x 2; -Cake x 1`);
      assert.equal(row['status'], 'paid');
      assert.equal(row['total'], '2900');
      assert.equal(row['paid_amount'], '2900');
      assert.equal(row['payment_method'], 'visa');
      assert.equal(row['account'], 'e_commerce');
      assert.equal(row['three_d_secure'], 'false');
      if (offsetMinutes === null || suffix === null) {
        // Newfoundland: -03:30 in summer, -02:30 in winter; either way a half-hour offset west of UTC.
        assert.match(row['created_on']!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[23]:30$/);
        continue;
      }
      const expected = new Date(((tricky.created_on ?? 0) + offsetMinutes * 60) * 1000)
        .toISOString()
        .slice(0, 19);
      assert.equal(row['created_on'], `${expected}${suffix}`);
      assert.equal(Date.parse(row['created_on']!) / 1000, tricky.created_on, 'the same instant');
    }
    assert.equal(csvCell('\tTab'), `"'\tTab"`, 'a defused cell is quoted too');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell(null), '');
  });

  test('the CSV defuses formulas behind what a spreadsheet importer could trim', async () => {
    // Issue 21: a line feed, spaces, a no-break space, zero-width characters or a full-width sign before the
    // formula got through as text a spreadsheet would run.
    const attacks = [
      '\n=1+1',
      '\r\n=1+1',
      '   =1+1',
      '\u00a0=1+1',
      '\u200b=1+1',
      '\u200d\u2060\ufeff+1+1',
      '\u3000-1+1',
      '\uff1d1+1',
      '\uff0bcmd',
      '\uff0d1+1',
      '\uff20SUM(A1)',
      ' \u00a0\uff1dHYPERLINK("http://evil.example")',
      '\u2212 1+1',
    ];
    for (const [index, attack] of attacks.entries()) {
      const purchase = await checkout({
        reference: attack,
        client: { email: 'anna@example.com', full_name: attack },
        purchase: { products: [{ name: attack, price: 100 + index }] },
      });
      const rows = parseCsv((await statementText({ format: 'csv', q: purchase.id })).text);
      assert.equal(rows.length, 1, JSON.stringify(attack));
      const row = rows[0]!;
      assert.equal(row['reference'], `'${attack}`, JSON.stringify(attack));
      assert.equal(row['client_full_name'], `'${attack}`, JSON.stringify(attack));
      assert.ok(row['products']!.startsWith(`'${attack}`), JSON.stringify(row['products']));
    }
    for (const attack of attacks) {
      assert.equal(csvCell(attack), `"'${attack.replaceAll('"', '""')}"`, JSON.stringify(attack));
    }
    // Text that only looks near a formula stays as it is.
    for (const plain of ['Anna', ' Anna', 'a=1', '1-2', '\u00a0Anna', 'e-mail']) {
      assert.equal(csvCell(plain), plain);
    }
  });

  test('times across a daylight saving change take the offset of their own instant', () => {
    const riga = new ZoneTime('Europe/Riga');
    assert.equal(riga.format(Date.UTC(2026, 6, 1, 12) / 1000), '2026-07-01T15:00:00+03:00');
    assert.equal(riga.format(Date.UTC(2026, 0, 15, 12) / 1000), '2026-01-15T14:00:00+02:00');
    // 29 March 2026, 01:00 UTC: clocks go from 03:00 to 04:00.
    assert.equal(riga.format(Date.UTC(2026, 2, 29, 0, 59, 59) / 1000), '2026-03-29T02:59:59+02:00');
    assert.equal(riga.format(Date.UTC(2026, 2, 29, 1, 0, 0) / 1000), '2026-03-29T04:00:00+03:00');
    assert.equal(new ZoneTime('America/New_York').format(0), '1969-12-31T19:00:00-05:00');
    assert.equal(riga.format(null), null);
  });
});
