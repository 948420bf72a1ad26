/**
 * Hostile config input, read from real files: a device that never ends (`/dev/zero`), a FIFO fed forever, a
 * file a byte over the limit, a byte order mark, a config nested 10,000 deep and one that holds itself. Each
 * is refused with one line naming the problem, or accepted, and never hangs, grows memory or prints a stack.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  ConfigError,
  loadConfig,
  MAX_CONFIG_DEPTH,
  MAX_CONFIG_FILE_BYTES,
  MAX_PEM_FILE_BYTES,
  parseConfig,
  type SandboxConfigFile,
} from '../../src/sandbox/config.js';
import { startSandbox } from '../../src/sandbox/sandbox.js';
import { FileTooLargeError, readTextFile } from '../../src/sandbox/text-file.js';

const CLI = fileURLToPath(new URL('../../src/sandbox/cli.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'svc-config-input-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const PUBLIC_KEY_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString();
const BOM = '\uFEFF';
const DEEP = 10_000;

function config(certificates: NonNullable<SandboxConfigFile['merchants'][0]['certificates']> = []) {
  return {
    merchants: [
      {
        id: 'shop',
        name: 'Shop',
        apiKey: 'shop-key',
        callbacks: { notificationUrl: 'https://shop.example/n', termsUrl: 'https://shop.example/t' },
        certificates,
      },
    ],
  } satisfies SandboxConfigFile;
}

function file(name: string, content: string | Buffer): string {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
}

/** `{"merchants": [[[...]]]}`, `depth` arrays deep, as text: JSON.parse reads it without recursion. */
const nested = (depth: number) => `{"merchants":${'['.repeat(depth)}${']'.repeat(depth)}}`;

/** The ConfigError `run` throws; its message is one line when it names one problem. */
function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    assert.equal(error.message.split('\n').length, error.issues.length === 1 ? 1 : 1 + error.issues.length);
    return error;
  }
  assert.fail('the config was accepted');
}

describe('readTextFile', () => {
  test('reads up to the limit and refuses one byte more, naming the file and the limit', () => {
    const exact = file('exact.txt', 'x'.repeat(100));
    assert.equal(readTextFile(exact, 100).length, 100);
    const over = file('over.txt', 'x'.repeat(101));
    assert.throws(
      () => readTextFile(over, 100),
      (error: unknown) =>
        error instanceof FileTooLargeError &&
        error.code === 'file_too_large' &&
        error.message === `${over} is larger than 100 bytes, the most read from such a file`,
    );
  });

  test('stops reading a device that never ends after the limit', () => {
    assert.throws(() => readTextFile('/dev/zero', MAX_PEM_FILE_BYTES), /\/dev\/zero is larger than 64 KiB/);
  });

  test('drops a leading byte order mark, and only that', () => {
    assert.equal(readTextFile(file('bom.txt', `${BOM}a${BOM}`), 10), `a${BOM}`);
  });
});

describe('config files that never end or are too large', () => {
  test('--config /dev/zero is refused after 1 MiB, naming the file and the limit', () => {
    assert.equal(MAX_CONFIG_FILE_BYTES, 1024 * 1024);
    const error = configError(() => loadConfig('/dev/zero'));
    assert.equal(error.code, 'unreadable_config');
    assert.equal(
      error.message,
      'Cannot read the sandbox config (/dev/zero): is larger than 1 MiB, the most read from a config file; ' +
        'a sandbox config is a few KiB of JSON',
    );
  });

  test('a config of exactly 1 MiB is read; one byte more is refused', () => {
    const text = JSON.stringify(config());
    const exact = file('exact.json', text.padEnd(MAX_CONFIG_FILE_BYTES, ' '));
    assert.equal(loadConfig(exact).merchants[0]!.id, 'shop');
    const over = file('over.json', text.padEnd(MAX_CONFIG_FILE_BYTES + 1, ' '));
    assert.match(configError(() => loadConfig(over)).message, /is larger than 1 MiB/);
  });

  test('a pemFile of /dev/zero is refused after 64 KiB, naming the field, the file and the limit', () => {
    const path = file('pem-zero.json', JSON.stringify(config([{ name: 'main', pemFile: '/dev/zero' }])));
    const error = configError(() => loadConfig(path));
    assert.equal(error.code, 'invalid_config');
    assert.deepEqual(error.issues, [
      {
        path: 'merchants[0].certificates[0].pemFile',
        message:
          '/dev/zero is larger than 64 KiB, the most read from a PEM file; name the file that holds the public key or certificate',
      },
    ]);
  });
});

describe('a byte order mark', () => {
  test('at the start of the config and of a PEM file is accepted', () => {
    file('bom-key.pem', `${BOM}${PUBLIC_KEY_PEM}`);
    const path = file(
      'bom.json',
      `${BOM}${JSON.stringify(config([{ name: 'main', pemFile: 'bom-key.pem' }]))}`,
    );
    const loaded = loadConfig(path);
    assert.equal(loaded.merchants[0]!.certificates[0]!.pem, PUBLIC_KEY_PEM);
  });
});

