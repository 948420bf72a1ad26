import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CliArgsError,
  DEFAULT_HOST,
  DEFAULT_PORT,
  HELP_TEXT,
  parseCliArgs,
} from '../../src/sandbox/cli-args.js';

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
    assert.deepEqual(parseCliArgs([]), { kind: 'run', port: DEFAULT_PORT, host: DEFAULT_HOST });
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
      ]),
      {
        kind: 'run',
        port: 4011,
        host: '0.0.0.0',
        configFile: 'sandbox.json',
        dataDir: '.sandbox',
      },
    );
    assert.deepEqual(parseCliArgs(['-p', '0', '-c', 'a.json', '-d', 'data']), {
      kind: 'run',
      port: 0,
      host: DEFAULT_HOST,
      configFile: 'a.json',
      dataDir: 'data',
    });
    assert.equal((parseCliArgs(['--port=65535']) as { port: number }).port, 65535);
  });

  test('answers --help with the usage text, whatever else is given', () => {
    assert.deepEqual(parseCliArgs(['--port', '1', '--help']), { kind: 'help', text: HELP_TEXT });
    assert.deepEqual(parseCliArgs(['-h']), { kind: 'help', text: HELP_TEXT });
    for (const flag of ['--port', '--host', '--config', '--data-dir', '--help', '--version'])
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
