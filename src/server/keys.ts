/**
 * RSA keys and certificates as merchants hold them: PEM text copied from the gateway's console or from
 * their own files. Everything is imported once into node:crypto KeyObjects and cached by its PEM text, so
 * that passing the same PEM string on every call costs a map lookup, not a parse.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  type KeyObject,
  randomBytes,
  X509Certificate,
} from 'node:crypto';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import jsrsasign from 'jsrsasign';
import { SvcError } from '../core/errors.js';
import { BoundedCache } from './bounded-cache.js';
import {
  checkOptions,
  isDate,
  isNumber,
  isString,
  isText,
  type OptionRules,
  optional,
  required,
} from './options.js';

/** Why a key or certificate could not be used. */
export type KeyFormatErrorCode =
  /** Not PEM, or a PEM kind this call does not take (say, a certificate where a private key is needed). */
  | 'unsupported_key_format'
  /** The PEM kind is right but its content cannot be read. */
  | 'invalid_key'
  /** Readable, but not an RSA key: the gateway signs and verifies with RSA only. */
  | 'unsupported_key_type'
  /** A public key given beside a private key does not belong to it. */
  | 'key_mismatch';

/** A key or certificate that cannot be used; the message names the PEM kinds that are accepted. */
export class KeyFormatError extends SvcError<KeyFormatErrorCode> {}

/** PEM kinds taken where a public key is needed. */
export const PUBLIC_KEY_PEM_KINDS = ['PUBLIC KEY', 'RSA PUBLIC KEY', 'CERTIFICATE'] as const;
/** PEM kinds taken where a private key is needed. */
export const PRIVATE_KEY_PEM_KINDS = ['PRIVATE KEY', 'RSA PRIVATE KEY'] as const;

const PUBLIC_KINDS_TEXT =
  'an SPKI public key (BEGIN PUBLIC KEY), a PKCS#1 public key (BEGIN RSA PUBLIC KEY) or an X.509 certificate (BEGIN CERTIFICATE)';
const PRIVATE_KINDS_TEXT =
  'a PKCS#8 private key (BEGIN PRIVATE KEY) or a PKCS#1 private key (BEGIN RSA PRIVATE KEY), unencrypted';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/;
const KEY_CACHE_SIZE = 64;

/** A public key as imported, with its certificate's dates when it came from one. */
interface ImportedPublicKey {
  key: KeyObject;
  certificate?: { commonName?: string; subject: string; notBefore: Date; notAfter: Date };
}

const publicKeys = new BoundedCache<string, ImportedPublicKey>(KEY_CACHE_SIZE);
const privateKeys = new BoundedCache<string, KeyObject>(KEY_CACHE_SIZE);

interface PemBlock {
  kind: string;
  text: string;
}

/**
 * The first PEM block in `pem`. Keys kept in environment variables often arrive with their line breaks
 * written as the two characters `\n`; those are turned back into line breaks.
 */
function firstPemBlock(pem: unknown, accepted: string): PemBlock {
  if (typeof pem !== 'string') {
    throw new KeyFormatError(
      'unsupported_key_format',
      `Expected PEM text, got ${typeof pem}; give ${accepted}`,
    );
  }
  const text = !pem.includes('\n') && pem.includes('\\n') ? pem.replaceAll('\\n', '\n') : pem;
  const match = PEM_BLOCK.exec(text);
  if (!match) {
    throw new KeyFormatError(
      'unsupported_key_format',
      `The key is not PEM text (no matching -----BEGIN ...----- and -----END ...----- lines); give ${accepted}`,
    );
  }
  return { kind: match[1]!, text: match[0] };
}

function requireRsa(key: KeyObject, kind: string): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') {
    throw new KeyFormatError(
      'unsupported_key_type',
      `The ${kind} holds a ${key.asymmetricKeyType ?? 'non-asymmetric'} key; the gateway uses RSA keys only`,
    );
  }
  return key;
}

