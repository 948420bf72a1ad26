/**
 * `svc-sandbox init`: writes a sandbox config with a fresh merchant key pair, and says what goes in the page and
 * the server. The files are the merchant's: none is overwritten without `--force`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateMerchantKeyPair } from '../server/index.js';
import { CliArgsError, DEFAULT_HOST, DEFAULT_PORT } from './cli-args.js';
import { originProblem, type SandboxConfigFile } from './config.js';
import { writeTextFileAtomic } from './text-file.js';

export const INIT_HELP_TEXT = `Usage: svc-sandbox init [--dir DIR] [--shop-origin ORIGIN] [--force]

Writes a sandbox config for one merchant with a fresh key pair, and prints
what to put in your page and server:
  DIR/sandbox.json               the config (merchant, widget, certificate)
  DIR/merchant-private-key.pem   signs your orders (mode 0600; keep it secret)
  DIR/merchant-public-key.pem    the certificate "main" the config lists

Options:
      --dir DIR             Where to write them (default: this folder)
      --shop-origin ORIGIN  Your shop's origin: its notification and terms
                            URLs, and an allowed page origin (default
                            http://localhost:3000). Pages on any local port
                            are allowed too.
      --force               Overwrite files that are there
  -h, --help                Show this text
`;

/** The files `init` writes, by their role. */
export const INIT_FILES = {
  config: 'sandbox.json',
  privateKey: 'merchant-private-key.pem',
  publicKey: 'merchant-public-key.pem',
} as const;

export const INIT_CERTIFICATE_NAME = 'main';

export type InitRequest =
  | { kind: 'help'; text: string }
  | { kind: 'init'; dir: string; shopOrigin: string; force: boolean };

const SEE_HELP = 'Run svc-sandbox init --help for the options.';

/** Reads the arguments after `init`. @throws CliArgsError on an unknown flag, a stray argument or a bad origin. */
export function parseInitArgs(argv: readonly string[]): InitRequest {
  let values: { dir?: string; 'shop-origin'?: string; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        dir: { type: 'string' },
        'shop-origin': { type: 'string' },
        force: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliArgsError('unknown_flag', `init: ${(error as Error).message.split('\n')[0]} ${SEE_HELP}`);
  }
  if (values.help) return { kind: 'help', text: INIT_HELP_TEXT };
  const shopOrigin = values['shop-origin'] ?? 'http://localhost:3000';
  const problem = originProblem(shopOrigin);
  if (problem) {
    throw new CliArgsError(
      'bad_value',
      `init: --shop-origin ${JSON.stringify(shopOrigin)} ${problem}. ${SEE_HELP}`,
    );
  }
  if (values.dir !== undefined && values.dir.trim() === '') {
    throw new CliArgsError('bad_value', `init: --dir needs a value. ${SEE_HELP}`);
  }
  return { kind: 'init', dir: values.dir ?? '.', shopOrigin, force: values.force === true };
}

/** The config `init` writes: one merchant, one signed CHECKOUT widget, its key as certificate `main`. */
export function initConfigFile(shopOrigin: string): SandboxConfigFile {
  return {
    $schema: './node_modules/svc-checkout/sandbox-config.schema.json',
    merchants: [
      {
        id: 'my-shop',
        name: 'My Shop',
        apiKey: randomBytes(18).toString('base64url'),
        allowedOrigins: [shopOrigin],
        allowLoopbackOrigins: true,
        // The schema's defaults, written out: the merchant's notification receiver must be given the same.
        defaults: { currency: 'EUR', taxRate: '0.21', language: 'en' },
        callbacks: { notificationUrl: `${shopOrigin}/api/notification`, termsUrl: `${shopOrigin}/terms` },
        certificates: [{ name: INIT_CERTIFICATE_NAME, pemFile: INIT_FILES.publicKey }],
        widgets: [{ id: randomUUID(), type: 'CHECKOUT', validation: 'SIGNATURE' }],
        v1: { secretKey: randomBytes(24).toString('base64url'), brandId: randomUUID() },
      },
    ],
  };
}

