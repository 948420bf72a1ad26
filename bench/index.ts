/**
 * `npm run bench`: prints the speed figures. Nothing here asserts: figures vary with the machine, so they
 * are read, not tested. Each part can also run alone (`node --import tsx bench/<part>.ts`).
 */
import { benchCrypto } from './crypto.js';
import { benchDelivery } from './delivery.js';
import { benchSandboxPayments } from './sandbox-payments.js';

console.log('# svc-checkout benchmarks');
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`);

await benchCrypto();
console.log('');
await benchDelivery();
console.log('');
const payments = await benchSandboxPayments();
console.log(
  `sandbox payments, each with its signed notification delivered and verified: ${payments.paymentsPerSecond.toFixed(0)}/s ` +
    `(${payments.count} payments, aim 1000/s)`,
);
