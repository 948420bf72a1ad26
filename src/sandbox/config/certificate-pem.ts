/** Merchants' certificates: the RSA public key a PEM holds, or why it holds none. */
import { createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import { errorText } from './config-error.js';

/**
 * Imports a merchant's RSA public key from PEM: SPKI (`PUBLIC KEY`), PKCS#1 (`RSA PUBLIC KEY`) or an X.509
 * `CERTIFICATE`. A private key is refused: the gateway never holds merchants' private keys, and a config that
 * carries one leaks it.
 */
export function importCertificatePem(pem: string): { publicKey: KeyObject } | { error: string } {
  const label = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem)?.[1];
  if (label === undefined) {
    return {
      error:
        'is not PEM; expected -----BEGIN PUBLIC KEY-----, -----BEGIN RSA PUBLIC KEY----- or -----BEGIN CERTIFICATE-----',
    };
  }
  if (label.includes('PRIVATE KEY')) {
    return {
      error: 'is a private key; give the public key or certificate (the private key stays with the merchant)',
    };
  }
  let publicKey: KeyObject;
  try {
    publicKey =
      label === 'CERTIFICATE'
        ? new X509Certificate(pem).publicKey
        : createPublicKey({ key: pem, format: 'pem' });
  } catch (error) {
    return {
      error: `does not read as a ${label === 'CERTIFICATE' ? 'certificate' : 'public key'} (${errorText(error)})`,
    };
  }
  if (publicKey.asymmetricKeyType !== 'rsa') {
    return {
      error: `is an ${publicKey.asymmetricKeyType ?? 'unknown'} key; signatures are SHA256withRSA, so give an RSA key`,
    };
  }
  return { publicKey };
}
