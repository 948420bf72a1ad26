/**
 * A running sandbox watched from outside, as server-sent events, each for the merchant whose key the request
 * carries (see `sandbox-auth.ts`):
 * - `GET /sandbox/logs`: the log entries of the merchant (event `log`; `svc-sandbox logs`); entries of no
 *   merchant (an unknown path, a static file) go only to the CLI's output and in-process listeners, since a
 *   request line may name another merchant's ids;
 * - `GET /sandbox/forwarding`: each delivery queued for the merchant (legacy notification, v1 success callback
 *   or webhook) with its exact body and headers (event `delivery`; `svc-sandbox listen --forward-to`).
 * A comment line `: ready` opens each stream once it listens, so a client knows nothing after it is missed.
 */
import type { ServerResponse } from 'node:http';
import type { Delivery } from './delivery-queue.js';
import type { RequestContext, Router } from './http.js';
import type { SandboxMerchantAuth } from './sandbox-auth.js';
import {
  type Channel,
  type DeliveryKind,
  deliveryEventOf,
  deliveryKindOf,
  type SandboxLogEntry,
} from './sandbox-log.js';

/** A delivery as `GET /sandbox/forwarding` sends it: enough to send the same request elsewhere. */
export interface ForwardedDelivery {
  id: string;
  delivery: DeliveryKind;
  event?: string;
  method: string;
  /** Where the sandbox sends it. */
  url: string;
  /** The headers as sent, the signature among them. */
  headers: Record<string, string>;
  /** The exact bytes sent. */
  body: string;
}

export function forwardedDelivery(delivery: Delivery): ForwardedDelivery {
  const event = deliveryEventOf(delivery);
  return {
    id: delivery.id,
    delivery: deliveryKindOf(delivery),
    ...(event !== undefined && { event }),
    method: delivery.method,
    url: delivery.url,
    headers: delivery.headers,
    body: delivery.body,
  };
}

/** Sent on an idle stream now and then, so that proxies and clients see it alive. */
const HEARTBEAT_MS = 15_000;
/**
 * What a stream may hold unsent for a client that does not read: past it the stream is closed (the client
 * reconnects, and misses what it did not read), so that a stalled reader cannot make the sandbox hold an
 * ever-growing backlog while orders go on.
 */
export const MAX_UNSENT_BYTES = 1024 * 1024;

export interface ObserveRoutesDeps {
  log: Channel<SandboxLogEntry>;
  deliveries: Channel<Delivery>;
  auth: SandboxMerchantAuth;
}

export function mountObserveRoutes(router: Router, deps: ObserveRoutesDeps): void {
  router.on('GET', '/sandbox/logs', (context) => {
    const merchant = deps.auth(context.req);
    stream(context, deps.log, (entry) => (entry.merchantId === merchant.id ? ['log', entry] : undefined));
  });
  router.on('GET', '/sandbox/forwarding', (context) => {
    const merchant = deps.auth(context.req);
    stream(context, deps.deliveries, (delivery) =>
      delivery.owner === merchant.id ? ['delivery', forwardedDelivery(delivery)] : undefined,
    );
  });
}

/** Answers with an event stream of the channel's items that `select` turns into an event, till the client goes. */
function stream<T>(
  context: RequestContext,
  channel: Channel<T>,
  select: (item: T) => [event: string, data: unknown] | undefined,
): void {
  const res: ServerResponse = context.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  const send = (text: string) => {
    if (res.writableLength > MAX_UNSENT_BYTES) res.destroy();
    else res.write(text);
  };
  send(': ready\n\n');
  const stop = channel.subscribe((item) => {
    const selected = select(item);
    if (selected !== undefined) send(`event: ${selected[0]}\ndata: ${JSON.stringify(selected[1])}\n\n`);
  });
  const heartbeat = setInterval(() => send(': alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  res.on('close', () => {
    stop();
    clearInterval(heartbeat);
  });
}