describe('deep nesting', () => {
  test(`a config file nested ${DEEP.toLocaleString('en')} deep is refused, naming the depth and where`, () => {
    const error = configError(() => loadConfig(file('deep.json', nested(DEEP))));
    assert.equal(error.code, 'invalid_config');
    assert.equal(error.issues.length, 1);
    assert.equal(error.issues[0]!.path, `merchants${'[0]'.repeat(MAX_CONFIG_DEPTH)}`);
    assert.match(error.message, /nests deeper than 32 levels; a sandbox config nests at most 8$/);
  });

  test('in an object given to parseConfig, inside a member, the path names the member', () => {
    let deep: unknown = 1;
    for (let level = 0; level < DEEP; level++) deep = { a: deep };
    const json = { ...config(), extra: deep };
    const error = configError(() => parseConfig(json));
    assert.equal(error.issues[0]!.path, `extra${'.a'.repeat(MAX_CONFIG_DEPTH)}`);
  });

  test('32 levels reach the schema check, which names what is wrong there; 33 are refused first', () => {
    const atLimit = configError(() => parseConfig(JSON.parse(nested(MAX_CONFIG_DEPTH))));
    assert.equal(atLimit.issues[0]!.path, 'merchants[0]');
    assert.match(atLimit.issues[0]!.message, /must be an object/);
    const over = configError(() => parseConfig(JSON.parse(nested(MAX_CONFIG_DEPTH + 1))));
    assert.match(over.issues[0]!.message, /nests deeper than 32 levels/);
  });

  test('a config object that holds itself is refused, naming both places', () => {
    const json: Record<string, unknown> = config();
    (json['merchants'] as Array<Record<string, unknown>>)[0]!['self'] = json;
    const error = configError(() => parseConfig(json));
    assert.deepEqual(error.issues, [
      { path: 'merchants[0].self', message: 'refers back to the config itself; a config is plain JSON data' },
    ]);
  });
});

describe('a config of very many values', () => {
  test('names its first problem only, since listing every one takes time that grows with their square', () => {
    const wide = file('wide.json', JSON.stringify({ merchants: Array(400_000).fill(0) }));
    const error = configError(() => loadConfig(wide));
    assert.deepEqual(error.issues, [
      { path: 'merchants[0]', message: 'must be an object' },
      {
        path: '',
        message:
          'only the first problem is named: the config holds 400002 values, more than the 10000 checked for every problem at once',
      },
    ]);
  });
});

describe('startSandbox({ config }) in process', () => {
  test('rejects with the same ConfigError for a path, and takes a BOM config', async () => {
    const dataDir = join(tmp, 'sandbox-data');
    for (const path of [file('deep-start.json', nested(DEEP)), '/dev/zero']) {
      await assert.rejects(
        startSandbox({ port: 0, config: path, dataDir }),
        (error: unknown) => error instanceof ConfigError && error.message.includes(path),
      );
    }
    const sandbox = await startSandbox({
      port: 0,
      config: file('bom-start.json', `${BOM}${JSON.stringify(config())}`),
      dataDir,
    });
    await sandbox.close();
  });
});

describe('svc-sandbox with hostile config input', () => {
  /** Runs the real CLI to its end; it must end by itself (the test's timeout catches a hang). */
  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', CLI, '--port', '0', '--data-dir', join(tmp, 'cli-data'), ...args],
        { timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
    });
  }

  const assertOneLine = (stderr: string) => {
    assert.equal(stderr.trimEnd().split('\n').length, 1, stderr);
    assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
  };

  test('exits 1 with one line and no stack trace for deep nesting, and /dev/zero as config, pemFile or key', {
    timeout: 120_000,
  }, async () => {
    const deep = file('deep-cli.json', nested(DEEP));
    const pemZero = file(
      'pem-zero-cli.json',
      JSON.stringify(config([{ name: 'main', pemFile: '/dev/zero' }])),
    );
    const serviceZero = file(
      'service-zero-cli.json',
      JSON.stringify({ ...config(), service: { privateKeyFile: '/dev/zero' } }),
    );
    const [deepRun, zeroRun, pemRun, serviceRun] = await Promise.all([
      run(['--config', deep]),
      run(['--config', '/dev/zero']),
      run(['--config', pemZero]),
      run(['--config', serviceZero]),
    ]);
    for (const result of [deepRun, zeroRun, pemRun, serviceRun]) {
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, '');
      assertOneLine(result.stderr);
    }
    assert.equal(
      deepRun.stderr,
      `svc-sandbox: Invalid sandbox config (${deep}): merchants${'[0]'.repeat(32)}: nests deeper than 32 levels; a sandbox config nests at most 8\n`,
    );
    assert.match(
      zeroRun.stderr,
      /^svc-sandbox: Cannot read the sandbox config \(\/dev\/zero\): is larger than 1 MiB/,
    );
    assert.match(
      pemRun.stderr,
      /merchants\[0\]\.certificates\[0\]\.pemFile: \/dev\/zero is larger than 64 KiB/,
    );
    assert.equal(
      serviceRun.stderr,
      'svc-sandbox: /dev/zero is larger than 64 KiB, the most read from such a file\n',
    );
  });

  test('a FIFO fed zeros forever is refused after 1 MiB', { timeout: 60_000 }, async () => {
    const fifo = join(tmp, 'config.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'exec cat /dev/zero > "$0"', fifo], { stdio: 'ignore' });
    try {
      const result = await run(['--config', fifo]);
      assert.equal(result.code, 1, result.stderr);
      assertOneLine(result.stderr);
      assert.match(result.stderr, /is larger than 1 MiB/);
    } finally {
      writer.kill();
    }
  });
});