function readPublicKey(pem: string): ImportedPublicKey {
  const block = firstPemBlock(pem, PUBLIC_KINDS_TEXT);
  if (!(PUBLIC_KEY_PEM_KINDS as readonly string[]).includes(block.kind)) {
    const hint = (PRIVATE_KEY_PEM_KINDS as readonly string[]).includes(block.kind)
      ? ' (this is a private key: verify with the public key or certificate that belongs to it)'
      : '';
    throw new KeyFormatError(
      'unsupported_key_format',
      `A public key is needed, and "BEGIN ${block.kind}" is not one${hint}; give ${PUBLIC_KINDS_TEXT}`,
    );
  }
  try {
    if (block.kind !== 'CERTIFICATE') return { key: requireRsa(createPublicKey(block.text), 'public key') };
    const certificate = new X509Certificate(block.text);
    const commonName = commonNameOf(certificate.subject);
    return {
      key: requireRsa(certificate.publicKey, 'certificate'),
      certificate: {
        ...(commonName !== undefined && { commonName }),
        subject: certificate.subject,
        notBefore: new Date(certificate.validFrom),
        notAfter: new Date(certificate.validTo),
      },
    };
  } catch (error) {
    if (error instanceof KeyFormatError) throw error;
    throw new KeyFormatError(
      'invalid_key',
      `The ${block.kind} PEM block cannot be read; check that it is complete`,
      {
        cause: error,
      },
    );
  }
}

function readPrivateKey(pem: string): KeyObject {
  const block = firstPemBlock(pem, PRIVATE_KINDS_TEXT);
  if (!(PRIVATE_KEY_PEM_KINDS as readonly string[]).includes(block.kind)) {
    const hint =
      block.kind === 'ENCRYPTED PRIVATE KEY'
        ? ' (decrypt it first, for example with `openssl pkcs8 -in key.pem -nocrypt -topk8`)'
        : (PUBLIC_KEY_PEM_KINDS as readonly string[]).includes(block.kind)
          ? ' (this is public: signing needs the private key)'
          : '';
    throw new KeyFormatError(
      'unsupported_key_format',
      `A private key is needed, and "BEGIN ${block.kind}" is not one${hint}; give ${PRIVATE_KINDS_TEXT}`,
    );
  }
  try {
    return requireRsa(createPrivateKey(block.text), 'private key');
  } catch (error) {
    if (error instanceof KeyFormatError) throw error;
    throw new KeyFormatError(
      'invalid_key',
      `The ${block.kind} PEM block cannot be read; check that it is complete`,
      {
        cause: error,
      },
    );
  }
}

/**
 * An RSA public key from an SPKI or PKCS#1 public key PEM, or from an X.509 certificate PEM (whose
 * validity dates are not checked here: see {@link checkCertificateValidity}). Cached by the PEM text.
 * @throws KeyFormatError naming the accepted PEM kinds.
 */
export function importPublicKey(pem: string): KeyObject {
  return publicKeys.getOrCreate(pem, readPublicKey).key;
}

/** Why a certificate cannot be used at the time it is used. */
export type CertificateValidityErrorCode =
  /** The time of use is after the certificate's `notAfter`. */
  | 'certificate_expired'
  /** The time of use is before the certificate's `notBefore`. */
  | 'certificate_not_yet_valid';

/** An X.509 time as ISO 8601 to the second, as certificates hold it. */
function certificateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * An X.509 certificate used outside its validity dates. Certificates last two years and expire; a bare
 * public key has no dates and never causes this error. The message names the certificate and its dates.
 */
export class CertificateValidityError extends SvcError<CertificateValidityErrorCode> {
  /** The name the certificate was used under, or its subject's common name. */
  readonly certificateName: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The time of use it was checked against. */
  readonly checkedAt: Date;

