// The order the element sends in `init`: from attributes, the `order` JSON (escaped or not) or object, and
// the script interface; only what the page gave, nothing filled in (it is what the merchant signed).
import { aTimeout, expect, fixture, html } from '@open-wc/testing';
import '../../src/element/define.js';
import { ORDER_ATTRIBUTE_NAMES } from '../../src/core/order-input-from-attributes.js';
import { CheckoutStateError } from '../../src/element/checkout-state-error.js';
import { SvcCheckout } from '../../src/element/svc-checkout.js';
import { gatewayInfo, initOf, shadow, testFrame } from './helpers.js';

describe('<svc-checkout> order', () => {
  let widgetId: string;
  before(async () => {
    widgetId = (await gatewayInfo()).widgets.checkout;
  });

  it('sends the single-item attributes as one item, with the element-level fields and nothing more', async () => {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      gateway=${location.origin}
      widget-id=${widgetId}
      amount="12.50"
      currency="EUR"
      label="Green tea"
      tax-rate="21"
      count="2"
      unit="PIECE"
      order-id="A-17"
      language="lv"
      back-to-merchant-url="https://shop.example/cart"
      success-redirect-url="https://shop.example/thanks"
      signature="c2lnbmF0dXJl"
      certificate-name="demo"
      email="anna@example.com"
      first-name="Anna"
    ></svc-checkout>`);
    const init = await initOf(element);
    // The certificate name and the success URL are part of the order: both are signed.
    expect(init.order).to.deep.equal({
      widgetId,
      language: 'lv',
      certificateName: 'demo',
      successRedirectUrl: 'https://shop.example/thanks',
      backToMerchantUrl: 'https://shop.example/cart',
      orderId: 'A-17',
      items: [
        { amount: '12.50', currency: 'EUR', label: 'Green tea', taxRate: '21', count: '2', unit: 'PIECE' },
      ],
    });
    expect(init.signature).to.equal('c2lnbmF0dXJl');
    expect(init).to.not.have.property('certificateName');
    expect(init.customer).to.deep.equal({ email: 'anna@example.com', firstName: 'Anna' });
    expect(init.language).to.equal('lv');
  });

  it('fills in no defaults: an item without currency, tax rate, count or unit goes without them', async () => {
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout gateway=${location.origin} widget-id=${widgetId} amount="5" label="Tea"></svc-checkout>`,
    );
    const init = await initOf(element);
    expect(init.order).to.deep.equal({ widgetId, items: [{ amount: '5', label: 'Tea' }] });
    expect(init).to.not.have.property('signature');
    expect(init).to.not.have.property('certificateName');
    expect(init.customer).to.deep.equal({});
  });

  it('reads the order JSON HTML-escaped, as the legacy document asks, and escaped twice by a template', async () => {
    const json = { items: [{ amount: '3.10', label: 'Mug "Riga"' }], shippingOptions: [{ id: 'pickup' }] };
    const escaped = JSON.stringify(json).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    for (const attribute of [escaped, escaped.replace(/&/g, '&amp;')]) {
      const element = await fixture<SvcCheckout>(
        `<svc-checkout gateway="${location.origin}" widget-id="${widgetId}" order="${attribute}"></svc-checkout>`,
      );
      const init = await initOf(element);
      expect(init.order).to.deep.equal({ widgetId, ...json });
    }
  });

  it('takes the order as an object through the property', async () => {
    const element = document.createElement('svc-checkout');
    element.gateway = location.origin;
    element.widgetId = widgetId;
    element.order = {
      items: [{ amount: 9.99, label: 'Teapot', orderItemId: 7 }],
      constraints: { paymentScheme: 'VISA' },
    };
    document.body.append(element);
    try {
      const init = await initOf(element);
      expect(init.order).to.deep.equal({
        widgetId,
        items: [{ amount: 9.99, label: 'Teapot', orderItemId: 7 }],
        constraints: { paymentScheme: 'VISA' },
      });
    } finally {
      element.remove();
    }
  });

  it('takes an order a framework made reactive (a proxy, as Vue’s ref and reactive give), and refuses a function in it', async () => {
    // What Vue's reactive() does to reads, in short: every object and array read through a proxy.
    const reactive = <T extends object>(target: T): T =>
      new Proxy(target, {
        get: (object, key, receiver) => {
          const value = Reflect.get(object, key, receiver);
          return typeof value === 'object' && value !== null ? reactive(value) : value;
        },
      });
    const element = document.createElement('svc-checkout');
    element.gateway = location.origin;
    element.widgetId = widgetId;
    element.order = reactive({
      items: [{ amount: '9.99', label: 'Teapot' }],
      constraints: { paymentScheme: 'VISA' },
    });
    document.body.append(element);
    try {
      const init = await initOf(element);
      expect(init.order).to.deep.equal({
        widgetId,
        items: [{ amount: '9.99', label: 'Teapot' }],
        constraints: { paymentScheme: 'VISA' },
      });
    } finally {
      element.remove();
    }
    const refused = await fixture<SvcCheckout>(
      html`<svc-checkout lazy="true" gateway=${location.origin} widget-id=${widgetId}></svc-checkout>`,
    );
    refused.order = { items: [{ amount: '9.99', label: () => 'Teapot' }] } as unknown as SvcCheckout['order'];
    const heard = new Promise<CustomEvent>((resolve) =>
      refused.addEventListener('checkoutError', resolve as EventListener, { once: true }),
    );
    refused.init();
    const { detail } = await heard;
    expect(detail).to.include({ code: 'invalid_order', attribute: 'order' });
    expect(detail.message).to.contain('cannot be sent');
  });

  it('appends items and shipping options added by script after the order attribute’s own', async () => {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      lazy="true"
      gateway=${location.origin}
      widget-id=${widgetId}
      order=${JSON.stringify({ items: [{ amount: '1.00', label: 'Cup' }], shippingOptions: [{ id: 'pickup', amount: 0 }] })}
    ></svc-checkout>`);
    element.addOrderItem({ amount: '2.50', label: 'Saucer', count: 3 });
    element.addShippingOption({ id: 'courier' });
    element.init();
    const init = await initOf(element);
    expect(init.order.items).to.deep.equal([
      { amount: '1.00', label: 'Cup' },
      { amount: '2.50', label: 'Saucer', count: 3 },
    ]);
    expect(init.order.shippingOptions).to.deep.equal([{ id: 'pickup', amount: 0 }, { id: 'courier' }]);
  });

  it('keeps the item as it was added, even when the page changes its object later', async () => {
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout lazy="true" gateway=${location.origin} widget-id=${widgetId}></svc-checkout>`,
    );
    const item = { amount: '2.00', label: 'Spoon' };
    element.addOrderItem(item);
    item.amount = '0.01';
    element.init();
    expect((await initOf(element)).order.items).to.deep.equal([{ amount: '2.00', label: 'Spoon' }]);
  });

  it('reads each order attribute under the name core’s map gives it (the name its errors use)', () => {
    const properties = SvcCheckout.properties as Record<string, { attribute?: string }>;
    for (const [property, attribute] of Object.entries(ORDER_ATTRIBUTE_NAMES)) {
      expect(properties[property]?.attribute ?? property, property).to.equal(attribute);
    }
  });

  it('keeps the order object as it was at the start: a reloaded frame gets it unchanged', async () => {
    const order = {
      items: [{ amount: '9.99', label: 'Teapot' }],
      shippingOptions: [{ id: 'pickup', amount: '0' }],
    };
    const element = document.createElement('svc-checkout');
    element.gateway = location.origin;
    element.widgetId = widgetId;
    element.order = order;
    document.body.append(element);
    try {
      const frame = await testFrame(element);
      frame.send({ type: 'ready' });
      const first = await frame.next('init');
      order.items[0]!.amount = '0.01';
      order.shippingOptions.push({ id: 'free', amount: '0' });
      // The frame's page loaded again (a reload, or the customer's retry): it asks for the order again.
      frame.send({ type: 'ready' });
      const second = await frame.next('init');
      expect(second.order).to.deep.equal(first.order);
      expect(second.order.items).to.deep.equal([{ amount: '9.99', label: 'Teapot' }]);
    } finally {
      element.remove();
    }
  });

  it('takes an added item or shipping option as given, unchecked (the gateway checks it), but only an object', async () => {
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout lazy="true" gateway=${location.origin} widget-id=${widgetId}></svc-checkout>`,
    );
    for (const [call, value] of [
      ['addOrderItem', null],
      ['addOrderItem', '{"amount":"1.00","label":"Tea"}'],
      ['addShippingOption', ['courier']],
      ['addShippingOption', undefined],
    ] as const) {
      const add = (element[call] as (value: unknown) => void).bind(element);
      expect(() => add(value)).to.throw(
        TypeError,
        new RegExp(`^<svc-checkout> ${call}\\(\\): takes an object`),
      );
    }
    element.addOrderItem({ amount: '1.999', label: 'Tea', unit: 'BOX' } as never);
    element.addShippingOption({ id: 'courier', amount: '-1' });
    element.addShippingOption({ id: 'courier' });
    element.init();
    const init = await initOf(element);
    expect(init.order.items).to.deep.equal([{ amount: '1.999', label: 'Tea', unit: 'BOX' }]);
    expect(init.order.shippingOptions).to.deep.equal([{ id: 'courier', amount: '-1' }, { id: 'courier' }]);
  });

  it('sends the single-item attributes as written, unchecked: the gateway checks them', async () => {
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout gateway=${location.origin} widget-id=${widgetId} amount="12,50" label="Tea" unit="BOX"></svc-checkout>`,
    );
    expect((await initOf(element)).order.items).to.deep.equal([
      { amount: '12,50', label: 'Tea', unit: 'BOX' },
    ]);
  });

  it('leaves an order JSON whose items are not a list as given, without the script’s items', async () => {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      lazy="true"
      gateway=${location.origin}
      widget-id=${widgetId}
      order='{"items":"tea"}'
    ></svc-checkout>`);
    element.addOrderItem({ amount: '1.00', label: 'Cup' });
    element.init();
    expect((await initOf(element)).order).to.deep.equal({ items: 'tea', widgetId });
  });

  it('refuses changes after the order was sent, and a second init(), with a typed error, changing nothing', async () => {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      lazy="true"
      gateway=${location.origin}
      widget-id=${widgetId}
      amount="1.00"
      label="Tea"
    ></svc-checkout>`);
    element.init();
    const tries: Array<[() => void, string]> = [
      [() => element.addOrderItem({ amount: '2.00', label: 'More tea' }), 'order_already_sent'],
      [() => element.addShippingOption({ id: 'courier' }), 'order_already_sent'],
      [() => element.init(), 'already_initialized'],
    ];
    for (const [attempt, code] of tries) {
      let error: unknown;
      try {
        attempt();
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(CheckoutStateError);
      expect((error as CheckoutStateError).code).to.equal(code);
      expect((error as Error).message).to.match(/^<svc-checkout> (addOrderItem|addShippingOption|init)\(\)/);
    }
    const init = await initOf(element);
    expect(init.order.items).to.deep.equal([{ amount: '1.00', label: 'Tea' }]);
    expect(init.order).to.not.have.property('shippingOptions');
    expect(shadow(element).querySelectorAll('iframe')).to.have.length(1);
  });
});

