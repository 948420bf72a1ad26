/**
 * The company key pairs of the v1 interface, one per merchant: the document's "company-wide key pair", whose
 * public half `GET /public_key/` answers and whose private half signs the merchant's success callbacks. One
 * pair for every merchant would let merchant A have validly signed callbacks sent to merchant B's receiver.
 * Kept in `<dataDir>/company-keys/`, made once per merchant, so a key a merchant fetched stays valid across
 * restarts.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generateMerchantKeyPair } from '../../server/index.js';
import { readPrivateKeyFile } from '../service-keys.js';
import { writeTextFileAtomic } from '../text-file.js';

/** A merchant's company key pair (PEM). */
export interface CompanyKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

/** The company key pairs of the merchants, by merchant id. */
export type CompanyKeys = ReadonlyMap<string, CompanyKeyPair>;

/**
 * Reads each merchant's pair from the data dir, making those not there yet.
 * @throws KeyFileError naming the file when one holds no private key (delete it to have a new pair made).
 */
export async function loadOrCreateCompanyKeys(
  dataDir: string,
  merchantIds: readonly string[],
): Promise<CompanyKeys> {
  const dir = join(dataDir, 'company-keys');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pairs = await Promise.all(
    merchantIds.map(async (merchantId): Promise<[string, CompanyKeyPair]> => {
      const file = join(dir, keyFileName(merchantId));
      if (existsSync(file)) {
        const privateKeyPem = readPrivateKeyFile(
          file,
          `delete it to have a new company key made for merchant ${merchantId} (its receivers then fetch ` +
            'GET /api/v1/public_key/ again)',
        );
        const publicKeyPem = createPublicKey(privateKeyPem)
          .export({ type: 'spki', format: 'pem' })
          .toString();
        return [merchantId, { privateKeyPem, publicKeyPem }];
      }
      const pair = await generateMerchantKeyPair();
      writeTextFileAtomic(file, pair.privateKeyPem, 0o600);
      return [merchantId, pair];
    }),
  );
  return new Map(pairs);
}

/** The merchant id itself when it is a safe file name, else its hash: ids are any text of the config. */
function keyFileName(merchantId: string): string {
  if (/^[A-Za-z0-9_-]{1,100}$/.test(merchantId)) return `merchant-${merchantId}.pem`;
  return `sha256-${createHash('sha256').update(merchantId).digest('hex')}.pem`;
}
