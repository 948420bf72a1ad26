// The widget's browser files and frame page as a gateway's CDN serves them (src/sandbox/legacy/widget-pages.ts
// over src/sandbox/built-files.ts), from the real build (a copy of dist/browser; run `npm run build:browser`
// first) over real HTTP, each request written by hand so that its headers and path reach the sandbox exactly
// as given.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { negotiateEncoding } from '../../../src/sandbox/built-files.js';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { FakeMerchant, tempDir, testConfigFile, WIDGETS } from '../support.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const ENTRY = 'public, max-age=300';
/** The roles merchants' pages name: stable names, short-lived. */
const ENTRIES = ['svc-checkout.js', 'svc-checkout.classic.js'];
const HASHED_NAME = /^(?:frame\/assets\/)?[\w-]+-[A-Za-z0-9_-]{8}\.js$/;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(
  sandbox: Sandbox,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${sandbox.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(answer: Answer): Buffer {
  switch (answer.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(answer.body);
    case 'gzip':
      return gunzipSync(answer.body);
    case undefined:
      return answer.body;
    default:
      throw new Error(`unexpected content-encoding ${answer.headers['content-encoding']}`);
  }
}

describe('sandbox: the browser files served as a CDN would', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let browserRoot: string;
  /**
   * Role -> built path of the widget's files, from served-files.json. The v1 hosted page's script
   * (`checkout/…`) is listed there too but served under the page's own path, /checkout/scripts/.
   */
  let roles: Map<string, string>;
  let hostedScript: string;

  before(async () => {
    merchant = await FakeMerchant.start();
    browserRoot = join(await tempDir(), 'browser');
    // A copy: a rebuild elsewhere empties dist/browser.
    await cp('dist/browser', browserRoot, { recursive: true });
    const served = Object.entries(
      JSON.parse(await readFile(join(browserRoot, 'served-files.json'), 'utf8')) as Record<string, string>,
    );
    roles = new Map(served.filter(([role]) => !role.startsWith('checkout/')));
    hostedScript = served.find(([role]) => role === 'checkout/checkout-card.js')?.[1] ?? '';
    sandbox = await startSandbox({
      port: 0,
      config: parseConfig(testConfigFile(merchant.url)),
      dataDir: await tempDir(),
      browserRoot,
    });
  });
  after(async () => {
    await sandbox?.close();
    await merchant?.close();
  });

  test('served-files.json names every built script: the entries by their own names, the rest by content', () => {
    assert.ok(roles.size >= 10, `${roles.size} roles`);
    for (const [role, path] of roles) {
      if (ENTRIES.includes(role)) assert.equal(path, role);
      else {
        assert.match(path, HASHED_NAME);
        assert.equal(path.replace(/-[A-Za-z0-9_-]{8}\.js$/, '.js'), role);
      }
    }
  });

  test('the entries: short-lived, revalidated by ETag, open to any page', async () => {
    for (const role of ENTRIES) {
      const answer = await send(sandbox, `/widget/${role}`);
      assert.equal(answer.status, 200, role);
      assert.equal(answer.headers['cache-control'], ENTRY, role);
      assert.equal(answer.headers['access-control-allow-origin'], '*');
      assert.match(String(answer.headers['etag']), /^"[\w-]{22}"$/, 'a strong ETag');
      assert.equal(answer.headers['vary'], 'Accept-Encoding');
      assert.match(String(answer.headers['content-type']), /^text\/javascript/);
      assert.deepEqual(answer.body, await readFile(join(browserRoot, role)));
    }
  });

  test('content-hashed files: immutable for a year; the widget chunk open to any page, the frame’s not', async () => {
    for (const [role, path] of roles) {
      if (ENTRIES.includes(role)) continue;
      const answer = await send(sandbox, `/widget/${path}`);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['cache-control'], IMMUTABLE, path);
      assert.match(String(answer.headers['etag']), /^"[\w-]{22}"$/);
      assert.equal(answer.headers['vary'], 'Accept-Encoding');
      assert.equal(
        answer.headers['access-control-allow-origin'],
        path.startsWith('frame/') ? undefined : '*',
        path,
      );
    }
    // A source map may change while its file does not (its sources' comments): short-lived.
    const map = await send(sandbox, `/widget/${roles.get('frame/assets/frame.js')}.map`);
    assert.equal(map.status, 200);
    assert.equal(map.headers['cache-control'], ENTRY);
  });

  test('each script names its source map in a SourceMap header, where the map is served; the file names none', async () => {
    const scripts = [...roles.values()].map((path) => ({ path, address: `/widget/${path}`, head: true }));
    assert.ok(hostedScript, 'served-files.json names the hosted page’s script');
    scripts.push({
      path: hostedScript,
      address: `/checkout/scripts/${hostedScript.slice('checkout/'.length)}`,
      head: false,
    });
    for (const { path, address, head } of scripts) {
      const bytes = await readFile(join(browserRoot, path), 'utf8');
      assert.doesNotMatch(bytes, /sourceMappingURL/, `${path} names no map`);
      for (const method of head ? ['GET', 'HEAD'] : ['GET']) {
        const answer = await send(sandbox, address, {}, method);
        assert.equal(answer.status, 200, address);
        assert.equal(answer.headers['sourcemap'], `${path.split('/').pop()}.map`, `${method} ${address}`);
      }
      const mapAddress = new URL(
        String((await send(sandbox, address)).headers['sourcemap']),
        `${sandbox.url}${address}`,
      );
      const map = await send(sandbox, mapAddress.pathname);
      assert.equal(map.status, 200, mapAddress.pathname);
      assert.match(String(map.headers['content-type']), /^application\/json/);
      const parsed = JSON.parse(decoded(map).toString('utf8')) as { version: number; mappings: string };
      assert.equal(parsed.version, 3, mapAddress.pathname);
      assert.ok(parsed.mappings.length > 0, mapAddress.pathname);
      assert.equal(map.headers['sourcemap'], undefined, 'a map names no map');
    }
  });

  test('the ETag is the content’s: its SHA-256, so a file’s name and ETag change together', async () => {
    for (const path of roles.values()) {
      const bytes = await readFile(join(browserRoot, path));
      const answer = await send(sandbox, `/widget/${path}`);
      const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
      assert.equal(answer.headers['etag'], `"${hash}"`, path);
    }
  });

  test('the frame page is never stored: it carries the merchant’s CSP and names the current chunks', async () => {
    const answer = await send(sandbox, `/widget/frame/${WIDGETS.checkout}`, { 'accept-encoding': 'br' });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers['etag'], undefined);
    const html = decoded(answer).toString();
    assert.ok(html.includes(`src="/widget/${roles.get('frame/assets/frame.js')}"`), html);
    const full = (await send(sandbox, `/widget/frame/${WIDGETS.full}`)).body.toString();
    assert.ok(full.includes(`src="/widget/${roles.get('frame/assets/frame-checkout.js')}"`), full);
  });

  test('the frame page, which carries its texts, is compressed by Accept-Encoding as it is made', async () => {
    const pages = await Promise.all(
      ['br', 'gzip', 'identity'].map((encoding) =>
        send(sandbox, `/widget/frame/${WIDGETS.checkout}?lang=ru`, { 'accept-encoding': encoding }),
      ),
    );
    assert.deepEqual(
      pages.map((page) => [page.headers['content-encoding'], page.headers['vary']]),
      [
        ['br', 'accept-encoding'],
        ['gzip', 'accept-encoding'],
        [undefined, 'accept-encoding'],
      ],
    );
    const identity = pages[2]!.body;
    assert.match(identity.toString(), /"card\.title":"Данные карты"/);
    for (const page of pages.slice(0, 2)) {
      assert.deepEqual(decoded(page), identity);
      assert.ok(page.body.length < identity.length / 2, `${page.body.length} of ${identity.length} bytes`);
    }
  });

  test('brotli, gzip and identity by Accept-Encoding, each decompressing to the bytes on disk', async () => {
    for (const path of roles.values()) {
      const onDisk = await readFile(join(browserRoot, path));
      const etags = new Set<string>();
      for (const [accept, encoding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0.5, gzip', 'gzip'],
        ['*', 'br'],
        ['', undefined],
        ['identity', undefined],
        ['deflate', undefined],
      ] as const) {
        const answer = await send(sandbox, `/widget/${path}`, { 'accept-encoding': accept });
        assert.equal(answer.status, 200);
        assert.equal(answer.headers['content-encoding'], encoding, `${path} for "${accept}"`);
        assert.equal(Number(answer.headers['content-length']), answer.body.length);
        assert.equal(answer.headers['vary'], 'Accept-Encoding');
        assert.deepEqual(decoded(answer), onDisk, `${path} for "${accept}"`);
        if (encoding) assert.ok(answer.body.length < onDisk.length);
        etags.add(String(answer.headers['etag']));
      }
      assert.equal(etags.size, 3, `one ETag per encoding for ${path}: ${[...etags].join(' ')}`);
    }
  });

  test('q-values are honoured; what a header refuses is not sent unless nothing else is left', () => {
    assert.equal(negotiateEncoding(undefined), 'identity');
    assert.equal(negotiateEncoding('br'), 'br');
    assert.equal(negotiateEncoding('gzip;q=1, br;q=0.9'), 'gzip');
    assert.equal(negotiateEncoding('br;q=0, gzip;q=0'), 'identity');
    assert.equal(negotiateEncoding('br;q=0.5, identity'), 'identity');
    assert.equal(negotiateEncoding('*;q=0.3, br;q=0'), 'gzip');
    assert.equal(negotiateEncoding('BR ; Q=0.8, gzip;q=0.7'), 'br');
    assert.equal(negotiateEncoding('x-gzip'), 'gzip');
    assert.equal(negotiateEncoding('identity;q=0, *;q=0'), 'identity', 'identity rather than a 406');
    // Entries that do not parse are left out, the rest still counts.
    assert.equal(negotiateEncoding('br;q=2, gzip;q=abc, ;;, "br", gzip;q=0.1'), 'gzip');
    assert.equal(negotiateEncoding('br;q=-1'), 'identity');
  });

  test('If-None-Match with the current ETag is a 304 without a body, for each encoding', async () => {
    const path = roles.get('frame/assets/frame.js')!;
    for (const accept of ['br', 'gzip', 'identity']) {
      const first = await send(sandbox, `/widget/${path}`, { 'accept-encoding': accept });
      const etag = String(first.headers['etag']);
      const again = await send(sandbox, `/widget/${path}`, {
        'accept-encoding': accept,
        'if-none-match': etag,
      });
      assert.equal(again.status, 304, accept);
      assert.equal(again.body.length, 0);
      assert.equal(again.headers['etag'], etag);
      assert.equal(again.headers['cache-control'], IMMUTABLE);
      assert.equal(again.headers['vary'], 'Accept-Encoding');
      const listed = await send(sandbox, `/widget/${path}`, {
        'accept-encoding': accept,
        'if-none-match': `"other", W/${etag}`,
      });
      assert.equal(listed.status, 304, 'a list, and a weak form of the tag, match too');
    }
    // Another encoding's ETag is another representation: the full answer.
    const gzipTag = String(
      (await send(sandbox, `/widget/${path}`, { 'accept-encoding': 'gzip' })).headers['etag'],
    );
    const brotli = await send(sandbox, `/widget/${path}`, {
      'accept-encoding': 'br',
      'if-none-match': gzipTag,
    });
    assert.equal(brotli.status, 200);
    assert.equal(brotli.headers['content-encoding'], 'br');
    // The entry revalidates the same way.
    const entry = await send(sandbox, '/widget/svc-checkout.js');
    const revalidated = await send(sandbox, '/widget/svc-checkout.js', {
      'if-none-match': String(entry.headers['etag']),
    });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers['cache-control'], ENTRY);
    assert.equal((await send(sandbox, '/widget/svc-checkout.js', { 'if-none-match': '*' })).status, 304);
  });

  test('HEAD answers the headers of GET without the body', async () => {
    for (const path of ['svc-checkout.js', roles.get('frame/assets/frame.js')!]) {
      const got = await send(sandbox, `/widget/${path}`, { 'accept-encoding': 'br' });
      const head = await send(sandbox, `/widget/${path}`, { 'accept-encoding': 'br' }, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0);
      for (const name of [
        'content-length',
        'content-encoding',
        'etag',
        'cache-control',
        'vary',
        'content-type',
      ])
        assert.equal(head.headers[name], got.headers[name], name);
    }
  });

  test('hostile requests get a 4xx, never a 500', async () => {
    const frame = roles.get('frame/assets/frame.js')!;
    const cases: Array<[string, Record<string, string>, number]> = [
      [`/widget/${frame}`, { 'accept-encoding': 'br;q=1e999, gzip;q=NaN, ,,,;q=, *;q=.5, \u00ff' }, 200],
      [`/widget/${frame}`, { 'accept-encoding': 'gzip,'.repeat(1500) }, 200],
      [`/widget/${frame}`, { 'if-none-match': `"${'a'.repeat(7000)}", ${'"x",'.repeat(300)}` }, 200],
      [`/widget/${frame}`, { 'if-none-match': 'W/, "unterminated, ***' }, 200],
      ['/widget/frame/assets/%2e%2e%2f%2e%2e%2fserved-files.json', {}, 404],
      ['/widget/frame/assets/..%2F..%2Fsvc-checkout.js', {}, 404],
      ['/widget/frame/assets/%2E%2E', {}, 404],
      ['/widget/%2e%2e%2fpackage.json', {}, 404],
      ['/widget/served-files.json', {}, 404],
      ['/widget/frame/assets/frame-AAAAAAAA.js', {}, 404],
      ['/widget/svc-checkout-v1.js', {}, 404],
      ['/widget/frame/assets/frame.js', {}, 404],
      [`/widget/${frame.replace('frame/assets/', '')}`, {}, 404],
      ['/widget/frame/assets/%E0%A4%A', {}, 400],
    ];
    for (const [path, headers, status] of cases) {
      const answer = await send(sandbox, path, headers);
      assert.equal(answer.status, status, `${path} ${JSON.stringify(headers).slice(0, 80)}`);
    }
  });
});
