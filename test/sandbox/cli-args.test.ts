import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  CliArgsError,
  DEFAULT_HOST,
  DEFAULT_PORT,
  HELP_TEXT,
  HELP_WIDTH,
  parseCliArgs,
} from '../../src/sandbox/cli-args.js';
import { DEMO_V1_BRAND_ID, DEMO_V1_SECRET_KEY, TEST_CARDS } from '../../src/sandbox/index.js';

const CLI = fileURLToPath(new URL('../../src/sandbox/cli.ts', import.meta.url));
const SCHEMA = new URL('../../sandbox-config.schema.json', import.meta.url);

function refusal(argv: string[]): CliArgsError {
  try {
    parseCliArgs(argv);
  } catch (error) {
    assert.ok(error instanceof CliArgsError, `expected a CliArgsError, got ${String(error)}`);
    return error;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
}

describe('parseCliArgs', () => {
  test('runs on 127.0.0.1:4010 with the demo merchant and no data dir by default', () => {
    assert.deepEqual(parseCliArgs([]), { kind: 'run', port: DEFAULT_PORT, host: DEFAULT_HOST, https: false });
    assert.equal(DEFAULT_PORT, 4010);
    assert.equal(DEFAULT_HOST, '127.0.0.1');
  });

  test('reads every flag, in long, short and --flag=value forms', () => {
    assert.deepEqual(
      parseCliArgs([
        '--port',
        '4011',
        '--host',
        '0.0.0.0',
        '--config',
        'sandbox.json',
        '--data-dir',
        '.sandbox',
        '--https',
      ]),
      {
        kind: 'run',
        port: 4011,
        host: '0.0.0.0',
        configFile: 'sandbox.json',
        dataDir: '.sandbox',
        https: true,
      },
    );
    assert.deepEqual(parseCliArgs(['-p', '0', '-c', 'a.json', '-d', 'data']), {
      kind: 'run',
      port: 0,
      host: DEFAULT_HOST,
      configFile: 'a.json',
      dataDir: 'data',
      https: false,
    });
    assert.equal((parseCliArgs(['--port=65535']) as { port: number }).port, 65535);
  });

  test('answers --help with the usage text, whatever else is given', () => {
    assert.deepEqual(parseCliArgs(['--port', '1', '--help']), { kind: 'help', text: HELP_TEXT });
    assert.deepEqual(parseCliArgs(['-h']), { kind: 'help', text: HELP_TEXT });
    for (const flag of ['--port', '--host', '--config', '--data-dir', '--https', '--help', '--version'])
      assert.ok(HELP_TEXT.includes(flag));
  });

  test('answers --version', () => {
    assert.deepEqual(parseCliArgs(['--version']), { kind: 'version' });
    assert.deepEqual(parseCliArgs(['-v']), { kind: 'version' });
  });

  test('refuses an unknown flag, naming it and pointing at --help', () => {
    const error = refusal(['--prot', '4010']);
    assert.equal(error.code, 'unknown_flag');
    assert.match(error.message, /'--prot'.*svc-sandbox --help/);
  });

  test('refuses a port that is not a number from 0 to 65535', () => {
    for (const port of ['abc', '65536', '4010.5', '', ' 80', '1e3']) {
      const error = refusal([`--port=${port}`]);
      assert.equal(error.code, 'bad_value');
      assert.match(error.message, /--port .* is not a port; give a number from 0 to 65535/);
    }
  });

  test('refuses a flag without its value, and stray arguments', () => {
    assert.equal(refusal(['--config']).code, 'bad_value');
    assert.match(refusal(['--data-dir', '--port', '1']).message, /--data-dir/);
    assert.equal(refusal(['--config=']).code, 'bad_value');
    const stray = refusal(['sandbox.json']);
    assert.equal(stray.code, 'unexpected_argument');
    assert.match(stray.message, /sandbox\.json/);
  });
});

describe('svc-sandbox --help', () => {
  const lines = HELP_TEXT.split('\n');

  test("describes the v1 REST interface and where the demo merchant's v1 secret key and brand id are", () => {
    assert.ok(
      lines.includes(
        `v1 REST interface, under /api/v1 (http://${DEFAULT_HOST}:${DEFAULT_PORT}/api/v1 by default):`,
      ),
    );
    assert.ok(HELP_TEXT.includes('"Authorization: Bearer <secret key>", and the brand id as brand_id.'));
    assert.ok(lines.includes(`  Demo merchant: secret key ${DEMO_V1_SECRET_KEY}`));
    assert.ok(lines.includes(`                 brand id   ${DEMO_V1_BRAND_ID}`));
    assert.ok(HELP_TEXT.includes('DEMO_V1_SECRET_KEY, DEMO_V1_BRAND_ID'));
  });

  test('describes the hosted checkout page and webhooks', () => {
    assert.ok(
      lines.includes("  Hosted checkout page: a Purchase's checkout_url (/checkout/<id>/). It takes"),
    );
    assert.ok(lines.includes('  then goes to success_redirect, failure_redirect or cancel_redirect. A paid'));
    assert.ok(lines.includes('  Webhooks: POST /api/v1/webhooks/ {title, callback, events or all_events}.'));
    assert.ok(lines.includes("  Each delivery is signed in X-Signature with that webhook's public_key and"));
    assert.ok(lines.includes('  retried until a 2xx; GET /api/v1/webhooks/deliveries/?id=<purchase id>'));
  });

  test('names the v1 config members with their defaults, as the schema has them', () => {
    for (const member of ['secretKey', 'brandId', 'rateLimit'])
      assert.ok(HELP_TEXT.includes(`    merchants[].v1.${member}  `), member);
    assert.ok(HELP_TEXT.includes('(default 1 per 60000 ms;'));
    const schema = JSON.parse(readFileSync(SCHEMA, 'utf8')) as {
      properties: { notifications: { properties: { retryBaseMs: { default: number } } } };
    };
    const retryBase = schema.properties.notifications.properties.retryBaseMs.default;
    assert.ok(HELP_TEXT.includes(`webhooks (default ${retryBase} ms; tests use a few ms).`));
  });

  test('keeps the legacy widget text and lists every test card', () => {
    assert.ok(lines.includes('Legacy widget:'));
    assert.ok(HELP_TEXT.includes('answers the merchant API v2 (/v2/merchants/...).'));
    for (const card of TEST_CARDS)
      assert.ok(HELP_TEXT.includes(card.number.replace(/(\d{4})(?=\d)/g, '$1 ')), card.number);
  });

  test('is readable in an 80-column terminal', () => {
    assert.equal(HELP_WIDTH, 79);
    const wide = lines.filter((line) => line.length > HELP_WIDTH);
    assert.deepEqual(wide, []);
  });

  test('is what the command prints, and the running sandbox prints its v1 API and demo keys', {
    timeout: 60_000,
  }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, '--help']);
    assert.equal(stdout, HELP_TEXT);

    // A data dir of the test's own, so that no temporary dir of the sandbox's is left behind.
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-sandbox-cli-'));
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      const brandLine = new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          if (output.includes('(demo-merchant)\n') && output.includes('v1 brand id')) resolve();
        });
        child.on('exit', () => reject(new Error(`svc-sandbox exited: ${output}`)));
      });
      await brandLine;
      const url = /listening on (\S+)/.exec(output)?.[1];
      assert.ok(url, output);
      assert.ok(output.includes(`  v1 REST interface: ${url}/api/v1\n`), output);
      assert.ok(
        output.includes(
          `  v1 brand id ${DEMO_V1_BRAND_ID}  secret key ${DEMO_V1_SECRET_KEY}  (demo-merchant)\n`,
        ),
        output,
      );
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
  test('--https prints its https URL and the certificate, which Node trusts through NODE_EXTRA_CA_CERTS', {
    timeout: 60_000,
  }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-sandbox-cli-'));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, '--port', '0', '--data-dir', dataDir, '--https'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          if (output.includes('v1 REST interface')) resolve();
        });
        child.on('exit', () => reject(new Error(`svc-sandbox exited: ${output}`)));
      });
      const url = /listening on (\S+)/.exec(output)?.[1];
      assert.match(url ?? '', /^https:\/\/127\.0\.0\.1:\d+$/, output);
      const file = /TLS certificate .*: (\S+)\n/.exec(output)?.[1];
      assert.equal(file, join(dataDir, 'tls', 'certificate.pem'), output);
      assert.ok(output.includes(`  v1 REST interface: ${url}/api/v1\n`), output);
      // A merchant's Node process that trusts the file, and nothing else changed.
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['-e', `fetch(${JSON.stringify(`${url}/sandbox/health`)}).then((r) => r.text()).then(console.log)`],
        { env: { ...process.env, NODE_EXTRA_CA_CERTS: file } },
      );
      assert.equal(stdout.trim(), '{"ok":true}');
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('keeps serving when whoever started it stops reading its output', { timeout: 60_000 }, async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-sandbox-cli-'));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, '--port', String(port), '--data-dir', dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // The reading end closes before the sandbox prints its first line: every line it prints meets EPIPE.
    child.stdout.destroy();
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    try {
      let answer: Response | undefined;
      for (let tries = 0; !answer && tries < 200 && child.exitCode === null; tries++) {
        answer = await fetch(`http://127.0.0.1:${port}/sandbox/service-certificate.pem`).catch(() => {
          return new Promise<undefined>((resolve) => setTimeout(resolve, 100));
        });
      }
      assert.equal(child.exitCode, null, `svc-sandbox exited: ${errors}`);
      assert.equal(answer?.status, 200, errors);
      assert.equal(errors, '');
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
