/**
 * The sandbox's own TLS certificate for `--https`: self-signed, for the loopback names (`localhost`,
 * `127.0.0.1`, `::1`) and the host it listens on, made on first use and kept in the data dir, so that a
 * merchant who trusts it once (`NODE_EXTRA_CA_CERTS`, the browser's or the system's store) keeps trusting it
 * across restarts. node:crypto reads certificates but cannot make them, so jsrsasign builds it.
 */
import { createPublicKey, X509Certificate } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { issueCertificate } from '../server/for-sandbox.js';
import { generateMerchantKeyPair } from '../server/index.js';
import { MAX_PEM_FILE_BYTES, readTextFileIfPresent, writeTextFileAtomic } from './text-file.js';

export interface TlsCertificate {
  privateKeyPem: string;
  certificatePem: string;
  /** Where the certificate is, for the merchant to trust. */
  certificateFile: string;
}

/**
 * Under 398 days: browsers refuse longer-lived server certificates, and a local one is renewed at a start
 * once less than {@link RENEW_BEFORE_DAYS} remain.
 */
const VALID_DAYS = 397;
const RENEW_BEFORE_DAYS = 30;
const DAY_MS = 86_400_000;

/** Names a certificate is always issued for: what `localhost` and the loopback addresses are reached by. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/**
 * The names the certificate must hold to serve on `host`: the loopback names, and `host` itself when it is
 * a name or address of its own (not a wildcard such as `0.0.0.0`, which is reached by other names).
 */
export function tlsNamesFor(host: string): string[] {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  return [...new Set([...LOOPBACK_NAMES, ...(wildcard ? [] : [host.toLowerCase()])])];
}

/**
 * The certificate from `<dataDir>/tls/`, or a new one (with a new key) when there is none, it is not the
 * key's, it lacks one of `names`, or it expires within 30 days.
 * @throws FileTooLargeError when a file there is larger than 64 KiB.
 */
export async function loadOrCreateTlsCertificate(
  dataDir: string,
  names: readonly string[],
): Promise<TlsCertificate> {
  // Absolute, as the CLI prints it for NODE_EXTRA_CA_CERTS, which a process started elsewhere reads.
  const dir = resolve(dataDir, 'tls');
  const keyFile = join(dir, 'private-key.pem');
  const certificateFile = join(dir, 'certificate.pem');
  const kept = {
    privateKeyPem: readTextFileIfPresent(keyFile, MAX_PEM_FILE_BYTES),
    certificatePem: readTextFileIfPresent(certificateFile, MAX_PEM_FILE_BYTES),
  };
  if (kept.privateKeyPem !== undefined && kept.certificatePem !== undefined) {
    const { privateKeyPem, certificatePem } = kept;
    if (isUsable(certificatePem, privateKeyPem, names))
      return { privateKeyPem, certificatePem, certificateFile };
  }
  await mkdir(dir, { recursive: true });
  const { privateKeyPem, publicKeyPem } = await generateMerchantKeyPair();
  const notBefore = new Date(Math.floor(Date.now() / 1000) * 1000);
  const certificatePem = issueCertificate({
    privateKeyPem,
    publicKeyPem,
    subject: 'svc-sandbox',
    notBefore,
    notAfter: new Date(notBefore.getTime() + VALID_DAYS * DAY_MS),
    serverNames: names,
  });
  writeTextFileAtomic(keyFile, privateKeyPem, 0o600);
  writeTextFileAtomic(certificateFile, certificatePem, 0o644);
  return { privateKeyPem, certificatePem, certificateFile };
}

function isUsable(certificatePem: string, privateKeyPem: string, names: readonly string[]): boolean {
  try {
    const certificate = new X509Certificate(certificatePem);
    const ownKey = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'der' });
    const renewAt = new Date(certificate.validTo).getTime() - RENEW_BEFORE_DAYS * DAY_MS;
    return (
      certificate.publicKey.export({ type: 'spki', format: 'der' }).equals(ownKey) &&
      new Date(certificate.validFrom).getTime() <= Date.now() &&
      Date.now() < renewAt &&
      names.every((name) =>
        isIP(name) ? certificate.checkIP(name) !== undefined : certificate.checkHost(name) !== undefined,
      )
    );
  } catch {
    return false;
  }
}
