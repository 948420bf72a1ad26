/**
 * The `svc-sandbox` command line, read into a typed request. Reading is kept apart from running so that every
 * refusal (unknown flag, bad port) can be tested without starting a server.
 */
import { parseArgs } from 'node:util';
import { SvcError } from '../core/errors.js';

/** The port the sandbox listens on when none is given. */
export const DEFAULT_PORT = 4010;
/** The host the sandbox binds when none is given: loopback, as a test gateway should. */
export const DEFAULT_HOST = '127.0.0.1';

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
    }
  | { kind: 'help'; text: string }
  | { kind: 'version' };

/** A command line that cannot be run; the message ends by pointing at `--help`. */
export class CliArgsError extends SvcError<'unknown_flag' | 'bad_value' | 'unexpected_argument'> {}

/** The `--help` text. */
export const HELP_TEXT = `Usage: svc-sandbox [options]

A local svc gateway for development and tests: it serves the <svc-checkout> widget and its payment frame,
takes test card payments, sends signed notifications with retries, and answers the merchant API v2.

Options:
  -p, --port PORT       Port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
      --host HOST       Address to bind (default ${DEFAULT_HOST}; 0.0.0.0 listens on every interface)
  -c, --config FILE     Merchants, widgets and certificates (JSON; see sandbox-config.schema.json).
                        Without it, a demo merchant is created and its private key written to the data dir.
  -d, --data-dir DIR    Keeps state and keys across restarts (default: a temporary dir, gone at exit)
  -h, --help            Show this text
  -v, --version         Show the version

Example:
  svc-sandbox --port 4010 --config sandbox.json --data-dir .sandbox
`;

const OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  config: { type: 'string', short: 'c' },
  'data-dir': { type: 'string', short: 'd' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

const SEE_HELP = 'Run svc-sandbox --help for the options.';

/**
 * Reads the arguments after the program name (`process.argv.slice(2)`).
 * @throws CliArgsError on an unknown flag, a flag without its value, a stray argument or a bad port.
 */
export function parseCliArgs(argv: readonly string[]): CliRequest {
  let values: {
    port?: string;
    host?: string;
    config?: string;
    'data-dir'?: string;
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
  };
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
