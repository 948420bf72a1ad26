/**
 * The per-merchant creditor agreement in the sandbox config: `merchants[].v1.creditors` (the whitelist of
 * bulk and variable-creditor bank payments) and `merchants[].v1.variableCreditor`, checked at start, and what
 * a merchant that whitelists nothing gets over HTTP.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HELP_TEXT } from '../../../src/sandbox/cli-args.js';
import {
  ConfigError,
  demoConfig,
  loadConfig,
  parseConfig,
  type SandboxConfigFile,
  TEST_CREDITORS,
} from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { FakeMerchant, merchantKeys, tempDir } from '../support.js';
import { purchaseBody, V1, v1, v1ConfigFile } from './support.js';

const CLI = fileURLToPath(new URL('../../../src/sandbox/cli.ts', import.meta.url));
const SCHEMA = new URL('../../../sandbox-config.schema.json', import.meta.url);

/** A config of one v1 merchant with `v1` members on top of its credentials. */
function configWith(v1Members: Record<string, unknown>): SandboxConfigFile {
  return {
    merchants: [
      {
        id: 'shop',
        name: 'Shop',
        apiKey: 'shop-key',
        v1: { ...V1, ...v1Members },
        callbacks: { notificationUrl: 'https://shop.example/n', termsUrl: 'https://shop.example/t' },
      },
    ],
  };
}

/** The issues of the ConfigError that parsing `file` throws. */
function issuesOf(file: SandboxConfigFile): Array<[string, string]> {
  try {
    parseConfig(file);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.code, 'invalid_config');
    return error.issues.map((issue) => [issue.path, issue.message]);
  }
  assert.fail('the config was accepted');
}