describe('<svc-checkout> start', () => {
  let widgetId: string;
  before(async () => {
    widgetId = (await gatewayInfo()).widgets.checkout;
  });

  it('with lazy="true" starts nothing until init()', async () => {
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout lazy="true" gateway=${location.origin} widget-id=${widgetId}></svc-checkout>`,
    );
    await aTimeout(50);
    expect(shadow(element).querySelector('iframe')).to.equal(null);
    expect(element.state).to.equal(undefined);
    expect(element.hasAttribute('state')).to.equal(false);
    element.init();
    await element.updateComplete;
    expect(shadow(element).querySelector('iframe')).to.not.equal(null);
    expect(element.getAttribute('state')).to.equal('loading');
  });

  it('without lazy starts once connected, after the task that created it: later attributes and items count', async () => {
    const element = document.createElement('svc-checkout');
    document.body.append(element);
    element.setAttribute('gateway', location.origin);
    element.setAttribute('widget-id', widgetId);
    element.setAttribute('label', 'Tea');
    element.setAttribute('amount', '1.00');
    element.addOrderItem({ amount: '3.00', label: 'Honey' });
    try {
      expect(element.state).to.equal(undefined);
      expect((await initOf(element)).order.items).to.deep.equal([
        { amount: '1.00', label: 'Tea' },
        { amount: '3.00', label: 'Honey' },
      ]);
    } finally {
      element.remove();
    }
  });

  it('without lazy starts by itself, and then refuses init()', async () => {
    const element = document.createElement('svc-checkout');
    element.gateway = location.origin;
    element.widgetId = widgetId;
    document.body.append(element);
    element.addOrderItem({ amount: '3.00', label: 'Honey' });
    try {
      await aTimeout(20);
      expect(element.state).to.equal('loading');
      expect(() => element.init()).to.throw(CheckoutStateError, /already started/);
      expect((await initOf(element)).order.items).to.deep.equal([{ amount: '3.00', label: 'Honey' }]);
    } finally {
      element.remove();
    }
  });

  it('does not start while not connected, and starts when connected', async () => {
    const element = document.createElement('svc-checkout');
    element.gateway = location.origin;
    element.widgetId = widgetId;
    await aTimeout(20);
    expect(element.state).to.equal(undefined);
    document.body.append(element);
    try {
      await aTimeout(20);
      expect(element.state).to.equal('loading');
    } finally {
      element.remove();
    }
  });
});
