/**
 * The sandbox's own key pair, which signs what it sends (notifications, callbacks, verification tokens),
 * and its X.509 certificate, which merchants download to check those signatures. Kept in the data dir so
 * that a merchant's configured certificate stays valid across restarts.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSelfSignedCertificate, generateMerchantKeyPair } from '../server/index.js';

export interface ServiceKeys {
  privateKeyPem: string;
  certificatePem: string;
}

export async function loadOrCreateServiceKeys(
  dataDir: string,
  privateKeyFile?: string,
): Promise<ServiceKeys> {
  const dir = join(dataDir, 'service');
  const keyPath = privateKeyFile ?? join(dir, 'private-key.pem');
  const certificatePath = join(dir, 'certificate.pem');
  if (existsSync(keyPath) && existsSync(certificatePath)) {
    return {
      privateKeyPem: await readFile(keyPath, 'utf8'),
      certificatePem: await readFile(certificatePath, 'utf8'),
    };
  }
  await mkdir(dir, { recursive: true });
  let privateKeyPem: string;
  let publicKeyPem: string | undefined;
  if (existsSync(keyPath)) {
    privateKeyPem = await readFile(keyPath, 'utf8');
  } else {
    const pair = await generateMerchantKeyPair();
    privateKeyPem = pair.privateKeyPem;
    publicKeyPem = pair.publicKeyPem;
    await writeFile(keyPath, privateKeyPem, { mode: 0o600 });
  }
  const certificatePem = createSelfSignedCertificate({
    privateKeyPem,
    ...(publicKeyPem !== undefined && { publicKeyPem }),
    subject: 'svc-sandbox gateway',
  });
  await writeFile(certificatePath, certificatePem);
  return { privateKeyPem, certificatePem };
}