/** What `init` wrote, for the caller to print or use. */
export interface InitResult {
  configFile: string;
  privateKeyFile: string;
  publicKeyFile: string;
  config: SandboxConfigFile;
}

/**
 * Writes the three files into `dir` (made if missing).
 * @throws CliArgsError `bad_value` naming the files that are there, when `force` is not set; nothing is written then.
 */
export async function writeInitFiles(request: Extract<InitRequest, { kind: 'init' }>): Promise<InitResult> {
  const dir = resolve(request.dir);
  const configFile = join(dir, INIT_FILES.config);
  const privateKeyFile = join(dir, INIT_FILES.privateKey);
  const publicKeyFile = join(dir, INIT_FILES.publicKey);
  const config = initConfigFile(request.shopOrigin);
  const keys = await generateMerchantKeyPair();
  await mkdir(dir, { recursive: true });
  // Every file is looked for before any is written, so a refusal writes nothing; `wx` also refuses a file made
  // in between.
  const files: [string, string, number][] = [
    [privateKeyFile, keys.privateKeyPem, 0o600],
    [publicKeyFile, keys.publicKeyPem, 0o644],
    [configFile, `${JSON.stringify(config, null, 2)}\n`, 0o644],
  ];
  if (!request.force) {
    const present = (
      await Promise.all(
        files.map(([file]) =>
          access(file).then(
            () => [file],
            () => [],
          ),
        ),
      )
    ).flat();
    if (present.length > 0) {
      throw new CliArgsError(
        'bad_value',
        `init: ${present.map((file) => relative(process.cwd(), file) || file).join(', ')} ${present.length === 1 ? 'is' : 'are'} there already; give --force to overwrite, or another --dir`,
      );
    }
  }
  for (const [file, text, mode] of files) {
    // Overwriting replaces the file, never writes through it: a symbolic link in its place (to a file
    // elsewhere) is replaced by the key, not made to hold it, and the new file has the mode asked for.
    if (request.force) writeTextFileAtomic(file, text, mode);
    else await writeFile(file, text, { flag: 'wx', mode });
  }
  return { configFile, privateKeyFile, publicKeyFile, config };
}

/** What to put in the page and the server, once the files are written. */
export function initReport(result: InitResult): string {
  const merchant = result.config.merchants[0]!;
  const widgetId = merchant.widgets![0]!.id;
  const defaults = merchant.defaults!;
  const gateway = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
  const shown = (file: string) => relative(process.cwd(), file) || file;
  return `Wrote ${shown(result.configFile)}, ${shown(result.privateKeyFile)} (secret, mode 0600) and ${shown(result.publicKeyFile)}.

Start the sandbox:
  npx -p svc-checkout svc-sandbox --config ${shown(result.configFile)}

In the page (on any localhost or 127.0.0.1 port, or ${merchant.allowedOrigins![0]}):
  <script type="module" src="${gateway}/widget/svc-checkout.js"></script>
  <svc-checkout widget-id="${widgetId}" order-id="…" amount="…" currency="EUR"
                label="…" signature="…" certificate-name="${INIT_CERTIFICATE_NAME}"></svc-checkout>

On the server (svc-checkout/server):
  widget id         ${widgetId}
  certificate name  ${INIT_CERTIFICATE_NAME}
  private key file  ${result.privateKeyFile}  (signOrder's key)
  widget defaults   { currency: '${defaults.currency}', taxRate: ${defaults.taxRate} }  (createNotificationReceiver's defaults)
  gateway URL       ${gateway}
  gateway certificate (checks notifications): ${gateway}/sandbox/service-certificate.pem
  notifications arrive at ${merchant.callbacks.notificationUrl}
  merchant API v2 key ${merchant.apiKey}
  v1: secret key ${merchant.v1!.secretKey}, brand id ${merchant.v1!.brandId}
`;
}

/** `svc-sandbox init …`: the subcommand's entry, given the arguments after `init`. */
export async function runInitCommand(argv: readonly string[]): Promise<void> {
  const request = parseInitArgs(argv);
  if (request.kind === 'help') {
    process.stdout.write(request.text);
    return;
  }
  process.stdout.write(initReport(await writeInitFiles(request)));
}
