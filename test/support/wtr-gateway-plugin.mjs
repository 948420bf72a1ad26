// web-test-runner's side of the browser tests' real gateway (test/support/gateway-fixture.ts): started once
// per run, on its own origins. The test pages reach it through three routes on their own origin:
//   GET  /__gateway     {gatewayUrl, merchantUrl, widgets, certificateName}
//   POST /__sign        an OrderInput as JSON -> {signature}, signed with the demo merchant's key
//   *    /widget-api/*  forwarded to the sandbox, so frame components under test talk to it same-origin,
//                       as the frame does on the gateway's own page
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

/** Koa middleware for the three routes above. */
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
