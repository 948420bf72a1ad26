/**
 * The sandbox's own key pair, which signs what it sends (notifications, callbacks, verification tokens),
 * and its X.509 certificate, which merchants download to check those signatures. Kept in the data dir so
 * that a merchant's configured certificate stays valid across restarts.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SvcError } from '../core/errors.js';
import { certificateValidityError } from '../server/for-sandbox.js';
import {
  createSelfSignedCertificate,
  generateMerchantKeyPair,
  importPrivateKey,
  importPublicKey,
} from '../server/index.js';
import { MAX_PEM_FILE_BYTES, readTextFile, writeTextFileAtomic } from './text-file.js';

/** A key file that holds no usable private key: empty, torn, or something else. */
export class KeyFileError extends SvcError<'unreadable_key'> {
  constructor(
    readonly file: string,
    problem: string,
    remedy: string,
  ) {
    super('unreadable_key', `${file} ${problem}; ${remedy}`);
  }
}

/**
 * The private key PEM of `file`, checked to be one.
 * @param remedy what the operator does about a bad file, as the error's last words.
 * @throws KeyFileError when the file holds no RSA private key PEM.
 * @throws FileTooLargeError, or the file system's error, when it cannot be read.
 */
export function readPrivateKeyFile(file: string, remedy: string): string {
  const pem = readTextFile(file, MAX_PEM_FILE_BYTES);
  if (pem.trim() === '') throw new KeyFileError(file, 'is empty', remedy);
  try {
    importPrivateKey(pem);
  } catch (error) {
    throw new KeyFileError(file, `holds no private key PEM (${(error as Error).message})`, remedy);
  }
  return pem;
}

export interface ServiceKeys {
  privateKeyPem: string;
  certificatePem: string;
}

/**
 * The service's key pair and certificate from `<dataDir>/service/`, made on first use. A certificate that has
 * expired (merchants' toolkits refuse it) or does not belong to the key is issued anew for the same key, so
 * merchants that hold the bare public key keep verifying; those that hold the certificate fetch it again.
 * @throws FileTooLargeError when a key file is larger than 64 KiB (a `service.privateKeyFile` of `/dev/zero`).
 * @throws KeyFileError when the key file holds no private key (empty, damaged, or another kind of PEM).
 */
export async function loadOrCreateServiceKeys(
  dataDir: string,
  privateKeyFile?: string,
): Promise<ServiceKeys> {
  const dir = join(dataDir, 'service');
  const keyPath = privateKeyFile ?? join(dir, 'private-key.pem');
  const certificatePath = join(dir, 'certificate.pem');
  await mkdir(dir, { recursive: true });
  let privateKeyPem: string;
  let publicKeyPem: string | undefined;
  if (existsSync(keyPath)) {
    privateKeyPem = readPrivateKeyFile(
      keyPath,
      privateKeyFile === undefined
        ? 'delete it to have a new key pair made (merchants then fetch the new certificate)'
        : "put the sandbox's RSA private key PEM there (BEGIN PRIVATE KEY), or remove service.privateKeyFile " +
            'from the config to have a key pair made in the data dir',
    );
  } else {
    const pair = await generateMerchantKeyPair();
    privateKeyPem = pair.privateKeyPem;
    publicKeyPem = pair.publicKeyPem;
    writeTextFileAtomic(keyPath, privateKeyPem, 0o600);
  }
  if (publicKeyPem === undefined && existsSync(certificatePath)) {
    const certificatePem = readTextFile(certificatePath, MAX_PEM_FILE_BYTES);
    if (isCurrentCertificateOf(certificatePem, privateKeyPem)) return { privateKeyPem, certificatePem };
  }
  const certificatePem = createSelfSignedCertificate({
    privateKeyPem,
    ...(publicKeyPem !== undefined && { publicKeyPem }),
    subject: 'svc-sandbox gateway',
  });
  writeTextFileAtomic(certificatePath, certificatePem, 0o644);
  return { privateKeyPem, certificatePem };
}

/** Whether the certificate is readable, the key's, and valid today by the real clock, which merchants check it by. */
function isCurrentCertificateOf(certificatePem: string, privateKeyPem: string): boolean {
  try {
    const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'der' });
    const ownKey = spki(createPublicKey(importPrivateKey(privateKeyPem)));
    return (
      spki(importPublicKey(certificatePem)).equals(ownKey) &&
      certificateValidityError(certificatePem) === undefined
    );
  } catch {
    return false;
  }
}
