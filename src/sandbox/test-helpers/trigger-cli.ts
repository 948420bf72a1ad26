/**
 * `svc-sandbox trigger <what> …`: the test helpers against a running sandbox, over HTTP, for a terminal or a
 * CI script. Prints the helper's JSON answer; exit code 0 when the helper did it, 1 when the sandbox refused
 * (its message on stderr), 2 for a command line that cannot be run.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SANDBOX_URL } from '../cli-args.js';
import { causeOf } from '../cli-watch.js';
import { DEMO_API_KEY, DEMO_V1_SECRET_KEY } from '../config.js';
import { TEST_CARD_NAMES } from './test-card-choice.js';
import { TRIGGER_EVENTS, type TriggerEvent } from './trigger.js';

/** The test cards' names, wrapped in the help's second column. */
function cardNames(): string {
  const lines: string[] = [];
  for (const name of Object.keys(TEST_CARD_NAMES)) {
    const last = lines.at(-1);
    if (last !== undefined && 25 + last.length + 2 + name.length + 1 <= 79)
      lines[lines.length - 1] = `${last} ${name},`;
    else lines.push(`${name},`);
  }
  return lines
    .map((line) => `${' '.repeat(25)}${line}`)
    .join('\n')
    .replace(/,$/, '');
}

export const TRIGGER_HELP_TEXT = `Usage: svc-sandbox trigger <what> [options]

Sandbox only: pays and fires events on a running svc-sandbox, over HTTP, as
the merchant (the same as sandbox.testHelpers in process).

What:
  pay-order           Pay a signed legacy order as the payment frame would
                      (--attr for each attribute of <svc-checkout>)
  pay-purchase        Pay a v1 Purchase as its checkout page would (--purchase)
${TRIGGER_EVENTS.map((event) => `  ${event}`).join('\n')}
                      Fire the v1 event by doing what causes it: pay, decline,
                      cancel or refund --purchase, or bill --subscriber of
                      --template now with its charge failing

Options:
  --url URL              The sandbox (default ${DEFAULT_SANDBOX_URL};
                         env SVC_SANDBOX_URL)
  --api-key KEY          pay-order: the merchant's API key (env
                         SVC_SANDBOX_API_KEY; default the demo merchant's)
  --secret-key KEY       v1: the merchant's secret key (env
                         SVC_SANDBOX_SECRET_KEY; default the demo merchant's)
  --attr NAME=VALUE      pay-order: an attribute as the page carries it, such
                         as --attr widget-id=… --attr amount=12.50
                         --attr signature=… (repeat it for each)
  --origin ORIGIN        pay-order: a page origin to check, as a page's is
  --purchase ID          The Purchase
  --card NAME|NUMBER     A test card's number or name (default visa):
${cardNames()}
  --3ds approve|deny     The answer to the threeDSecure card's challenge
  --method NAME          pay-purchase: card (default) or a bank or wallet
                         method of the checkout page, such as swedbank_lv_pis
  --confirmation approve|deny
                         pay-purchase: the answer on the bank or wallet step
  --amount MINOR_UNITS   payment.refunded: how much (default all refundable)
  --template ID          purchase.subscription_charge_failure: the template
  --subscriber ID        ... and its subscriber (or the subscriber's Client)
  -h, --help             Show this text

Examples:
  svc-sandbox trigger pay-purchase --purchase <id> --card declined
  svc-sandbox trigger payment.refunded --purchase <id> --amount 500
`;

/** What the trigger command line asks for: one request to the sandbox. */
export type TriggerCliRequest =
  | { kind: 'help' }
  | {
      kind: 'call';
      url: string;
      path: string;
      headers: Record<string, string>;
      body: Record<string, unknown>;
    };

export class TriggerArgsError extends Error {}

const OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  'secret-key': { type: 'string' },
  attr: { type: 'string', multiple: true },
  origin: { type: 'string' },
  purchase: { type: 'string' },
  card: { type: 'string' },
  '3ds': { type: 'string' },
  method: { type: 'string' },
  confirmation: { type: 'string' },
  amount: { type: 'string' },
  template: { type: 'string' },
  subscriber: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SEE_HELP = 'Run svc-sandbox trigger --help for the options.';

/**
 * Reads the arguments after `trigger`. Flags that do not go with `what` are refused, as is anything the
 * sandbox would refuse for sure; the rest is the sandbox's to check.
 * @throws TriggerArgsError naming the flag.
 */