  constructor(certificateName: string, notBefore: Date, notAfter: Date, checkedAt: Date) {
    const expired = checkedAt.getTime() > notAfter.getTime();
    const dates = `valid from ${certificateTime(notBefore)} to ${certificateTime(notAfter)}, checked at ${certificateTime(checkedAt)}`;
    super(
      expired ? 'certificate_expired' : 'certificate_not_yet_valid',
      expired
        ? `The certificate ${JSON.stringify(certificateName)} expired on ${certificateTime(notAfter)} (${dates}); use the current certificate`
        : `The certificate ${JSON.stringify(certificateName)} is not valid until ${certificateTime(notBefore)} (${dates}); use the current certificate`,
    );
    this.certificateName = certificateName;
    this.notBefore = notBefore;
    this.notAfter = notAfter;
    this.checkedAt = checkedAt;
  }
}

/** Options of {@link checkCertificateValidity}. */
export interface CertificateValidityOptions {
  /** The time of use; now when left out. */
  now?: Date;
  /** The name the certificate goes by, such as its name in the console; its common name when left out. */
  name?: string;
}

/**
 * The error {@link checkCertificateValidity} would throw, or undefined when the PEM may be used at `now`.
 * For callers that answer with a result rather than throw.
 * @throws KeyFormatError naming the accepted PEM kinds.
 */
export function certificateValidityError(
  pem: string,
  options: CertificateValidityOptions = {},
): CertificateValidityError | undefined {
  const { certificate } = publicKeys.getOrCreate(pem, readPublicKey);
  if (certificate === undefined) return undefined;
  const now = options.now ?? new Date();
  if (Number.isNaN(now.getTime())) throw new TypeError('now must be a valid Date, the time of use');
  // RFC 5280: valid from notBefore through notAfter, both included.
  if (now >= certificate.notBefore && now <= certificate.notAfter) return undefined;
  const name = options.name ?? certificate.commonName ?? certificate.subject;
  return new CertificateValidityError(name, certificate.notBefore, certificate.notAfter, now);
}

/**
 * Checks that an X.509 certificate PEM is within its validity dates at `now` (its `notBefore` through its
 * `notAfter`). A bare public key PEM has no dates and always passes. The toolkit's verification helpers
 * call this for the key they are given, so an expired gateway certificate fails loudly instead of verifying.
 * @throws CertificateValidityError `certificate_expired` or `certificate_not_yet_valid`, naming the
 *   certificate and its dates.
 * @throws KeyFormatError when `pem` is not a public key or certificate.
 */
export function checkCertificateValidity(pem: string, options: CertificateValidityOptions = {}): void {
  const error = certificateValidityError(pem, options);
  if (error) throw error;
}

/**
 * An RSA private key from a PKCS#8 or PKCS#1 PEM. Cached by the PEM text.
 * @throws KeyFormatError naming the accepted PEM kinds.
 */
export function importPrivateKey(pem: string): KeyObject {
  return privateKeys.getOrCreate(pem, readPrivateKey);
}

/** A merchant key pair as PEM text: what the gateway's console hands out. */
export interface MerchantKeyPair {
  /** PKCS#8 (`BEGIN PRIVATE KEY`). Never leaves the merchant. */
  privateKeyPem: string;
  /** SPKI (`BEGIN PUBLIC KEY`). */
  publicKeyPem: string;
}

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * A new RSA 2048 key pair, as the console generates them. Asynchronous because key generation takes a while.
 * @throws TypeError when given options: it takes none (the gateway takes RSA 2048 keys).
 */
