/**
 * Reading a config: from a file or a value, through the shape check, the schema and the semantic checks, to
 * the checked config the sandbox runs with, or a {@link ConfigError} naming every problem.
 */
import { dirname, resolve } from 'node:path';
import { byteSize, FileTooLargeError, MAX_CONFIG_FILE_BYTES, readTextFile } from '../text-file.js';
import { ConfigError, errorText } from './config-error.js';
import { originProblem, schemaIssue, schemaValidator } from './schema.js';
import { type FilledConfigFile, SemanticChecker } from './semantic-checks.js';
import { configShape, MAX_VALUES_LISTED } from './shape.js';
import type { SandboxConfig } from './types.js';

/** Options of {@link parseConfig}. */
export interface ParseConfigOptions {
  /** Where relative paths (`pemFile`, `service.privateKeyFile`) start; the config file's folder. Default: cwd. */
  baseDir?: string;
  /** Names the config in error messages, such as its file path; default `config object`. */
  source?: string;
}

/**
 * Reads and checks a config file: UTF-8 JSON of at most {@link MAX_CONFIG_FILE_BYTES} (1 MiB), a leading byte
 * order mark allowed.
 * @throws ConfigError `unreadable_config` when the file cannot be read or is larger than 1 MiB,
 *   `invalid_config` when it is not JSON or not a valid config.
 */
export function loadConfig(path: string): SandboxConfig {
  const file = resolve(path);
  let text: string;
  try {
    text = readTextFile(file, MAX_CONFIG_FILE_BYTES);
  } catch (error) {
    const message =
      error instanceof FileTooLargeError
        ? `is larger than ${byteSize(MAX_CONFIG_FILE_BYTES)}, the most read from a config file; a sandbox config is a few KiB of JSON`
        : `cannot read the file: ${errorText(error)}`;
    throw new ConfigError('unreadable_config', file, [{ path: '', message }]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError('invalid_config', file, [
      { path: '', message: `is not JSON: ${jsonErrorText(error, text)}` },
    ]);
  }
  return parseConfig(json, { baseDir: dirname(file), source: file });
}

/**
 * Checks a parsed config and returns it normalized: defaults filled in, PEM files read, keys imported,
 * INSTANT orders checked. The input is not modified.
 * @throws ConfigError `invalid_config` listing every problem found; alone when the value nests deeper than
 *   {@link MAX_CONFIG_DEPTH} levels or refers back to itself, which no config does.
 */
export function parseConfig(json: unknown, options: ParseConfigOptions = {}): SandboxConfig {
  const baseDir = resolve(options.baseDir ?? process.cwd());
  const source = options.source ?? 'config object';
  const shape = configShape(json);
  if (shape.issue) throw new ConfigError('invalid_config', source, [shape.issue]);
  const data = structuredClone(json);
  const firstProblem = schemaValidator(false);
  if (!firstProblem(data)) {
    if (shape.values > MAX_VALUES_LISTED) {
      throw new ConfigError('invalid_config', source, [
        ...(firstProblem.errors ?? []).map(schemaIssue),
        {
          path: '',
          message: `only the first problem is named: the config holds ${shape.values} values, more than the ${MAX_VALUES_LISTED} checked for every problem at once`,
        },
      ]);
    }
    const everyProblem = schemaValidator(true);
    everyProblem(structuredClone(json));
    throw new ConfigError('invalid_config', source, (everyProblem.errors ?? []).map(schemaIssue));
  }
  // The schema holds, and ajv filled in its defaults, so the shape below is what it promises.
  const file = data as FilledConfigFile;
  const checker = new SemanticChecker(baseDir);
  const config = checker.config(file);
  if (checker.issues.length > 0) throw new ConfigError('invalid_config', source, checker.issues);
  checkedConfigs.add(config);
  return config;
}

/**
 * The configs {@link parseConfig} made: `startSandbox` runs these as they are and reads anything else as the
 * file's shape. A mark, not a look at the members: a file may spell out every default a checked config has.
 */
const checkedConfigs = new WeakSet<SandboxConfig>();

/** Whether `value` came from {@link parseConfig} (or {@link loadConfig}, {@link demoConfig}). */
export function isCheckedConfig(value: unknown): value is SandboxConfig {
  return typeof value === 'object' && value !== null && checkedConfigs.has(value as SandboxConfig);
}

/** @throws ConfigError `invalid_config` naming each entry of `origins` (`allowOrigins`) that is not an origin. */
export function checkAllowedOrigins(origins: readonly string[]): void {
  const issues = origins.flatMap((origin, index) => {
    const message = originProblem(origin);
    return message ? [{ path: `[${index}]`, message: `${JSON.stringify(origin)} ${message}` }] : [];
  });
  if (issues.length > 0) throw new ConfigError('invalid_config', 'allowOrigins', issues);
}

/**
 * `config` with `origins` added to every merchant's allowed origins (the CLI's `--allow-origin`).
 * @throws ConfigError `invalid_config` naming each entry that is not an origin.
 */
export function withAllowedOrigins(config: SandboxConfig, origins: readonly string[]): SandboxConfig {
  checkAllowedOrigins(origins);
  const widened: SandboxConfig = {
    ...config,
    merchants: config.merchants.map((merchant) => ({
      ...merchant,
      allowedOrigins: [...new Set([...merchant.allowedOrigins, ...origins])],
    })),
  };
  checkedConfigs.add(widened);
  return widened;
}

/** JSON.parse's message, with a line and column when it names a position. */
function jsonErrorText(error: unknown, text: string): string {
  const message = errorText(error);
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return message;
  const before = text.slice(0, Number(position)).split('\n');
  return `${message} (line ${before.length}, column ${before.at(-1)!.length + 1})`;
}
