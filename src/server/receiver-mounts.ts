/**
 * What the safe receivers share: one `handle(request)` that verifies and answers, mounted for each way a
 * merchant's framework hands over a request (fetch style, node:http and Express, Fastify), each with the raw
 * body kept as the bytes that were signed. The receivers decide; this module only carries their answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type DeduplicatedEvent,
  type EventClaim,
  type EventDeduplicator,
  EventDeduplicatorError,
} from './event-deduplicator.js';
import { type FetchHandler, json, methodNotAllowed, type NodeHandler } from './handlers.js';
import { isFunction, optional } from './options.js';
import type { IncomingRequest } from './raw-request.js';

/** Where a receiver writes its one-line reasons; `console` fits, and so do pino and winston loggers. */
export interface ReceiverLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const loggerRule = optional(
  'a logger with info, warn and error methods, such as console',
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    ['info', 'warn', 'error'].every((method) => isFunction((value as Record<string, unknown>)[method])),
);

/**
 * What a receiver answered and why. `status` is what the gateway gets: 2xx ends its retries, anything else
 * makes it deliver the same bytes again later.
 */
export interface ReceiverAnswer<Outcome extends string = string> {
  status: number;
  /** What happened, for logs and tests: `handled`, `duplicate`, or the refusal's code. */
  outcome: Outcome;
  /** The one line logged for it (empty for a plain success). */
  message: string;
}

/** The options of a receiver's Fastify plugin. */
export interface FastifyReceiverOptions {
  /** The route's path, such as `/svc/notification`. */
  path: string;
}

/** The part of a Fastify reply the plugin uses. */
export interface FastifyReplyLike {
  code(statusCode: number): FastifyReplyLike;
  header(name: string, value: string): FastifyReplyLike;
  send(payload: string): FastifyReplyLike;
}

/**
 * The part of a Fastify instance the plugin uses, written without Fastify's types so that the toolkit does not
 * depend on Fastify; a Fastify 4 or 5 instance has it.
 */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit?: number },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => void,
  ): void;
  route(route: {
    method: string[];
    url: string;
    bodyLimit?: number;
    handler(
      request: { headers: Record<string, string | string[] | undefined>; body?: unknown },
      reply: FastifyReplyLike,
    ): Promise<FastifyReplyLike>;
  }): void;
}

/** A Fastify plugin: `app.register(receiver.fastify, { path })`. */
export type FastifyReceiverPlugin = (
  instance: FastifyInstanceLike,
  options: FastifyReceiverOptions,
) => Promise<void>;

/** One receiver, mounted every way. */
export interface ReceiverMounts<Outcome extends string> {
  /**
   * Verifies and handles one delivery, for any request shape (Node's `IncomingMessage`, a fetch `Request`, or
   * `{ rawBody, headers }`); answer the gateway with `status`. A refusal or a handler's failure is an answer,
   * not an exception.
   */
  handle(request: IncomingRequest): Promise<ReceiverAnswer<Outcome>>;
  /**
   * Fetch style: Next.js route handlers (`export const PUT = receiver.fetch`), Hono
   * (`(c) => receiver.fetch(c.req.raw)`), Bun, Deno.
   */
  fetch: FetchHandler;
  /**
   * node:http (`createServer(receiver.node)`) and Express (`app.put(path, receiver.node)`): the raw body is read
   * from the request, or taken from `req.body` when `express.raw()` or `express.text()` ran first. A body
   * `express.json()` already parsed cannot be verified: answered 500 with a log line naming the fix.
   */
  node: NodeHandler;
  /** Fastify: `app.register(receiver.fastify, { path })` keeps the raw body in the plugin's own context. */
  fastify: FastifyReceiverPlugin;
}

/** The answer's body, as the toolkit's handlers write theirs: `{ error, message }` for a refusal. */
function body(answer: ReceiverAnswer): Record<string, unknown> {
  return answer.status < 300
    ? { received: true, outcome: answer.outcome }
    : { error: answer.outcome, message: answer.message };
}

