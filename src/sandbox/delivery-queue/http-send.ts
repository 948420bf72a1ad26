/** How the sandbox sends a delivery: one HTTP request to the merchant's URL, kept open for a late answer. */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Delivery, SendResult } from './deliveries.js';

/** Options of {@link createHttpSend}. */
export interface HttpSendOptions {
  /** How long one attempt may take before it counts as failed; default 10 s. */
  timeoutMs?: number;
  /** Open connections per merchant host; default 16. */
  maxSockets?: number;
  /**
   * How many timed-out requests per merchant host may stay open for a late answer, each holding one of its
   * connections; default half of `maxSockets`, so that late answers never take the connections that new
   * attempts need. Beyond it, a timed-out request is closed at once.
   */
  maxLateAnswers?: number;
}

/**
 * A `send` for the queue over node:http(s) with keep-alive connections: the merchant's answer body is read and
 * dropped. Signing is the caller's: the delivery's headers are sent as stored. A request sent in full that
 * has no answer within the timeout counts as failed, but is not closed: it stays open for the answer
 * (`lateAnswer`) until the queue abandons it, so that a merchant who answers late is not sent it again.
 * `close()` closes every connection, those kept for late answers too.
 */
export function createHttpSend(options: HttpSendOptions = {}): ((
  delivery: Delivery,
) => Promise<SendResult>) & {
  close(): void;
} {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxSockets = options.maxSockets ?? 16;
  const maxLateAnswers = options.maxLateAnswers ?? Math.floor(maxSockets / 2);
  const agentOptions = { keepAlive: true, maxSockets };
  const httpAgent = new HttpAgent(agentOptions);
  const httpsAgent = new HttpsAgent(agentOptions);
  /** Timed-out requests still open for their answer, per scheme and host. */
  const lateOpen = new Map<string, number>();
  const countLate = (host: string, change: 1 | -1) => {
    const count = (lateOpen.get(host) ?? 0) + change;
    if (count === 0) lateOpen.delete(host);
    else lateOpen.set(host, count);
  };
  const send = (delivery: Delivery): Promise<SendResult> =>
    new Promise((resolveSend) => {
      let url: URL;
      try {
        url = new URL(delivery.url);
      } catch {
        resolveSend({ error: `${delivery.url} is not a URL` });
        return;
      }
      const secure = url.protocol === 'https:';
      const host = `${url.protocol}//${url.host}`;
      const request = (secure ? httpsRequest : httpRequest)(url, {
        method: delivery.method,
        headers: { ...delivery.headers, 'content-length': String(Buffer.byteLength(delivery.body)) },
        agent: secure ? httpsAgent : httpAgent,
      });
      // Who hears how the request ends: the attempt, or once it has timed out, its late answer.
      let hear: (result: { status: number } | { error: string }) => void = resolveSend;
      let late = false;
      let sent = false;
      const end = (result: { status: number } | { error: string }) => {
        clearTimeout(timer);
        if (late) countLate(host, -1);
        late = false;
        const listener = hear;
        hear = () => {};
        listener(result);
      };
      const timer = setTimeout(() => {
        const error = `no answer within ${timeoutMs} ms`;
        // Not sent in full (a slow connection), or enough late answers awaited from this host: closed.
        if (!sent || (lateOpen.get(host) ?? 0) >= maxLateAnswers) {
          request.destroy(new Error(error));
          return;
        }
        late = true;
        countLate(host, 1);
        // Kept open for an answer only: it does not keep the process alive.
        request.socket?.unref();
        const answer = new Promise<{ status: number } | { error: string }>((resolveLate) => {
          hear = resolveLate;
        });
        resolveSend({
          error,
          lateAnswer: { answer, abandon: () => request.destroy(new Error('abandoned for the retry')) },
        });
      }, timeoutMs);
      request.on('finish', () => {
        sent = true;
      });
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => end({ status: response.statusCode ?? 0 }));
        response.on('error', (error) => end({ error: error.message }));
      });
      request.on('error', (error) => end({ error: error.message }));
      request.end(delivery.body);
    });
  return Object.assign(send, {
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  });
}
