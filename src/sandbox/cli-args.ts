/**
 * The `svc-sandbox` command line, read into a typed request. Reading is kept apart from running so that every
 * refusal (unknown flag, bad port) can be tested without starting a server.
 */
import { parseArgs } from 'node:util';
import { SvcError } from '../core/errors.js';
import {
  DEMO_API_KEY,
  DEMO_CERTIFICATE_NAME,
  DEMO_MERCHANT_ID,
  DEMO_V1_BRAND_ID,
  DEMO_V1_SECRET_KEY,
  originProblem,
  TEST_CREDITORS,
} from './config.js';
import { TEST_CARDS } from './test-cards.js';
import { DEFAULT_PAYMENT_METHODS_RATE_LIMIT } from './v1/rate-limit.js';

/** The port the sandbox listens on when none is given. */
export const DEFAULT_PORT = 4010;
/** The host the sandbox binds when none is given: loopback, as a test gateway should. */
export const DEFAULT_HOST = '127.0.0.1';
/** Where the commands against a running sandbox (logs, listen, notifications, trigger…) look by default. */
export const DEFAULT_SANDBOX_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

/** What the command line asks for. */
export type CliRequest =
  | {
      kind: 'run';
      port: number;
      host: string;
      /** A config file; without one the sandbox runs the demo merchant. */
      configFile?: string;
      /** Where state and keys are kept; without one a temporary dir is used and state is lost at exit. */
      dataDir?: string;
      /** Serve HTTPS with a self-signed certificate kept in the data dir. */
      https: boolean;
      /** Print no line per request and delivery (`--quiet`). */
      quiet?: true;
      /** `--allow-origin`, in order: page origins added to every merchant's allowed origins. */
      allowOrigins?: string[];
    }
  | WatchRequest
  | { kind: 'help'; text: string }
  | { kind: 'version' };

/**
 * The commands against a running sandbox, each as the merchant whose API key is given (the demo merchant's
 * by default): `logs` prints its log lines; `listen --forward-to URL` sends each of its deliveries to URL
 * too; `notifications` lists the legacy notifications sent; `resend ID` sends one again.
 */
export type WatchRequest =
  | { kind: 'logs'; url: string; apiKey: string }
  | { kind: 'listen'; url: string; apiKey: string; forwardTo: string }
  | { kind: 'notifications'; url: string; apiKey: string; orderId?: string }
  | { kind: 'resend'; url: string; apiKey: string; notificationId: string };

/** The commands that talk to a running sandbox. */
const WATCH_COMMANDS = ['logs', 'listen', 'notifications', 'resend'] as const;

/** A command line that cannot be run; the message ends by pointing at `--help`. */
export class CliArgsError extends SvcError<'unknown_flag' | 'bad_value' | 'unexpected_argument'> {}

/** The widest line of the help text: it stays readable in an 80-column terminal. */
export const HELP_WIDTH = 79;

/** A test card's line: the number in groups of four, its outcome wrapped beside it. */
function testCardLine(number: string, description: string): string {
  const lead = `  ${number.replace(/(\d{4})(?=\d)/g, '$1 ')}  `;
  const lines = [''];
  for (const word of description.split(' ')) {
    const line = lines[lines.length - 1]!;
    if (line !== '' && lead.length + line.length + 1 + word.length > HELP_WIDTH) lines.push(word);
    else lines[lines.length - 1] = line === '' ? word : `${line} ${word}`;
  }
  return lines.map((line, index) => (index === 0 ? lead : ' '.repeat(lead.length)) + line).join('\n');
}

const rateLimit = DEFAULT_PAYMENT_METHODS_RATE_LIMIT;

/**
 * The `--help` text, at most 80 columns wide. The demo merchant's keys and ids come from the constants the
 * sandbox runs with, so the text cannot drift from them.
 */
