/**
 * The commands that talk to a running sandbox, as the Stripe CLI's `logs tail`, `listen --forward-to` and
 * `events resend` talk to Stripe: `svc-sandbox logs` and `listen` read its event streams (`GET /sandbox/logs`,
 * `GET /sandbox/forwarding`, see observe-routes.ts); `notifications` and `resend` its legacy notifications
 * (legacy/notification-routes.ts).
 */
import { SvcError } from '../core/errors.js';
import type { WatchRequest } from './cli-args.js';
import type { LegacyNotificationView } from './legacy/notification-routes.js';
import type { ForwardedDelivery } from './observe-routes.js';
import { formatLogEntry, type SandboxLogEntry } from './sandbox-log.js';

/** A command against a running sandbox failed: none runs there, it refused the key, or it went away. */
export class WatchError extends SvcError<'unreachable' | 'refused' | 'closed'> {}

/** What a watcher prints: `line` to stdout, `status` (ready, stopped) to stderr. */
export interface WatchOutput {
  line(text: string): void;
  status(text: string): void;
}

/**
 * Runs the command. `logs` and `listen` watch until `signal` aborts (resolves) or the sandbox goes away
 * (rejects with {@link WatchError}).
 */
export async function runWatchRequest(
  request: WatchRequest,
  output: WatchOutput,
  signal: AbortSignal,
): Promise<void> {
  switch (request.kind) {
    case 'logs':
    case 'listen':
      return watch(request, output, signal);
    case 'notifications': {
      const query = request.orderId === undefined ? '' : `?order_id=${encodeURIComponent(request.orderId)}`;
      const response = await callSandbox(request, 'GET', `/sandbox/legacy/notifications${query}`, signal);
      const { notifications } = (await response.json()) as { notifications: LegacyNotificationView[] };
      if (notifications.length === 0) output.status('No notifications sent yet');
      for (const notification of notifications) output.line(notificationLine(notification));
      return;
    }
    case 'resend': {
      const path = `/sandbox/legacy/notifications/${encodeURIComponent(request.notificationId)}/resend`;
      const response = await callSandbox(request, 'POST', path, signal);
      const resent = (await response.json()) as LegacyNotificationView;
      output.line(`Resent ${request.notificationId} as ${resent.id}: ${resent.status} to ${resent.url}`);
      return;
    }
  }
}

/** A notification as `svc-sandbox notifications` lists it: its id first, to resend it by. */
function notificationLine(notification: LegacyNotificationView): string {
  const attempts = `${notification.attempts.length} attempt${notification.attempts.length === 1 ? '' : 's'}`;
  const next = notification.nextAttemptAt === null ? '' : `, next at ${notification.nextAttemptAt}`;
  const resend = notification.resendOf === undefined ? '' : `, resends ${notification.resendOf}`;
  return `${notification.id}  ${notification.status ?? '?'} ${notification.state} (${attempts}${next}${resend})  order ${notification.orderId}  ${notification.createdAt}`;
}

/** A request as the merchant; the answer when it is 2xx, else a {@link WatchError} naming why. */
async function callSandbox(
  request: WatchRequest,
  method: string,
  path: string,
  signal: AbortSignal,
): Promise<Response> {
  const target = new URL(path, request.url);
  let response: Response;
  try {
    response = await fetch(target, { method, headers: { 'x-svc-api-key': request.apiKey }, signal });
  } catch (error) {
    throw new WatchError(
      'unreachable',
      `cannot reach a sandbox at ${request.url} (${causeOf(error)}); start one with svc-sandbox, or give its --url`,
    );
  }
  if (!response.ok) {
    const text = await response.text();
    let message = text;
    try {
      message = (JSON.parse(text) as { error: { message: string } }).error.message;
    } catch {}
    throw new WatchError('refused', `${target.href} answered ${response.status}: ${message}`);
  }
  return response;
}

async function watch(
  request: Extract<WatchRequest, { kind: 'logs' | 'listen' }>,
  output: WatchOutput,
  signal: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await callSandbox(
      request,
      'GET',
      request.kind === 'logs' ? '/sandbox/logs' : '/sandbox/forwarding',
      signal,
    );
  } catch (error) {
    if (signal.aborted) return;
    throw error;
  }
  const forward = request.kind === 'listen' ? request.forwardTo : undefined;
  output.status(
    forward === undefined
      ? `Tailing the log of ${request.url} (Ctrl-C to stop)`
      : `Forwarding the deliveries of ${request.url} to ${forward} (Ctrl-C to stop)`,
  );
  try {
    for await (const { event, data } of serverSentEvents(response.body!)) {
      if (event === 'log') output.line(formatLogEntry(JSON.parse(data) as SandboxLogEntry));
      else if (event === 'delivery' && forward !== undefined)
        // One after another, in the order the sandbox queued them: an order's notifications stay in order.
        output.line(await forwardDelivery(JSON.parse(data) as ForwardedDelivery, forward));
    }
  } catch (error) {
    if (signal.aborted) return;
    throw new WatchError('closed', `the stream from ${request.url} broke off (${causeOf(error)})`);
  }
  if (!signal.aborted) throw new WatchError('closed', `the sandbox at ${request.url} closed the stream`);
}

/**
 * Where a delivery goes when forwarded to `forwardTo`: that URL, or, when it names no path (only an origin),
 * the origin with the delivery's own path and query, so one flag serves notifications and webhooks alike.
 */
export function forwardTarget(forwardTo: string, deliveryUrl: string): string {
  const base = new URL(forwardTo);
  if (base.pathname !== '/' || base.search !== '') return base.href;
  const own = new URL(deliveryUrl);
  return new URL(`${own.pathname}${own.search}`, base).href;
}

/** Sends the delivery's bytes and headers to the forward target; the line that says how it went. */
async function forwardDelivery(delivery: ForwardedDelivery, forwardTo: string): Promise<string> {
  const target = forwardTarget(forwardTo, delivery.url);
  const what = `${delivery.delivery.replace('_', ' ')}${delivery.event === undefined ? '' : ` ${delivery.event}`}`;
  const started = performance.now();
  const took = () => `${Math.round(performance.now() - started)} ms`;
  try {
    const response = await fetch(target, {
      method: delivery.method,
      headers: delivery.headers,
      body: delivery.body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return `${time()} forwarded ${what} ${delivery.method} ${target} answered ${response.status} after ${took()}`;
  } catch (error) {
    return `${time()} forwarded ${what} ${delivery.method} ${target}: no answer after ${took()} (${causeOf(error)})`;
  }
}

function time(): string {
  return new Date().toTimeString().slice(0, 8);
}

/** Why a request found no sandbox: the network's own code (`ECONNREFUSED`), not fetch's `fetch failed`. */
export function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** The events of a `text/event-stream` body: `event` and `data` of each; comments skipped. */
async function* serverSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event: string; data: string }, void, undefined> {
  let buffered = '';
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length > 0) yield { event, data: data.join('\n') };
    }
  }
}
