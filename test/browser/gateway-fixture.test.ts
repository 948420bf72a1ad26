import { expect } from '@open-wc/testing';
import { gatewayInfo, sign } from '../support/gateway-info.js';

describe('the browser tests’ gateway', () => {
  it('runs on a second origin, and the widget API is reachable through this origin', async () => {
    const info = await gatewayInfo();
    expect(new URL(info.gatewayUrl).origin).to.not.equal(location.origin);
    const response = await fetch(`/widget-api/v1/widgets/${info.widgets.checkout}`);
    expect(response.status).to.equal(200);
    expect(((await response.json()) as { type: string }).type).to.equal('CHECKOUT');
  });

  it('takes an order signed through /__sign, posted from this page’s origin', async () => {
    const info = await gatewayInfo();
    const order = { widgetId: info.widgets.checkout, items: [{ amount: '1.00', label: 'Tea' }] };
    const signature = await sign({ ...order, certificateName: info.certificateName });
    const response = await fetch('/widget-api/v1/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        order,
        signature,
        certificateName: info.certificateName,
        pageOrigin: location.origin,
      }),
    });
    expect(response.status).to.equal(201);
    const tampered = await fetch('/widget-api/v1/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        order: { ...order, items: [{ amount: '0.01', label: 'Tea' }] },
        signature,
        certificateName: info.certificateName,
        pageOrigin: location.origin,
      }),
    });
    expect(tampered.status).to.equal(401);
  });
});
