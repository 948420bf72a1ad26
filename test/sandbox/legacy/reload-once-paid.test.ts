/**
 * An order id is paid once per widget, for every widget kind (issue 9: a reload double-charged INSTANT and
 * CALLBACK widgets). Paying, reloading (the page's intake again, with the same `order-id`) and paying again
 * charges once and notifies once; unsigned content that names a paid order id gets the paid status alone,
 * nothing of the order; a CALLBACK merchant may still approve another cart under its order id.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { OrderInput } from '../../../src/core/index.js';
import type { PurchaseNotification } from '../../../src/core/legacy-callbacks.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { signOrder, verifyOrderVerificationToken } from '../../../src/server/index.js';
import {
  call,
  FakeMerchant,
  merchantKeys,
  PAGE_ORIGIN,
  startTestSandbox,
  tempDir,
  WIDGETS,
} from '../support.js';

const card = (number: string) => ({ number, expiry: '12/34', cvc: '123', holder: 'Test Person' });
const VISA = '4111111111111111';
const THREE_D_SECURE = '4000000000003220';
let counter = 0;
const key = () => `reload-key-${++counter}`;

type Kind = 'INSTANT' | 'CALLBACK' | 'SIGNATURE';
const KINDS: readonly Kind[] = ['INSTANT', 'CALLBACK', 'SIGNATURE'];

/** The order a page of this widget kind sends: a fixed-price page names only the widget and its order id. */
function pageOrder(kind: Kind, orderId: string, items = [{ amount: '12.50', label: 'Tea', count: 2 }]) {
  if (kind === 'INSTANT') return { widgetId: WIDGETS.instant, orderId } as OrderInput;
  return {
    widgetId: kind === 'CALLBACK' ? WIDGETS.callback : WIDGETS.checkout,
    orderId,
    items,
  } as OrderInput;
}

/** The page's intake, as the frame sends it: signed only for the SIGNATURE widget. */
function intake(sandbox: Sandbox, kind: Kind, order: OrderInput) {
  return call(sandbox, 'POST', '/widget-api/v1/orders', {
    order,
    pageOrigin: PAGE_ORIGIN,
    ...(kind === 'SIGNATURE' && {
      signature: signOrder(order, merchantKeys.main.privateKeyPem),
    }),
  });
}

function pay(sandbox: Sandbox, id: string, number = VISA) {
  return call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
    idempotencyKey: key(),
    card: card(number),
  });
}

/** A sandbox whose merchant approves every CALLBACK order unless told otherwise. */
async function start(dataDir?: string) {
  const merchant = await FakeMerchant.start();
  merchant.respond('/verify-order', () => ({ status: 200, body: JSON.stringify({ approved: true }) }));
  const sandbox = await startTestSandbox(merchant, dataDir);
  return { merchant, sandbox };
}

/**
 * Every notification the merchant received for a merchant order id. Called after `sandbox.close()`, which
 * waits for deliveries in flight: every notification an action queued has been sent by then.
 */
function notificationsOf(merchant: FakeMerchant, orderId: string): PurchaseNotification[] {
  return merchant
    .requests('/notify')
    .map((request) => JSON.parse(request.body) as PurchaseNotification)
    .filter((notification) => notification.order_id === orderId);
}

