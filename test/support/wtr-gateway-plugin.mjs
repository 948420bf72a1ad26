// web-test-runner's side of the browser tests' real gateway (test/support/gateway-fixture.ts): started once
// per run, on its own origins. The test pages reach it through these routes on their own origin:
//   GET  /__gateway          {gatewayUrl, merchantUrl, widgets, certificateName}
//   POST /__sign             an OrderInput as JSON -> {signature}, signed with the demo merchant's key
//   *    /widget-api/*       forwarded to the sandbox, so frame components under test talk to it same-origin,
//                            as the frame does on the gateway's own page
//   GET  /__frame-page/*     the sandbox's frame page (/widget/frame/*), for the bootstrap it carries
//   GET  /__payment-methods  the demo merchant's payment-methods endpoint for v1 mode (the real handler and
//                            cache over the sandbox's /api/v1/payment_methods/ with the merchant's secret key)
//   GET  /__payment-methods-slow  the same after 1.5 s, as over a slow network (to see the loading state)
//   POST /__purchase         optional members of a Purchase create request as JSON -> the sandbox's Purchase
//                            (with its checkout_url), created with the demo merchant's secret key
import { tsImport } from 'tsx/esm/api';

let fixture;

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The plugin that starts and stops the gateway with the test server. */
export function gatewayPlugin() {
  return {
    name: 'svc-gateway',
    async serverStart({ config }) {
      const { startGatewayFixture } = await tsImport('./gateway-fixture.ts', import.meta.url);
      fixture = await startGatewayFixture({ pageOrigin: `http://localhost:${config.port}` });
    },
    async serverStop() {
      await fixture?.close();
    },
  };
}

/** Koa middleware for the routes above. */
export async function gatewayMiddleware(ctx, next) {
  const path = ctx.path;
  if (path === '/__gateway' && ctx.method === 'GET') {
    const { gatewayUrl, merchantUrl, widgets, certificateName } = fixture;
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({ gatewayUrl, merchantUrl, widgets, certificateName });
    return;
  }
  if (path === '/__sign' && ctx.method === 'POST') {
    const order = JSON.parse((await readBody(ctx.req)).toString('utf8'));
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({ signature: fixture.sign(order) });
    return;
  }
  if (path === '/__payment-methods' || path === '/__payment-methods-slow') {
    if (path.endsWith('-slow')) await new Promise((resolve) => setTimeout(resolve, 1500));
    const request = new Request(`${ctx.protocol}://${ctx.host}${ctx.url}`, { method: ctx.method });
    const response = await fixture.paymentMethods(request);
    ctx.status = response.status;
    for (const [name, value] of response.headers) if (name !== 'content-length') ctx.set(name, value);
    ctx.body = Buffer.from(await response.arrayBuffer());
    return;
  }
  if (path === '/__purchase' && ctx.method === 'POST') {
    const text = (await readBody(ctx.req)).toString('utf8');
    const purchase = await fixture.createPurchase(text ? JSON.parse(text) : {});
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(purchase);
    return;
  }
  if (path.startsWith('/__frame-page/') && ctx.method === 'GET') {
    const response = await fetch(
      `${fixture.gatewayUrl}/widget/frame/${ctx.url.slice('/__frame-page/'.length)}`,
    );
    ctx.status = response.status;
    ctx.type = 'text/html';
    ctx.body = await response.text();
    return;
  }
  if (path.startsWith('/widget-api/')) {
    const body = ['GET', 'HEAD'].includes(ctx.method) ? undefined : await readBody(ctx.req);
    const response = await fetch(`${fixture.gatewayUrl}${ctx.url}`, {
      method: ctx.method,
      headers: { 'content-type': ctx.get('content-type') || 'application/json' },
      body,
    });
    ctx.status = response.status;
    ctx.type = response.headers.get('content-type') ?? 'application/json';
    ctx.body = Buffer.from(await response.arrayBuffer());
    return;
  }
  await next();
}