/** The mounts of `handle`, which takes the methods in `methods` (others get 405). */
export function receiverMounts<Outcome extends string>(
  methods: readonly string[],
  maxBodyBytes: number,
  handle: (request: IncomingRequest) => Promise<ReceiverAnswer<Outcome>>,
): ReceiverMounts<Outcome> {
  const allowed = methods.join(', ');
  return {
    handle,
    async fetch(request) {
      if (!methods.includes(request.method)) return methodNotAllowed(allowed);
      const answer = await handle(request);
      return json(answer.status, body(answer));
    },
    node(req: IncomingMessage, res: ServerResponse) {
      const write = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(payload));
      };
      if (!methods.includes(req.method ?? '')) {
        // Drained, so the connection can carry the answer.
        req.resume();
        write(405, { error: 'method_not_allowed', message: `Use ${allowed}` }, { allow: allowed });
        return;
      }
      handle(req).then(
        (answer) => write(answer.status, body(answer)),
        // Only a logger that throws gets here; the gateway retries the 500.
        () => write(500, { error: 'receiver_failed', message: 'The receiver failed; see the server log' }),
      );
    },
    async fastify(instance, options) {
      if (typeof options?.path !== 'string' || options.path === '') {
        throw new TypeError(
          "The receiver's Fastify plugin needs { path }, such as { path: '/svc/notification' }",
        );
      }
      // Inside this plugin's own context only: the rest of the app keeps its JSON parser.
      instance.removeAllContentTypeParsers();
      instance.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: maxBodyBytes },
        (_request, raw, done) => done(null, raw),
      );
      instance.route({
        method: [...methods],
        url: options.path,
        bodyLimit: maxBodyBytes,
        async handler(request, reply) {
          const raw = request.body;
          const rawBody = raw instanceof Uint8Array || typeof raw === 'string' ? raw : new Uint8Array(0);
          const answer = await handle({ rawBody, headers: request.headers });
          return reply
            .code(answer.status)
            .header('content-type', 'application/json; charset=utf-8')
            .send(JSON.stringify(body(answer)));
        },
      });
    },
  };
}

/** Outcomes of {@link answerOnce} besides the handling's own. */
export type DeliveryRepeatOutcome = 'duplicate' | 'in_progress' | 'event_too_old' | 'store_failed';

/**
 * Runs `handleFirst` for the first delivery of `event` only. A repeat of a delivery that was answered 2xx is
 * answered 200 without handling; a copy arriving while another is handled 409, so the gateway tries again in
 * case that handling fails; an answer that is not 2xx releases the claim, so the gateway's retry is handled.
 */
export async function answerOnce<Outcome extends string>(
  deduplicator: EventDeduplicator | undefined,
  event: DeduplicatedEvent,
  say: Answerer,
  handleFirst: () => Promise<ReceiverAnswer<Outcome>>,
): Promise<ReceiverAnswer<Outcome | DeliveryRepeatOutcome>> {
  if (deduplicator === undefined) return handleFirst();
  let claim: EventClaim;
  try {
    claim = await deduplicator.claim(event);
  } catch (error) {
    if (error instanceof EventDeduplicatorError) return say(400, error.code, error.message);
    return say(
      503,
      'store_failed',
      `the deduplicator's store failed, so the delivery was not handled: ${reason(error)}`,
    );
  }
  if (claim.status === 'duplicate') return say(200, 'duplicate', '');
  if (claim.status === 'in_progress') {
    return say(
      409,
      'in_progress',
      'another copy of this delivery is being handled; the gateway will try again',
    );
  }
  const answer = await handleFirst();
  try {
    if (answer.status < 300) await claim.complete();
    else await claim.release();
  } catch (error) {
    // Handled (or refused) all the same; without the marker a repeat is handled again.
    say(
      answer.status,
      answer.outcome,
      `the deduplicator could not record the delivery: ${reason(error)}`,
      'warn',
    );
  }
  return answer;
}

/** An error's message, for a log line. */
export function reason(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** How loud a line is: refusals that lose money or need a fix are errors. */
export type LogLevel = keyof ReceiverLogger;

/** Builds a receiver's answer and logs its message. */
export type Answerer = <Outcome extends string>(
  status: number,
  outcome: Outcome,
  message: string,
  level?: LogLevel,
) => ReceiverAnswer<Outcome>;

/**
 * The answerer of a receiver named `name`: builds the answer and logs its message as one line, at `level`
 * (by default error for 5xx, warn for 4xx, info otherwise); an empty message logs nothing.
 */
export function answerer(name: string, logger: ReceiverLogger): Answerer {
  return <Outcome extends string>(
    status: number,
    outcome: Outcome,
    message: string,
    level: LogLevel = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
  ): ReceiverAnswer<Outcome> => {
    if (message !== '') logger[level](`svc-checkout ${name}: ${outcome} (answered ${status}): ${message}`);
    return { status, outcome, message };
  };
}
