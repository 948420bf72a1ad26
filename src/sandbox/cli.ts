#!/usr/bin/env node
/**
 * `svc-sandbox`: runs the local gateway until interrupted. Errors (bad flags, a wrong config, a port in use)
 * end it with one clear message and exit code 1 or 2, never a stack trace.
 */
import { readFileSync } from 'node:fs';
import { SvcError } from '../core/errors.js';
import { CliArgsError, parseCliArgs } from './cli-args.js';
import { runWatchRequest } from './cli-watch.js';
import { runInitCommand } from './init-command.js';
import { startSandbox } from './sandbox.js';
import { formatLogEntry } from './sandbox-log.js';
import { runTriggerCommand } from './test-helpers/trigger-cli.js';

const version = (): string =>
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;

/**
 * Subcommands by name, each given the arguments after its name; without one, the gateway runs. A subcommand
 * reads its own flags and throws CliArgsError for a wrong one, as the gateway's flags do.
 */
const SUBCOMMANDS: Readonly<Record<string, (argv: readonly string[]) => Promise<void>>> = {
  init: runInitCommand,
  trigger: async (argv) => {
    process.exitCode = await runTriggerCommand(argv, process.env);
  },
};

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const subcommand =
    argv[0] !== undefined && Object.hasOwn(SUBCOMMANDS, argv[0]) ? SUBCOMMANDS[argv[0]] : undefined;
  if (subcommand) return subcommand(argv.slice(1));
  const request = parseCliArgs(argv);
  if (request.kind === 'help') {
    process.stdout.write(request.text);
    return;
  }
  if (request.kind === 'version') {
    console.log(version());
    return;
  }
  if (request.kind !== 'run') {
    const stopped = new AbortController();
    const stop = () => stopped.abort();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    const print = batchedLines();
    await runWatchRequest(request, { line: print, status: (text) => console.error(text) }, stopped.signal);
    return;
  }
  const sandbox = await startSandbox({
    port: request.port,
    host: request.host,
    ...(request.configFile !== undefined && { config: request.configFile }),
    ...(request.dataDir !== undefined && { dataDir: request.dataDir }),
    https: request.https,
    ...(request.allowOrigins !== undefined && { allowOrigins: request.allowOrigins }),
  });
  // Before anything is printed: whoever reads the output may stop the sandbox as soon as it sees a line.
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await sandbox.close();
    } catch (error) {
      // A full disk at the last flush: what was acknowledged is in the journal already; say what failed.
      console.error(`svc-sandbox: ${(error as Error).message}`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Whoever started the sandbox may stop reading its output once it has the URL (`| head -1`, a test that
  // read the first line): the gateway keeps serving rather than dying of EPIPE on the next line.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') console.error(`svc-sandbox: cannot print: ${error.message}`);
  });
  console.log(`svc-sandbox ${version()} listening on ${sandbox.url}`);
  console.log(`  gateway certificate: ${sandbox.url}/sandbox/service-certificate.pem`);
  if (sandbox.tlsCertificateFile) {
    console.log(
      `  TLS certificate (self-signed; trust it, e.g. NODE_EXTRA_CA_CERTS): ${sandbox.tlsCertificateFile}`,
    );
  }
  console.log(`  ${request.dataDir ? 'data dir' : 'keys (state in memory)'}: ${sandbox.keyDir}`);
  if (sandbox.demoMerchant) {
    console.log(`  demo merchant private key: ${sandbox.demoMerchant.privateKeyFile}`);
  }
  for (const merchant of sandbox.config.merchants) {
    for (const widget of merchant.widgets) {
      console.log(
        `  widget ${widget.id}  ${widget.type} ${widget.validation}${widget.collectCustomerData ? ' full checkout' : ''}  (${merchant.id})`,
      );
    }
  }
  for (const merchant of sandbox.config.merchants) {
    const loopback = merchant.allowLoopbackOrigins ? ['any localhost or 127.0.0.1 port'] : [];
    const origins = [...merchant.allowedOrigins, ...loopback];
    console.log(`  pages allowed: ${origins.join(', ') || 'none'}  (${merchant.id})`);
  }
  console.log(`  v1 REST interface: ${sandbox.url}/api/v1`);
  for (const merchant of sandbox.config.merchants) {
    if (merchant.v1 === undefined) continue;
    // The demo merchant's key is a published constant; a config's keys are the merchant's own to know.
    const key = sandbox.demoMerchant ? `  secret key ${merchant.v1.secretKey}` : '';
    console.log(`  v1 brand id ${merchant.v1.brandId}${key}  (${merchant.id})`);
  }
  // What the data dir lost to a crash: on stderr, where an operator's eye and a log collector look.
  for (const warning of sandbox.warnings) console.error(`svc-sandbox: warning: ${warning.message}`);
  if (!request.quiet) {
    const print = batchedLines();
    sandbox.log.subscribe((entry) => print(formatLogEntry(entry)));
  }
}

/**
 * Prints lines to stdout, those of one turn of the event loop in one write: a burst of requests costs one
 * write, not one per line (writes to a pipe are synchronous on Linux).
 */
function batchedLines(): (line: string) => void {
  let pending: string[] = [];
  return (line) => {
    if (pending.length === 0)
      setImmediate(() => {
        const text = `${pending.join('\n')}\n`;
        pending = [];
        process.stdout.write(text);
      });
    pending.push(line);
  };
}

main().catch((error: unknown) => {
  if (error instanceof CliArgsError) {
    console.error(`svc-sandbox: ${error.message}`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    const { port, address } = error as { port?: number; address?: string };
    console.error(
      `svc-sandbox: port ${port} of ${address} is in use (a sandbox still running?); stop what runs there, or ` +
        'choose another with --port (0 picks a free one)',
    );
    process.exit(1);
  }
  if (error instanceof SvcError) {
    console.error(`svc-sandbox: ${(error as Error).message}`);
    process.exit(1);
  }
  // A full disk while the keys are written at the first start is the operator's to fix: no stack trace.
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    console.error(
      `svc-sandbox: cannot write the sandbox's keys (${(error as Error).message}); free space on the disk ` +
        'of the data dir (of the temporary folder, without --data-dir) and start again',
    );
    process.exit(1);
  }
  console.error('svc-sandbox: failed to start', error);
  process.exit(1);
});
