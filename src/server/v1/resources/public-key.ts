/** `GET /public_key/`: the PEM of the company key that signs success callbacks. */
import type { V1PublicKey } from '../../../core/v1-types.js';
import { importPublicKey } from '../../keys.js';
import type { V1Core, V1RequestOptions } from '../client-core.js';
import { V1ApiError } from '../errors.js';

export function publicKeyCall({ send, urlOf }: V1Core) {
  return async function publicKey(callOptions?: V1RequestOptions): Promise<V1PublicKey> {
    const url = urlOf('/public_key/');
    let pem: unknown;
    try {
      pem = await send('GET', url, undefined, callOptions);
    } catch (error) {
      // A gateway may send the PEM as plain text rather than as a JSON string.
      const plainText =
        error instanceof V1ApiError && error.code === 'invalid_response' && typeof error.body === 'string';
      if (!plainText) throw error;
      pem = error.body;
    }
    try {
      if (typeof pem !== 'string') throw new TypeError('not a string');
      importPublicKey(pem);
    } catch (error) {
      throw new V1ApiError('invalid_response', 'GET /public_key/ did not answer an RSA public key PEM', {
        body: pem,
        cause: error,
      });
    }
    return pem;
  };
}