describe('a reload never charges twice', () => {
  for (const kind of KINDS) {
    test(`${kind}: pay, reload, pay again: one charge, one notification`, async () => {
      const { merchant, sandbox } = await start();
      try {
        const orderId = `RELOAD-${kind}`;
        const first = await intake(sandbox, kind, pageOrder(kind, orderId));
        assert.equal(first.status, 201, JSON.stringify(first.body));
        assert.equal((await pay(sandbox, first.body['id'])).body['state'], 'PAID');
        const verifications = merchant.requests('/verify-order').length;

        const reloaded = await intake(sandbox, kind, pageOrder(kind, orderId));
        if (kind === 'SIGNATURE') {
          // Signed: the page is the merchant's page of that order, which comes back whole, paid.
          assert.equal(reloaded.status, 201);
          assert.equal(reloaded.body['id'], first.body['id']);
          assert.equal(reloaded.body['state'], 'PAID');
          const again = await pay(sandbox, reloaded.body['id']);
          assert.equal(again.body['state'], 'PAID', 'a second payment of the paid order charges nothing');
        } else {
          // Unsigned: the paid status alone, with nothing to pay.
          assert.equal(reloaded.status, 200);
          assert.deepEqual(reloaded.body, { receipt: true, state: 'PAID', orderId });
        }
        assert.equal(
          merchant.requests('/verify-order').length,
          verifications,
          'a reload asks the merchant nothing: there is nothing new to approve',
        );
      } finally {
        await sandbox.close();
        await merchant.close();
      }
      const sent = notificationsOf(merchant, `RELOAD-${kind}`);
      assert.deepEqual(
        sent.map((notification) => notification.status),
        ['PAID'],
      );
    });
  }

  test('a reload in another language is the same order; a fixed-price page is its order id', async () => {
    const { merchant, sandbox } = await start();
    try {
      for (const kind of KINDS) {
        const orderId = `LANG-${kind}`;
        const first = await intake(sandbox, kind, { ...pageOrder(kind, orderId), language: 'lv' });
        assert.equal((await pay(sandbox, first.body['id'])).body['state'], 'PAID');
        const english = await intake(sandbox, kind, { ...pageOrder(kind, orderId), language: 'en' });
        assert.equal(english.body['state'], 'PAID', kind);
        assert.equal(english.body['id'] ?? null, kind === 'SIGNATURE' ? first.body['id'] : null, kind);
      }
      // The fixed order is the gateway's: another page URL back to the shop changes nothing that is paid.
      const moved = await intake(sandbox, 'INSTANT', {
        ...pageOrder('INSTANT', 'LANG-INSTANT'),
        backToMerchantUrl: 'https://shop.example/elsewhere',
      });
      assert.deepEqual(moved.body, { receipt: true, state: 'PAID', orderId: 'LANG-INSTANT' });
    } finally {
      await sandbox.close();
      await merchant.close();
    }
  });

  test('the rule holds after a restart on the same data dir', async () => {
    const dataDir = await tempDir();
    const before = await start(dataDir);
    let id: string;
    try {
      id = (await intake(before.sandbox, 'INSTANT', pageOrder('INSTANT', 'RESTART-1'))).body['id'];
      assert.equal((await pay(before.sandbox, id)).body['state'], 'PAID');
    } finally {
      await before.sandbox.close();
      await before.merchant.close();
    }
    const after = await start(dataDir);
    try {
      const reloaded = await intake(after.sandbox, 'INSTANT', pageOrder('INSTANT', 'RESTART-1'));
      assert.deepEqual(reloaded.body, { receipt: true, state: 'PAID', orderId: 'RESTART-1' });
    } finally {
      await after.sandbox.close();
      await after.merchant.close();
    }
  });

  for (const kind of ['INSTANT', 'CALLBACK'] as const) {
    test(`${kind}: two forms opened before paying (two tabs) cannot both charge, 3-D Secure included`, async () => {
      const { merchant, sandbox } = await start();
      const orderId = `TABS-${kind}`;
      try {
        // Unsigned content gets no hold on an unpaid order: each load is an order of its own.
        const tabA = await intake(sandbox, kind, pageOrder(kind, orderId));
        const tabB = await intake(sandbox, kind, pageOrder(kind, orderId));
        assert.notEqual(tabA.body['id'], tabB.body['id']);
        const tabC = await intake(sandbox, kind, pageOrder(kind, orderId));

        const challenged = await pay(sandbox, tabC.body['id'], THREE_D_SECURE);
        assert.equal(challenged.body['state'], 'CHALLENGE');
        assert.equal((await pay(sandbox, tabA.body['id'])).body['state'], 'PAID');

        const second = await pay(sandbox, tabB.body['id']);
        assert.equal(second.status, 409, JSON.stringify(second.body));
        assert.equal(second.body['error'].code, 'order_already_paid');
        assert.match(second.body['error'].message, new RegExp(`"${orderId}"`));
        assert.equal(
          (await call(sandbox, 'GET', `/widget-api/v1/orders/${tabB.body['id']}`)).body['state'],
          'CREATED',
        );

        // The customer approves the 3-D Secure step of the third tab after the first paid: too late to charge.
        const approved = await call(
          sandbox,
          'POST',
          `/widget-api/v1/orders/${tabC.body['id']}/challenges/${challenged.body['challengeId']}`,
          { approve: true },
        );
        assert.equal(approved.body['state'], 'FAILED');
        assert.equal(approved.body['error'].code, 'order_already_paid');
      } finally {
        await sandbox.close();
        await merchant.close();
      }
      const sent = notificationsOf(merchant, orderId);
      assert.deepEqual(sent.map((notification) => notification.status).sort(), ['FAILED', 'PAID']);
      assert.equal(sent.filter((notification) => notification.effective_amount !== 0).length, 1);
    });
  }

  test('CALLBACK: the merchant may reuse its order id for another cart, if its verification URL approves', async () => {
    const { merchant, sandbox } = await start();
    try {
      let approve = true;
      merchant.respond('/verify-order', () => ({ status: 200, body: JSON.stringify({ approved: approve }) }));
      const cartA = pageOrder('CALLBACK', 'REUSED-1');
      const cartB = pageOrder('CALLBACK', 'REUSED-1', [{ amount: '30.00', label: 'Teapot', count: 1 }]);
      const first = await intake(sandbox, 'CALLBACK', cartA);
      assert.equal((await pay(sandbox, first.body['id'])).body['state'], 'PAID');

      const asked = merchant.requests('/verify-order').length;
      const approved = await intake(sandbox, 'CALLBACK', cartB);
      assert.equal(approved.status, 201, JSON.stringify(approved.body));
      assert.equal(approved.body['total'], '30.00');
      assert.equal(merchant.requests('/verify-order').length, asked + 1, 'the merchant was asked');
      const token = verifyOrderVerificationToken(
        merchant.requests('/verify-order').at(-1)!.body,
        sandbox.serviceCertificatePem,
      );
      assert.deepEqual([token.orderId, token.externalOrderId], [approved.body['id'], 'REUSED-1']);
      assert.equal((await pay(sandbox, approved.body['id'])).body['state'], 'PAID');
      // That cart is paid now too: its reload is a receipt, without asking again.
      assert.equal((await intake(sandbox, 'CALLBACK', cartB)).body['receipt'], true);

      approve = false;
      const cartC = pageOrder('CALLBACK', 'REUSED-1', [{ amount: '1.00', label: 'Spoon', count: 1 }]);
      const refused = await intake(sandbox, 'CALLBACK', cartC);
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(refused.body['error'].code, 'order_already_paid');
      assert.equal(refused.body['error'].field, 'order.orderId');
      assert.match(refused.body['error'].message, /"REUSED-1" is already paid/);
    } finally {
      await sandbox.close();
      await merchant.close();
    }
    assert.deepEqual(
      notificationsOf(merchant, 'REUSED-1').map((notification) => notification.total_amount),
      [25, 30],
    );
  });

  test('guessed order ids (fixed-seed fuzz) learn nothing but "paid", and change nothing', async () => {
    const { merchant, sandbox } = await start();
    // The merchant approves whatever it is asked: the worst case for guessed CALLBACK orders.
    const secret = [
      { amount: '77.70', label: 'Secret Gift', count: 1 },
      { amount: '3.33', label: 'Wrapping', count: 3 },
    ];
    const cheap = (label: string) => [{ amount: '0.01', label, count: 1 }];
    /** What a payment under an order id charges for: the fixed order of the INSTANT widget, else the cart. */
    const cart = (kind: Kind, orderId: string, items: unknown) =>
      `${kind} ${orderId} ${kind === 'INSTANT' ? '' : JSON.stringify(items)}`;
    const paidCarts = new Set<string>();
    const victims: string[] = [];
    let receipts = 0;
    try {
      for (const [index, kind] of (['INSTANT', 'CALLBACK', 'CALLBACK'] as const).entries()) {
        const created = await intake(sandbox, kind, pageOrder(kind, `V-${index}`, secret));
        assert.equal((await pay(sandbox, created.body['id'])).body['state'], 'PAID');
        victims.push(created.body['id']);
        paidCarts.add(cart(kind, `V-${index}`, secret));
      }
      const guess = fc.record({
        kind: fc.constantFrom('INSTANT' as const, 'CALLBACK' as const),
        orderId: fc.constantFrom('V-0', 'V-1', 'V-2', 'V-3', 'V-9'),
        items: fc.constantFrom(secret, cheap('Pin'), cheap('x')),
        language: fc.constantFrom(undefined, 'en', 'lv'),
        thenPay: fc.boolean(),
      });
      for (const attack of fc.sample(guess, { seed: 92_026, numRuns: 60 })) {
        const order = {
          ...pageOrder(attack.kind, attack.orderId, attack.items),
          ...(attack.language !== undefined && { language: attack.language }),
        };
        const answer = await intake(sandbox, attack.kind, order);
        const text = JSON.stringify(answer.body);
        // The secret cart may come back only to whoever sent it, as its own new order.
        const forbidden = [...victims, ...(attack.items === secret ? [] : ['Secret Gift', '77.70', '87.69'])];
        for (const value of forbidden)
          assert.ok(!text.includes(value), `${JSON.stringify(attack)} learnt ${value}: ${text}`);
        const charged = cart(attack.kind, attack.orderId, attack.items);
        if (paidCarts.has(charged)) {
          assert.deepEqual(answer.body, { receipt: true, state: 'PAID', orderId: attack.orderId });
          receipts++;
          continue;
        }
        // An order id not paid on this widget, or another cart the merchant approved: the attacker's own order.
        assert.equal(answer.status, 201, `${JSON.stringify(attack)}: ${text}`);
        assert.equal(answer.body['state'], 'CREATED');
        if (attack.thenPay) {
          const paid = await pay(sandbox, answer.body['id']);
          assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
          paidCarts.add(charged);
        }
      }
      for (const id of victims) {
        const order = await call(sandbox, 'GET', `/widget-api/v1/orders/${id}`);
        assert.equal(order.body['state'], 'PAID', `${id} is untouched`);
      }
    } finally {
      await sandbox.close();
      await merchant.close();
    }
    for (const orderId of ['V-0', 'V-1', 'V-2', 'V-3', 'V-9']) {
      const paid = notificationsOf(merchant, orderId).filter(
        (notification) => notification.status === 'PAID',
      );
      // Each cart of an order id was paid once at most: no two PAID notifications for the same content.
      const carts = paid.map(
        (notification) => `${notification.total_amount} ${JSON.stringify(notification.items)}`,
      );
      assert.equal(new Set(carts).size, carts.length, `${orderId}: ${carts.join(' | ')}`);
    }
    assert.ok(receipts > 0, 'the run guessed paid carts');
    assert.ok(paidCarts.size > victims.length, 'the run paid carts of its own');
  });
});
