/**
 * How close the server toolkit's signing and verifying come to plain node:crypto with a KeyObject imported
 * beforehand. Our functions take PEM text on every call; the key cache should make that nearly free.
 * Aim: ratio >= 0.7. Run alone with `node --import tsx bench/crypto.ts`.
 */
import { createPrivateKey, createPublicKey, createSign, verify } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { OrderInput } from '../src/core/order.js';
import {
  generateMerchantKeyPair,
  orderSignatureInput,
  signBody,
  signOrder,
  verifySignature,
} from '../src/server/index.js';

/** One comparison: our function against plain node:crypto doing the same work. */
export interface CryptoBenchRow {
  operation: string;
  oursPerSecond: number;
  plainPerSecond: number;
  /** ours / plain; 1 means no overhead. */
  ratio: number;
}

/** Runs `operation` repeatedly for about `seconds` and gives operations per second. */
function measure(operation: () => unknown, seconds = 1): number {
  for (let warm = 0; warm < 20; warm++) operation();
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  let count = 0;
  while (performance.now() < end) {
    for (let batch = 0; batch < 10; batch++) operation();
    count += 10;
  }
  return count / ((performance.now() - started) / 1000);
}

const order: OrderInput = {
  widgetId: '7f1c2a9e-1b55-4c55-9d21-6a3c3cb1a001',
  language: 'lv',
  orderId: 'A-1001',
  items: [
    { amount: 88, currency: 'EUR', label: 'Ķiploku maize', taxRate: 21, orderItemId: 'bread', count: 2 },
    { amount: '1.50', currency: 'EUR', label: 'Sugar', count: '1.25', unit: 'KILOGRAM' },
  ],
  shippingOptions: [{ id: 'courier', amount: 4.9, currency: 'EUR' }],
};

/** Measures and prints the table; resolves the rows for callers that want the figures. */
export async function benchCrypto(): Promise<CryptoBenchRow[]> {
  const { privateKeyPem, publicKeyPem } = await generateMerchantKeyPair();
  const privateKey = createPrivateKey(privateKeyPem);
  const publicKey = createPublicKey(publicKeyPem);
  const input = orderSignatureInput(order);
  const body = Buffer.from(
    JSON.stringify({
      id: 'ord_1',
      status: 'PAID',
      total_amount: '176.00',
      currency: 'EUR',
      items: [order.items],
    }),
  );
  const signature = signBody(body, privateKeyPem);
  const signatureBytes = Buffer.from(signature, 'base64');

  const rows: CryptoBenchRow[] = [];
  const compare = (operation: string, ours: () => unknown, plain: () => unknown) => {
    const plainPerSecond = measure(plain);
    const oursPerSecond = measure(ours);
    rows.push({ operation, oursPerSecond, plainPerSecond, ratio: oursPerSecond / plainPerSecond });
  };
  compare(
    'signOrder (SHA256withRSA, RSA-2048)',
    () => signOrder(order, privateKeyPem),
    () => createSign('RSA-SHA256').update(input).sign(privateKey, 'base64'),
  );
  compare(
    'verifySignature (SHA256withRSA, RSA-2048)',
    () => verifySignature(body, signature, publicKeyPem),
    () => verify('sha256', body, publicKey, signatureBytes),
  );

  console.log('crypto: ours (PEM text per call) against node:crypto with a KeyObject, aim ratio >= 0.7');
  console.log(
    `${'operation'.padEnd(44)}${'ours/s'.padStart(10)}${'plain/s'.padStart(10)}${'ratio'.padStart(8)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.operation.padEnd(44)}${row.oursPerSecond.toFixed(0).padStart(10)}${row.plainPerSecond.toFixed(0).padStart(10)}` +
        `${row.ratio.toFixed(2).padStart(8)}`,
    );
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchCrypto();
