/**
 * What the sandbox shares with the toolkit beyond `svc-checkout/server`: the sandbox is a gateway, so it reads
 * bodies, caches keys and checks JWS and certificates as the toolkit does, but these are no merchant's API and
 * stay out of the public entry. The sandbox imports the server part through this file and the public entry
 * only (`npm run lint`, rule `sandbox-imports-server-through-its-entries`).
 */
export { BoundedCache } from './bounded-cache.js';
export { type CertificateFields, certificateValidityError, issueCertificate } from './keys.js';
export { isCompactJws, jwsHeader, verifyRs256Jws } from './legacy/order-verification-token.js';
export {
  checkOptions,
  isFunction,
  isStringList,
  isText,
  type OptionRules,
  optional,
} from './options.js';
export { RequestBodyError, readNodeBody } from './raw-request.js';
export { signBodyAsync, verifyOrderSignatureAsync } from './signatures.js';
