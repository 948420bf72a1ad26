/**
 * The frame's page with its first view (issue 26), as the sandbox serves it from the real build (run after
 * `npm run build:browser`): the card form in the body, its styles in the head allowed by their hash alone,
 * nothing that could send what is typed before the frame's code runs. The hash is computed again here with
 * another library (jsrsasign), and the page parsed by an HTML parser (parse5), as a browser reads it.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import jsrsasign from 'jsrsasign';
import { parse } from 'parse5';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { FakeMerchant, startTestSandbox, tempDir, testConfigFile, WIDGETS } from '../support.js';

const { KJUR, hextob64, utf8tohex } = jsrsasign;

/** What of parse5's tree (which has no types of its own) the checks read. */
interface ParsedNode {
  tagName?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: ParsedNode[];
  content?: ParsedNode;
  value?: string;
}
type ParsedElement = Required<Pick<ParsedNode, 'tagName' | 'attrs' | 'childNodes'>>;

function elements(node: ParsedNode): ParsedElement[] {
  const found: ParsedElement[] = [];
  const visit = (current: ParsedNode) => {
    if (current.tagName) found.push(current as ParsedElement);
    // A <template>'s content is a fragment of its own in parse5.
    for (const child of (current.content ?? current).childNodes ?? []) visit(child);
  };
  visit(node);
  return found;
}

const attribute = (element: ParsedElement, name: string) =>
  element.attrs.find((candidate) => candidate.name === name)?.value;

/** The frame page as the browser gets it, parsed, with its policy's directives. */
async function framePage(sandbox: Sandbox, path: string) {
  const response = await fetch(`${sandbox.url}${path}`);
  assert.equal(response.status, 200);
  const html = await response.text();
  const policy = new Map(
    (response.headers.get('content-security-policy') ?? '').split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values];
    }),
  );
  return { html, policy, all: elements(parse(html) as ParsedNode) };
}

