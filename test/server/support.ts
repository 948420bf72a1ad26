/**
 * Shared pieces of the server tests: a loopback HTTP server, jsrsasign as the independent implementation
 * that checks what we sign and signs what we verify, and the v1 client's errors.
 */
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jsrsasign from 'jsrsasign';
import { V1ApiError, type V1ApiErrorCode } from '../../src/server/index.js';

/** A server listening on 127.0.0.1 at a free port, with its base URL. */
export async function listen(
  listener: RequestListener,
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

type JsrsasignAlgorithm = 'SHA256withRSA' | 'SHA384withRSA' | 'SHA512withRSA';

/** Base64 signature of a UTF-8 string, made by jsrsasign. */
export function independentSign(
  text: string,
  privateKeyPem: string,
  alg: JsrsasignAlgorithm = 'SHA256withRSA',
): string {
  const signature = new jsrsasign.KJUR.crypto.Signature({ alg });
  signature.init(privateKeyPem);
  signature.updateString(text);
  return Buffer.from(signature.sign(), 'hex').toString('base64');
}

/**
 * jsrsasign's reading of a public key PEM. jsrsasign takes SPKI and certificates itself; a PKCS#1 public
 * key (SEQUENCE { n, e }) is taken apart with its ASN.1 reader so node:crypto plays no part.
 */
function independentPublicKey(pem: string): jsrsasign.RSAKey | string {
  if (!pem.includes('BEGIN RSA PUBLIC KEY')) return pem;
  const { ASN1HEX, KEYUTIL } = jsrsasign;
  const hex = jsrsasign.pemtohex(pem, 'RSA PUBLIC KEY');
  const [n, e] = ASN1HEX.getChildIdx(hex, 0).map((index) => ASN1HEX.getV(hex, index));
  return KEYUTIL.getKey({ n: n!, e: e! }) as jsrsasign.RSAKey;
}

/** Checks a Base64 signature over a UTF-8 string with jsrsasign. */
export function independentVerify(
  text: string,
  signatureBase64: string,
  publicKeyOrCertificatePem: string,
  alg: JsrsasignAlgorithm = 'SHA256withRSA',
): boolean {
  const signature = new jsrsasign.KJUR.crypto.Signature({ alg });
  signature.init(independentPublicKey(publicKeyOrCertificatePem));
  signature.updateString(text);
  return signature.verify(Buffer.from(signatureBase64, 'base64').toString('hex'));
}

/** The V1ApiError a v1 client call rejected with, checked to be one with `code`. */
export async function failure(call: () => Promise<unknown>, code: V1ApiErrorCode): Promise<V1ApiError> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof V1ApiError, `expected a V1ApiError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected the call to fail with ${code}`);
}

/** A token made by jsrsasign alone, with any header and payload. */
export function independentToken(header: object, payload: object, key: string | { utf8: string }): string {
  return jsrsasign.KJUR.jws.JWS.sign(null, JSON.stringify(header), JSON.stringify(payload), key);
}