export function parseTriggerArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): TriggerCliRequest {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new TriggerArgsError(
      `${(error as Error).message.replace(/\. To specify a positional.*$/s, '')}. ${SEE_HELP}`,
    );
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const [what, ...rest] = positionals;
  if (what === undefined)
    throw new TriggerArgsError(
      `Name what to trigger: pay-order, pay-purchase or ${TRIGGER_EVENTS.join(', ')}. ${SEE_HELP}`,
    );
  if (rest.length > 0)
    throw new TriggerArgsError(`Unexpected argument ${JSON.stringify(rest[0])}. ${SEE_HELP}`);
  const url = (values.url ?? env['SVC_SANDBOX_URL'] ?? DEFAULT_SANDBOX_URL).replace(/\/+$/, '');
  if (!URL.canParse(url))
    throw new TriggerArgsError(`--url ${JSON.stringify(url)} is not a URL. ${SEE_HELP}`);

  const allowed = (flags: readonly (keyof typeof OPTIONS)[]) => {
    const given = (Object.keys(values) as (keyof typeof OPTIONS)[]).filter(
      (flag) => !['url', 'help', 'api-key', 'secret-key', ...flags].includes(flag),
    );
    if (given.length > 0) throw new TriggerArgsError(`--${given[0]} does not go with ${what}. ${SEE_HELP}`);
  };
  const step = (flag: '3ds' | 'confirmation') => {
    const value = values[flag];
    if (value !== undefined && value !== 'approve' && value !== 'deny')
      throw new TriggerArgsError(`--${flag} must be approve or deny. ${SEE_HELP}`);
    return value;
  };
  const optional = (entries: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
  const v1Headers = {
    authorization: `Bearer ${values['secret-key'] ?? env['SVC_SANDBOX_SECRET_KEY'] ?? DEMO_V1_SECRET_KEY}`,
  };

  if (what === 'pay-order') {
    allowed(['attr', 'origin', 'card', '3ds']);
    const attributes: Record<string, string> = {};
    for (const pair of values.attr ?? []) {
      const at = pair.indexOf('=');
      if (at <= 0)
        throw new TriggerArgsError(`--attr ${JSON.stringify(pair)} must be NAME=VALUE. ${SEE_HELP}`);
      attributes[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return {
      kind: 'call',
      url,
      path: '/sandbox/test-helpers/legacy/pay-order',
      headers: { 'x-svc-api-key': values['api-key'] ?? env['SVC_SANDBOX_API_KEY'] ?? DEMO_API_KEY },
      body: optional({ attributes, card: values.card, threeDSecure: step('3ds'), pageOrigin: values.origin }),
    };
  }
  if (what === 'pay-purchase') {
    allowed(['purchase', 'card', '3ds', 'method', 'confirmation']);
    return {
      kind: 'call',
      url,
      path: '/sandbox/test-helpers/v1/pay-purchase',
      headers: v1Headers,
      body: optional({
        purchaseId: values.purchase,
        method: values.method,
        card: values.card,
        threeDSecure: step('3ds'),
        confirmation: step('confirmation'),
      }),
    };
  }
  if (!(TRIGGER_EVENTS as readonly string[]).includes(what))
    throw new TriggerArgsError(
      `Cannot trigger ${JSON.stringify(what)}; name pay-order, pay-purchase or ${TRIGGER_EVENTS.join(', ')}. ${SEE_HELP}`,
    );
  const event = what as TriggerEvent;
  let body: Record<string, unknown>;
  if (event === 'purchase.subscription_charge_failure') {
    allowed(['template', 'subscriber']);
    body = { billingTemplateId: values.template, subscriberId: values.subscriber };
  } else if (event === 'payment.refunded') {
    allowed(['purchase', 'amount']);
    const amount = values.amount === undefined ? undefined : Number(values.amount);
    if (amount !== undefined && !(Number.isSafeInteger(amount) && amount > 0))
      throw new TriggerArgsError(
        `--amount must be a whole number of minor units above 0, such as 500. ${SEE_HELP}`,
      );
    body = { purchaseId: values.purchase, amount };
  } else if (event === 'purchase.cancelled') {
    allowed(['purchase']);
    body = { purchaseId: values.purchase };
  } else {
    allowed(['purchase', 'card']);
    body = { purchaseId: values.purchase, card: values.card };
  }
  return {
    kind: 'call',
    url,
    path: '/sandbox/test-helpers/v1/trigger',
    headers: v1Headers,
    body: optional({ event, ...body }),
  };
}

/** Runs `svc-sandbox trigger …`; resolves with the exit code. */
export async function runTriggerCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  let request: TriggerCliRequest;
  try {
    request = parseTriggerArgs(argv, env);
  } catch (error) {
    if (!(error instanceof TriggerArgsError)) throw error;
    console.error(`svc-sandbox trigger: ${error.message}`);
    return 2;
  }
  if (request.kind === 'help') {
    process.stdout.write(TRIGGER_HELP_TEXT);
    return 0;
  }
  let response: Response;
  try {
    response = await fetch(`${request.url}${request.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    console.error(
      `svc-sandbox trigger: no sandbox answered at ${request.url} (${causeOf(error)}); start one, or give --url`,
    );
    return 1;
  }
  const text = await response.text();
  if (response.ok) {
    process.stdout.write(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    return 0;
  }
  let error: { code?: string; message?: string; field?: string; gatewayCode?: string } = {};
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
  } catch {}
  const where = error.field ? ` (${error.field})` : '';
  const gateway = error.gatewayCode ? ` [${error.gatewayCode}]` : '';
  console.error(
    `svc-sandbox trigger: ${response.status} ${error.code ?? ''}${gateway}: ${error.message ?? text}${where}`,
  );
  return 1;
}