describe("sandbox: the frame page's first view", () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(async () => {
    merchant = await FakeMerchant.start();
    sandbox = await startTestSandbox(merchant);
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  test('the card form is in the body, waiting for the frame code; its styles are allowed by their hash alone', async () => {
    const { policy, all } = await framePage(sandbox, `/widget/frame/${WIDGETS.checkout}?lang=en`);
    const styles = all.filter((element) => element.tagName === 'style');
    assert.equal(styles.length, 1, 'one style element');
    const css = styles[0]!.childNodes[0]?.value ?? '';
    assert.match(css, /svc-card-fields/);
    const hash = hextob64(KJUR.crypto.Util.hashHex(utf8tohex(css), 'sha256'));
    assert.deepEqual(policy.get('style-src'), ["'self'", `'sha256-${hash}'`]);
    assert.deepEqual(policy.get('script-src'), ["'self'"]);
    assert.deepEqual(policy.get('form-action'), ["'none'"]);

    const frame = all.find((element) => element.tagName === 'svc-payment-frame');
    assert.ok(frame, 'the body holds the frame element');
    assert.equal(attribute(frame, 'defer-hydration'), '');
    assert.equal(attribute(frame, 'card-layout'), 'stacked');
    assert.equal(attribute(frame, 'cardholder-name'), 'required');
    const inputs = all.filter((element) => element.tagName === 'input');
    assert.deepEqual(
      inputs.map((input) => attribute(input, 'autocomplete')),
      ['cc-number', 'cc-exp', 'cc-csc', 'cc-name'],
    );
    for (const input of inputs) assert.equal(attribute(input, 'value'), '', 'no value is written in');
    // A submission before the code runs cannot go anywhere: no action, and the default button is disabled.
    const form = all.find((element) => element.tagName === 'form')!;
    assert.equal(attribute(form, 'action'), undefined);
    const pay = all.find((element) => attribute(element, 'type') === 'submit')!;
    assert.equal(attribute(pay, 'disabled'), '');
    assert.ok(!all.some((element) => attribute(element, 'style') !== undefined), 'no style attribute');
    assert.ok(
      !all.some(
        (element) =>
          element.tagName === 'script' &&
          !attribute(element, 'src') &&
          attribute(element, 'type') !== 'application/json',
      ),
    );
  });

  test("the first view is in the page's language, and in the card settings the element asks for", async () => {
    const lv = await framePage(sandbox, `/widget/frame/${WIDGETS.checkout}`);
    assert.ok(lv.html.includes('Kartes numurs'), 'the merchant’s default language (lv)');
    const ru = await framePage(
      sandbox,
      `/widget/frame/${WIDGETS.checkout}?lang=ru&card-layout=compact&cardholder-name=hidden`,
    );
    const frame = ru.all.find((element) => element.tagName === 'svc-payment-frame')!;
    assert.equal(attribute(frame, 'card-layout'), 'compact');
    assert.equal(attribute(frame, 'cardholder-name'), 'hidden');
    assert.ok(ru.all.some((element) => attribute(element, 'class')?.includes('svc-card-fields--compact')));
    assert.ok(!ru.all.some((element) => attribute(element, 'autocomplete') === 'cc-name'));
    assert.ok(ru.html.includes('Номер карты'));
    // Settings we do not know are the defaults, never written into the page.
    const odd = await framePage(sandbox, `/widget/frame/${WIDGETS.checkout}?card-layout=%22%3E%3Cb%3E`);
    assert.equal(
      attribute(odd.all.find((element) => element.tagName === 'svc-payment-frame')!, 'card-layout'),
      'stacked',
    );
    assert.ok(!odd.html.includes('<b>'));
  });

  test("the full checkout's first view has the customer's fields and the terms to agree to", async () => {
    const { all } = await framePage(sandbox, `/widget/frame/${WIDGETS.full}?lang=en`);
    assert.deepEqual(
      all
        .filter((element) => element.tagName === 'input')
        .map((input) => attribute(input, 'autocomplete') ?? attribute(input, 'type')),
      ['given-name', 'family-name', 'email', 'tel', 'cc-number', 'cc-exp', 'cc-csc', 'cc-name', 'checkbox'],
    );
    const customer = all.find((element) => element.tagName === 'svc-customer-fields')!;
    assert.equal(attribute(customer, 'defer-hydration'), '');
  });
});

describe('sandbox: a build whose first view module fails', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  const warnings: string[] = [];
  const warn = console.warn;

  before(async () => {
    merchant = await FakeMerchant.start();
    const browserRoot = await tempDir();
    await mkdir(join(browserRoot, 'server'), { recursive: true });
    await mkdir(join(browserRoot, 'frame', 'assets'), { recursive: true });
    await writeFile(join(browserRoot, 'frame', 'assets', 'frame.js'), 'export {};\n');
    // A renderer that throws on every page (a template its build cannot render, say).
    await writeFile(
      join(browserRoot, 'server', 'first-view.js'),
      "export const FIRST_VIEW_STYLES = 'p{}'; export const FIRST_VIEW_STYLES_ID = 'x';\nexport function renderFirstView() { throw new Error('cannot render'); }\n",
    );
    console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
    sandbox = await startSandbox({
      port: 0,
      config: parseConfig(testConfigFile(merchant.url)),
      dataDir: await tempDir(),
      browserRoot,
    });
  });
  after(async () => {
    console.warn = warn;
    await sandbox.close();
    await merchant.close();
  });

  test('serves the page without a first view, its policy without the style hash, and says why', async () => {
    const { html, policy, all } = await framePage(sandbox, `/widget/frame/${WIDGETS.checkout}`);
    assert.ok(!all.some((element) => element.tagName === 'svc-payment-frame'), 'no first view');
    assert.ok(!html.includes('<style'));
    assert.deepEqual(policy.get('style-src'), ["'self'"]);
    assert.ok(warnings.some((line) => line.includes('did not render') && line.includes('cannot render')));
  });
});