export const HELP_TEXT = `Usage: svc-sandbox [options]
       svc-sandbox init [--dir DIR] [--force]   Write a config and a merchant
                                                key pair (init --help)

A local svc gateway for development and tests. It speaks both of the gateway's
interfaces: the legacy widget (with merchant API v2) and the v1 REST interface.

Options:
  -p, --port PORT     Port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
      --host HOST     Address to bind (default ${DEFAULT_HOST}; 0.0.0.0 listens on
                      every interface)
  -c, --config FILE   Merchants, widgets and certificates (JSON; see
                      sandbox-config.schema.json). Without it, a demo merchant
                      is created and its private key written to the data dir.
  -d, --data-dir DIR  Keeps state and keys across restarts (default: state in
                      memory, lost at exit; keys in a new temporary dir)
  -q, --quiet         Print no line per request and delivery attempt
      --https         Serve HTTPS with a self-signed certificate for localhost,
                      127.0.0.1, ::1 and --host, made at the first start and
                      kept in the data dir (tls/certificate.pem; path printed).
                      Trust it, e.g. NODE_EXTRA_CA_CERTS=<that file> for Node
      --allow-origin ORIGIN
                      Also let pages on ORIGIN (such as https://shop.test)
                      embed every merchant's widgets; repeatable. Without
                      --config, any http(s) page on localhost or 127.0.0.1
                      may, on any port
  -h, --help          Show this text
  -v, --version       Show the version

Watching a running sandbox (as the merchant whose key is given):
  svc-sandbox logs    Print its lines: requests, deliveries, signature checks
  svc-sandbox listen --forward-to URL
                      Send each notification, success callback and webhook
                      it delivers to URL too: the same bytes and headers. A
                      URL with no path keeps each delivery's own path
  svc-sandbox notifications [--order-id ID]
                      List the legacy notifications sent, newest first
  svc-sandbox resend NOTIFICATION-ID
                      Send a legacy notification again: same bytes, same
                      signature
    --url URL         The sandbox (default ${DEFAULT_SANDBOX_URL})
    --api-key KEY     The merchant's API key (default: the demo merchant's)

Legacy widget:
  Serves the <svc-checkout> script (/widget/svc-checkout.js) and its payment
  frame, takes test card payments, sends signed purchase notifications with
  retries, and answers the merchant API v2 (/v2/merchants/...).
  Demo merchant: id ${DEMO_MERCHANT_ID}, API key ${DEMO_API_KEY}, certificate
  "${DEMO_CERTIFICATE_NAME}"; its private key file and widget ids are printed at start.
  The gateway's certificate, for X-Svc-Signature:
  /sandbox/service-certificate.pem
  Widgets take Visa and Mastercard unless their cardSchemes says more
  (VISA, MASTERCARD, AMEX, MAESTRO). CALLBACK widgets post a JWS
  {orderId, externalOrderId} (kid svc-sandbox) to the order verification URL:
  answer {"approved": true}, {"approved": false, "reasonCode": ...}, or 2xx
  and decide later with PUT/DELETE /v2/merchants/<id>/orders/<order id>
  within orderVerification.decisionTimeoutMs (default 30000 ms).

v1 REST interface, under /api/v1 (${DEFAULT_SANDBOX_URL}/api/v1 by default):
  Purchases and their operations (capture, release, charge, refund, ...),
  clients and their saved cards, billing and subscriptions, payment_methods,
  payout_methods, public_key and webhooks. Send
  "Authorization: Bearer <secret key>", and the brand id as brand_id.
  Demo merchant: secret key ${DEMO_V1_SECRET_KEY}
                 brand id   ${DEMO_V1_BRAND_ID}
  (svc-checkout/sandbox exports them as DEMO_V1_SECRET_KEY, DEMO_V1_BRAND_ID).
  Hosted checkout page: a Purchase's checkout_url (/checkout/<id>/). It takes
  the test cards below, passes bank and wallet payments through a test step,
  then goes to success_redirect, failure_redirect or cancel_redirect. A paid
  Purchase sends its success_callback, signed in X-Signature with the company
  key of GET /api/v1/public_key/.
  Webhooks: POST /api/v1/webhooks/ {title, callback, events or all_events}.
  Each delivery is signed in X-Signature with that webhook's public_key and
  retried until a 2xx; GET /api/v1/webhooks/deliveries/?id=<purchase id>
  &source_type=purchase lists them.
  In a config file, per merchant:
    merchants[].v1.secretKey  the bearer key, unique per merchant
    merchants[].v1.brandId    a UUID: the brand_id of the merchant's Purchases
    merchants[].v1.rateLimit  {max, windowMs}: payment_methods calls allowed
                              per key and query (default ${rateLimit.max} per ${rateLimit.windowMs} ms;
                              more get 429 with Retry-After)
    merchants[].v1.creditors  [{name, iban}]: creditor IBANs whitelisted for
                              bulk bank payments, names too for a variable
                              creditor. Default, and the demo merchant's:
${TEST_CREDITORS.map((creditor) => `${' '.repeat(30)}${creditor.name}  ${creditor.iban}`).join('\n')}
    merchants[].v1.variableCreditor  true enables pis_purchase (default false)
    merchants[].v1.acquirer   {mode, slowMs}: how the test acquirer answers
                              captures, releases, charges, refunds and token
                              deletions: normal, slow (pending_* states, then
                              done slowMs later; default 10000) or fail. The
                              header X-Sandbox-Acquirer sets it per request.
  No mail is sent: GET /sandbox/v1/outbox/ (bearer secret key) lists the
  invoices and receipts the customers would have got.
  Each merchant has its own clock: GET /sandbox/v1/clock reads it; POST it a
  JSON body {"advance_seconds": N} with the merchant's v1 secret key (bearer)
  or its X-Svc-Api-Key to move that merchant's time only (a hold is released
  after 6 days, the slow acquirer answers,
  due purchases expire, retries come due, subscriptions are billed); it
  answers once the deliveries due on the way were made.
  notifications.retryBaseMs paces the retries of notifications, callbacks and
  webhooks (default 60000 ms; tests use a few ms).

Test cards (any future expiry, any CVC, any name):
${TEST_CARDS.map((card) => testCardLine(card.number, card.description)).join('\n')}

Example:
  svc-sandbox --port 4010 --config sandbox.json --data-dir .sandbox

Test helpers (sandbox only): svc-sandbox trigger --help
`;

const OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  config: { type: 'string', short: 'c' },
  'data-dir': { type: 'string', short: 'd' },
  https: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  'allow-origin': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

const SEE_HELP = 'Run svc-sandbox --help for the options.';

/**
 * Reads the arguments after the program name (`process.argv.slice(2)`).
 * @throws CliArgsError on an unknown flag, a flag without its value, a stray argument or a bad port.
 */
export function parseCliArgs(argv: readonly string[]): CliRequest {
  const command = WATCH_COMMANDS.find((name) => name === argv[0]);
  if (command !== undefined) return parseWatchArgs(command, argv.slice(1));
  let values: {
    port?: string;
    host?: string;
    config?: string;
    'data-dir'?: string;
    https?: boolean;
    quiet?: boolean;
    'allow-origin'?: string[];
    help?: boolean;
    version?: boolean;
  };
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw translateParseError(error);
  }
  if (values.help) return { kind: 'help', text: HELP_TEXT };
  if (values.version) return { kind: 'version' };
  return {
    kind: 'run',
    port: values.port === undefined ? DEFAULT_PORT : parsePort(values.port),
    host: values.host === undefined ? DEFAULT_HOST : nonEmpty(values.host, '--host'),
    ...(values.config !== undefined && { configFile: nonEmpty(values.config, '--config') }),
    ...(values['data-dir'] !== undefined && { dataDir: nonEmpty(values['data-dir'], '--data-dir') }),
    https: values.https === true,
    ...(values.quiet && { quiet: true }),
    ...(values['allow-origin'] !== undefined && { allowOrigins: values['allow-origin'].map(parseOrigin) }),
  };
}

