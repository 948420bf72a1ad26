/**
 * The official legacy PHP client (klix-app/merchant-api-php 2.0.2), vendored unchanged under
 * test/interop/klix-merchant-api-php, run as a merchant's back end runs it: `print-widget.php` prints the widget
 * markup of the client's README orders, `decode-notification.php` decodes a purchase notification and calls
 * every getter of the `MerchantOrder` it returns. Needs `php` (CLI, with openssl) on the PATH.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decodeHtmlEntities, type OrderAttributes } from '../../src/core/order-attributes.js';

const execFileAsync = promisify(execFile);

/** Runs `php`, saying in one line what to install when it is missing. */
async function php(args: string[]): Promise<{ stdout: string }> {
  try {
    return await execFileAsync('php', args);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        "php is missing: install Debian's php-cli (apt-get install -y php-cli), PHP 8 with openssl",
      );
    }
    throw error;
  }
}

export const PHP_CLIENT_DIR = fileURLToPath(new URL('../interop/klix-merchant-api-php/', import.meta.url));

/** The client's README orders: `single` (one item), `multi` (two items, two shipping options, brand Citadele). */
export type ReadmeOrder = 'single' | 'multi';

/**
 * `getHtmlRepresentation()` of a README order, built and signed by the client with `privateKeyPem`. The README
 * names a certificate only in the `multi` order; `certificateName` is used there.
 */
export async function printWidget(
  order: ReadmeOrder,
  widgetId: string,
  privateKeyPem: string,
  certificateName: string,
  dir: string,
): Promise<string> {
  const keyFile = join(dir, 'merchant-private-key.pem');
  await writeFile(keyFile, privateKeyPem, { mode: 0o600 });
  const { stdout } = await php([
    join(PHP_CLIENT_DIR, 'print-widget.php'),
    order,
    widgetId,
    keyFile,
    certificateName,
  ]);
  return stdout;
}

/** The attributes of the one element in `html`, decoded as a browser decodes them. */
export function attributesOf(html: string): Record<string, string> {
  const tag = /^<klix-checkout((?:\s+[a-z-]+="[^"]*")*)><\/klix-checkout>$/.exec(html.trim());
  assert.ok(tag, `not one klix-checkout element: ${html}`);
  return Object.fromEntries(
    [...tag[1]!.matchAll(/\s+([a-z-]+)="([^"]*)"/g)].map(([, name, value]) => [
      name!,
      decodeHtmlEntities(value!),
    ]),
  );
}

/** The order attributes of `<svc-checkout>` that the client's markup gives, by property name. */
export function orderAttributesOf(attributes: Record<string, string>): OrderAttributes {
  const property = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const { signature: _, ...rest } = attributes;
  return Object.fromEntries(Object.entries(rest).map(([name, value]) => [property(name), value]));
}

/** What `decode-notification.php` prints: each getter's value, nested getters, or `{error}`. */
export interface DecodedNotification {
  getters: Record<string, unknown>;
  /** The failed getters' paths, such as `MerchantOrder.getPayment().getCard()`. */
  errors: string[];
}

/** Decodes a notification with the client's `ProviderCallbackRequestDecoder`, then calls every getter. */
export async function decodeNotification(
  body: string,
  signature: string,
  gatewayCertificatePem: string,
  dir: string,
): Promise<DecodedNotification> {
  const bodyFile = join(dir, 'notification.json');
  const certificateFile = join(dir, 'gateway-certificate.pem');
  await writeFile(bodyFile, body);
  await writeFile(certificateFile, gatewayCertificatePem);
  const { stdout } = await php([
    join(PHP_CLIENT_DIR, 'decode-notification.php'),
    bodyFile,
    signature,
    certificateFile,
  ]);
  return JSON.parse(stdout) as DecodedNotification;
}

/** The client's own test notification (test/Klix/resources/purchase-notification.json), as it ships. */
export function referenceNotification(): Promise<string> {
  return readFile(join(PHP_CLIENT_DIR, 'test/Klix/resources/purchase-notification.json'), 'utf8');
}

/** A getter path with list positions left out: `MerchantOrder.getItems()[].getLabel()`. */
function general(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}

/** Every getter path that answered (did not fail), with list positions left out. */
export function workingGetters(decoded: DecodedNotification): Set<string> {
  const paths = new Set<string>();
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      paths.add(path);
      for (const entry of value) walk(entry, `${path}[]`);
      return;
    }
    if (typeof value !== 'object' || value === null) {
      paths.add(path);
      return;
    }
    const fields = value as Record<string, unknown>;
    if (Object.hasOwn(fields, 'error') && !Object.keys(fields).some((key) => key.startsWith('get'))) return;
    paths.add(path);
    for (const [getter, result] of Object.entries(fields)) walk(result, `${path}.${getter}()`);
  };
  walk(decoded.getters, 'MerchantOrder');
  return paths;
}

/**
 * Asserts that every getter that works on the client's own test notification works on `decoded`, and that
 * none fails but those `allowed` (a `payment.card` or `payment.error` that is null, as in the test
 * notification, where both are missing).
 */
export function assertGettersWork(
  decoded: DecodedNotification,
  reference: DecodedNotification,
  allowed: readonly string[],
  what: string,
): void {
  const failing = decoded.errors.map(general).filter((path) => !allowed.includes(path));
  assert.deepEqual(failing, [], `${what}: getters that fail: ${JSON.stringify(decoded.getters)}`);
  const working = workingGetters(decoded);
  const missing = [...workingGetters(reference)].filter((path) => !working.has(path));
  assert.deepEqual(missing, [], `${what}: getters that work on the client's test notification but not here`);
}