describe('sandbox v1 creditor whitelists in the config', () => {
  test('checks and normalises the whitelist; absent, it is TEST_CREDITORS and the variable creditor is off', () => {
    const written = parseConfig(
      configWith({
        creditors: [
          { name: ' Rent Holder SIA ', iban: 'lv80 bank 0000 4351 9500 1' },
          { name: 'Other', iban: 'EE541700017000123456' },
        ],
        variableCreditor: true,
      }),
    ).merchants[0]!.v1!;
    assert.deepEqual(written.creditors, [
      { name: 'Rent Holder SIA', iban: 'LV80BANK0000435195001' },
      { name: 'Other', iban: 'EE541700017000123456' },
    ]);
    assert.equal(written.variableCreditor, true);

    const defaults = parseConfig(configWith({})).merchants[0]!.v1!;
    assert.deepEqual(defaults.creditors, TEST_CREDITORS);
    assert.equal(defaults.variableCreditor, false);

    assert.deepEqual(parseConfig(configWith({ creditors: [] })).merchants[0]!.v1!.creditors, []);
  });

  test('refuses an entry that is no IBAN, a blank name and a wrong shape, naming each field', () => {
    assert.deepEqual(
      issuesOf(
        configWith({
          creditors: [
            { name: 'Fine', iban: 'LV80BANK0000435195001' },
            { name: 'Check digits', iban: 'LV81BANK0000435195001' },
            { name: '  ', iban: 'not an iban' },
          ],
        }),
      ),
      [
        [
          'merchants[0].v1.creditors[1].iban',
          '"LV81BANK0000435195001" is not an IBAN: a country code, 2 check digits and the account, such as LV80BANK0000435195001, passing the ISO 13616 mod-97 check',
        ],
        ['merchants[0].v1.creditors[2].name', 'must not be blank'],
        [
          'merchants[0].v1.creditors[2].iban',
          '"not an iban" is not an IBAN: a country code, 2 check digits and the account, such as LV80BANK0000435195001, passing the ISO 13616 mod-97 check',
        ],
      ],
    );
    assert.deepEqual(
      issuesOf(
        configWith({ creditors: [{ name: 'No IBAN' }, { iban: 'LV80BANK0000435195001', bic: 'X' }] }),
      ).sort(),
      [
        ['merchants[0].v1.creditors[0].iban', 'is required'],
        ['merchants[0].v1.creditors[1].bic', 'is not a setting here; the settings are name, iban'],
        ['merchants[0].v1.creditors[1].name', 'is required'],
      ],
    );
    assert.deepEqual(issuesOf(configWith({ variableCreditor: 'yes' })), [
      ['merchants[0].v1.variableCreditor', 'must be a boolean'],
    ]);
  });

  test('the CLI refuses at start a config whose whitelist holds no IBAN, naming the field', {
    timeout: 60_000,
  }, async () => {
    const dir = await tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify(configWith({ creditors: [{ name: 'Typo', iban: 'LV80BANK000043519500' }] })),
    );
    assert.throws(() => loadConfig(file), ConfigError);
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', CLI, '--port', '0', '--data-dir', join(dir, 'data'), '--config', file],
        { timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
    });
    rmSync(dir, { recursive: true, force: true });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    assert.equal(
      result.stderr,
      `svc-sandbox: Invalid sandbox config (${file}): merchants[0].v1.creditors[0].iban: "LV80BANK000043519500" is not an IBAN: a country code, 2 check digits and the account, such as LV80BANK0000435195001, passing the ISO 13616 mod-97 check\n`,
    );
  });

  test('the demo merchant whitelists the test creditors and has the variable creditor enabled', () => {
    const demo = demoConfig({ publicKeyPem: merchantKeys.main.publicKeyPem }).merchants[0]!.v1!;
    assert.deepEqual(demo.creditors, TEST_CREDITORS);
    assert.equal(demo.variableCreditor, true);
  });

  test('the schema and --help name the default whitelist as TEST_CREDITORS holds it', () => {
    const schema = JSON.parse(readFileSync(SCHEMA, 'utf8')) as {
      $defs: { merchant: { properties: { v1: { properties: Record<string, { description: string }> } } } };
    };
    const v1Members = schema.$defs.merchant.properties.v1.properties;
    for (const creditor of TEST_CREDITORS) {
      assert.ok(v1Members['creditors']!.description.includes(`${creditor.name} \`${creditor.iban}\``));
      assert.ok(HELP_TEXT.includes(`${' '.repeat(30)}${creditor.name}  ${creditor.iban}\n`), creditor.iban);
    }
    assert.ok(
      HELP_TEXT.includes('    merchants[].v1.variableCreditor  true enables pis_purchase (default false)'),
    );
  });
});

describe('sandbox v1 merchant that whitelists no creditor', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(async () => {
    merchant = await FakeMerchant.start();
    const file = v1ConfigFile(merchant.url);
    file.merchants[0]!.v1 = { ...V1, creditors: [], variableCreditor: true };
    sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir: await tempDir() });
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  test('refuses every bulk creditor and every variable creditor, saying the whitelist is empty', async () => {
    const creditor = TEST_CREDITORS[0]!;
    const bulk = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [{ name: 'Rent', price: 50000 }],
          payment_method_details: {
            pis_bulk_purchase: [{ creditor_name: creditor.name, creditor_iban: creditor.iban }],
          },
        },
      }),
    });
    assert.equal(bulk.status, 400);
    assert.deepEqual(bulk.body, {
      __all__: {
        code: 'invalid',
        message: `The creditor IBAN ${creditor.iban} is not whitelisted for bulk payments; this merchant's whitelist (merchants[].v1.creditors in the sandbox config) is empty`,
      },
    });
    const variable = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [{ name: 'Invoice', price: 100 }],
          payment_method_details: { pis_purchase: { creditor } },
        },
      }),
    });
    assert.equal(variable.status, 400);
    assert.deepEqual(Object.keys(variable.body), ['creditor']);
    assert.equal(variable.body.creditor.code, 'invalid');
    assert.match(variable.body.creditor.message, /is not whitelisted as a variable creditor.* is empty$/);
  });
});