export async function generateMerchantKeyPair(): Promise<MerchantKeyPair> {
  // Typed without parameters, so only JavaScript can pass some; they would be ignored, so they are refused.
  // biome-ignore lint/complexity/noArguments: the signature has no parameter to read.
  if (arguments[0] !== undefined) checkOptions('generateMerchantKeyPair', arguments[0], {});
  const { privateKey, publicKey } = await generateRsaKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

/** What a certificate is made of. */
export interface SelfSignedCertificateOptions {
  /** PKCS#8 or PKCS#1 PEM; signs the certificate. */
  privateKeyPem: string;
  /** The public key the certificate carries; derived from the private key when left out. */
  publicKeyPem?: string;
  /** The subject's common name (CN), such as the certificate name shown in the console. */
  subject: string;
  /** Days of validity; without it, 2 calendar years, the gateway's default. */
  validDays?: number;
  /** Serial number in hexadecimal; a random positive 128-bit number when left out. */
  serial?: string;
  /** Start of validity; now when left out. */
  notBefore?: Date;
}

/** UTCTime through 2049 and GeneralizedTime after it, as RFC 5280 asks; jsrsasign tells them by length. */
function asn1Time(date: Date): string {
  const digits = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? `${digits.slice(2)}Z` : `${digits}Z`;
}

function randomSerial(): string {
  const bytes = randomBytes(16);
  // Clear the top bit so the DER integer is positive, and set the next so it keeps all 16 bytes.
  bytes[0] = (bytes[0]! & 0x7f) | 0x40;
  return bytes.toString('hex');
}

function spkiPem(key: KeyObject): string {
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

const CERTIFICATE_OPTIONS: OptionRules<SelfSignedCertificateOptions> = {
  privateKeyPem: required('the private key as PEM text (BEGIN PRIVATE KEY)', isText),
  publicKeyPem: optional('the public key as PEM text (BEGIN PUBLIC KEY)', isText),
  subject: required('the certificate name, a non-empty common name', isText),
  validDays: optional('a whole number of days above 0', isNumber),
  serial: optional('a hexadecimal string', isString),
  notBefore: optional('a valid Date', isDate),
};

/**
 * A self-signed X.509 certificate (SHA256withRSA) for a merchant key pair, as the console issues them.
 * node:crypto reads certificates but cannot make them, so jsrsasign builds this one.
 * @throws TypeError naming the option when one is unknown, missing or of the wrong kind.
 * @throws KeyFormatError when a key cannot be read or the public key does not belong to the private key.
 */
export function createSelfSignedCertificate(options: SelfSignedCertificateOptions): string {
  checkOptions('createSelfSignedCertificate', options, CERTIFICATE_OPTIONS);
  const privateKey = importPrivateKey(options.privateKeyPem);
  const derivedPublicPem = spkiPem(createPublicKey(privateKey));
  if (
    options.publicKeyPem !== undefined &&
    spkiPem(importPublicKey(options.publicKeyPem)) !== derivedPublicPem
  ) {
    throw new KeyFormatError(
      'key_mismatch',
      'publicKeyPem does not belong to privateKeyPem; pass the pair generated together',
    );
  }
  const validDays = options.validDays;
  if (validDays !== undefined && (!Number.isInteger(validDays) || validDays <= 0)) {
    throw new RangeError(
      `createSelfSignedCertificate: the option "validDays" must be a whole number of days above 0, not ${validDays}`,
    );
  }
  const serial = options.serial ?? randomSerial();
  if (!/^[0-9a-fA-F]+$/.test(serial))
    throw new TypeError(
      `createSelfSignedCertificate: the option "serial" must be hexadecimal, not ${JSON.stringify(serial)}`,
    );

  const notBefore = new Date(Math.floor((options.notBefore ?? new Date()).getTime() / 1000) * 1000);
  const notAfter = new Date(notBefore);
  if (validDays === undefined) notAfter.setUTCFullYear(notAfter.getUTCFullYear() + 2);
  else notAfter.setTime(notAfter.getTime() + validDays * 86_400_000);
  return issueCertificate({
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: derivedPublicPem,
    subject: options.subject,
    notBefore,
    notAfter,
    serial,
  });
}

/** What {@link issueCertificate} writes, checked by its callers. */
export interface CertificateFields {
  /** PKCS#8 PEM of the key that signs the certificate (self-signed: the subject's own). */
  privateKeyPem: string;
  /** SPKI PEM of the subject's public key. */
  publicKeyPem: string;
  subject: string;
  notBefore: Date;
  notAfter: Date;
  /** Hexadecimal; a random positive 128-bit number when left out. */
  serial?: string;
  /** Names and IP addresses of a TLS server certificate (subjectAltName, server authentication). */
  serverNames?: readonly string[];
}

/**
 * A self-signed X.509 certificate (SHA256withRSA) of checked fields: a signing certificate, or with
 * `serverNames` a TLS server's. node:crypto reads certificates but cannot make them, so jsrsasign builds it.
 */
export function issueCertificate(fields: CertificateFields): string {
  const serial = fields.serial ?? randomSerial();
  const name: { array: jsrsasign.IdentityArray } = {
    array: [[{ type: 'CN', value: fields.subject, ds: 'utf8' }]],
  };
  const server = fields.serverNames;
  const certificate = new jsrsasign.KJUR.asn1.x509.Certificate({
    version: 3,
    serial: { hex: serial.length % 2 === 0 ? serial : `0${serial}` },
    issuer: name,
    subject: name,
    notbefore: asn1Time(fields.notBefore),
    notafter: asn1Time(fields.notAfter),
    sbjpubkey: fields.publicKeyPem,
    ext: [
      { extname: 'basicConstraints', cA: false },
      server
        ? { extname: 'keyUsage', critical: true, names: ['digitalSignature', 'keyEncipherment'] }
        : { extname: 'keyUsage', critical: true, names: ['digitalSignature'] },
      ...(server
        ? [
            { extname: 'extKeyUsage', array: [{ name: 'serverAuth' }] },
            {
              extname: 'subjectAltName',
              array: server.map((serverName) =>
                isIP(serverName) ? { ip: serverName } : { dns: serverName },
              ),
            },
          ]
        : []),
      { extname: 'subjectKeyIdentifier', kid: fields.publicKeyPem },
    ],
    sigalg: 'SHA256withRSA',
    cakey: fields.privateKeyPem,
  });
  return `${certificate.getPEM().replaceAll('\r\n', '\n').trim()}\n`;
}

/** What a certificate says about itself. */
export interface CertificateInfo {
  /** The subject as node:crypto prints it, such as `CN=shop-2025`. */
  subject: string;
  /** The subject's common name, unescaped; absent when the subject has none. */
  commonName?: string;
  issuer: string;
  /** Hexadecimal, upper case. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** SHA-256 of the DER certificate, as colon-separated upper-case hex. */
  fingerprintSha256: string;
}

function commonNameOf(subject: string): string | undefined {
  const line = subject.split('\n').find((part) => part.startsWith('CN='));
  return line?.slice(3).replace(/\\(.)/g, '$1');
}

/**
 * Reads a certificate's names, dates and fingerprint, for example to warn before it expires.
 * @throws KeyFormatError when `pem` holds no readable certificate.
 */
export function certificateInfo(pem: string): CertificateInfo {
  const accepted = 'an X.509 certificate (BEGIN CERTIFICATE)';
  const block = firstPemBlock(pem, accepted);
  if (block.kind !== 'CERTIFICATE') {
    throw new KeyFormatError(
      'unsupported_key_format',
      `"BEGIN ${block.kind}" is not a certificate; give ${accepted}`,
    );
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(block.text);
  } catch (error) {
    throw new KeyFormatError(
      'invalid_key',
      'The CERTIFICATE PEM block cannot be read; check that it is complete',
      {
        cause: error,
      },
    );
  }
  const commonName = commonNameOf(certificate.subject);
  return {
    subject: certificate.subject,
    ...(commonName !== undefined && { commonName }),
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    notBefore: new Date(certificate.validFrom),
    notAfter: new Date(certificate.validTo),
    fingerprintSha256: certificate.fingerprint256,
  };
}