function parseOrigin(text: string): string {
  const problem = originProblem(text);
  if (problem)
    throw new CliArgsError('bad_value', `--allow-origin ${JSON.stringify(text)} ${problem}. ${SEE_HELP}`);
  return text;
}

/** The flags each command that talks to a running sandbox takes beside `--url` and `--api-key`. */
const WATCH_FLAGS = {
  logs: [],
  listen: ['forward-to'],
  notifications: ['order-id'],
  resend: [],
} as const;

function parseWatchArgs(command: (typeof WATCH_COMMANDS)[number], argv: readonly string[]): CliRequest {
  let values: {
    url?: string;
    'api-key'?: string;
    'forward-to'?: string;
    'order-id'?: string;
    help?: boolean;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        'api-key': { type: 'string' },
        'forward-to': { type: 'string' },
        'order-id': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: command === 'resend',
    }));
  } catch (error) {
    throw translateParseError(error);
  }
  if (values.help) return { kind: 'help', text: HELP_TEXT };
  for (const flag of ['forward-to', 'order-id'] as const) {
    if (values[flag] !== undefined && !(WATCH_FLAGS[command] as readonly string[]).includes(flag))
      throw new CliArgsError('unknown_flag', `svc-sandbox ${command} takes no --${flag}. ${SEE_HELP}`);
  }
  const url = httpUrl(values.url ?? DEFAULT_SANDBOX_URL, '--url');
  const apiKey = values['api-key'] === undefined ? DEMO_API_KEY : nonEmpty(values['api-key'], '--api-key');
  if (command === 'logs') return { kind: 'logs', url, apiKey };
  if (command === 'notifications') {
    const orderId = values['order-id'];
    return {
      kind: 'notifications',
      url,
      apiKey,
      ...(orderId !== undefined && { orderId: nonEmpty(orderId, '--order-id') }),
    };
  }
  if (command === 'resend') {
    if (positionals.length !== 1)
      throw new CliArgsError(
        'unexpected_argument',
        `svc-sandbox resend takes one notification id (svc-sandbox notifications lists them). ${SEE_HELP}`,
      );
    return { kind: 'resend', url, apiKey, notificationId: nonEmpty(positionals[0]!, 'resend') };
  }
  if (values['forward-to'] === undefined)
    throw new CliArgsError(
      'bad_value',
      `svc-sandbox listen needs --forward-to URL, such as http://localhost:3000. ${SEE_HELP}`,
    );
  return { kind: 'listen', url, apiKey, forwardTo: httpUrl(values['forward-to'], '--forward-to') };
}

function httpUrl(text: string, flag: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    throw new CliArgsError(
      'bad_value',
      `${flag} ${JSON.stringify(text)} is not an http(s) URL such as http://localhost:3000. ${SEE_HELP}`,
    );
  return text;
}

function parsePort(text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new CliArgsError(
      'bad_value',
      `--port ${JSON.stringify(text)} is not a port; give a number from 0 to 65535. ${SEE_HELP}`,
    );
  }
  return port;
}

function nonEmpty(text: string, flag: string): string {
  if (text.trim() === '') throw new CliArgsError('bad_value', `${flag} needs a value. ${SEE_HELP}`);
  return text;
}

/** node:util's errors carry a code; their text names the flag, to which we add where to look. */
function translateParseError(error: unknown): CliArgsError {
  const code = (error as { code?: string }).code;
  const text = (error instanceof Error ? error.message : String(error))
    .replace(/\. To specify a positional argument.*$/s, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\.$/, '');
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new CliArgsError('unknown_flag', `${text}. ${SEE_HELP}`);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new CliArgsError('unexpected_argument', `${text}. ${SEE_HELP}`);
    default:
      return new CliArgsError('bad_value', `${text}. ${SEE_HELP}`);
  }
}
