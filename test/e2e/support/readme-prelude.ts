/**
 * What the README's `ts` examples take from around them: each names its share in its marker
 * (`<!-- example: ts name=… uses=app,privateKeyPem -->`), and the test imports exactly those names from this
 * module into the example. The bindings are live: the test sets them with {@link provide} before it runs the
 * example. Typed with the packages' own types only, so that the example is typechecked as a merchant's code
 * against the built package.
 */
import type { createClient } from '@redis/client';
import type { Express } from 'express';
import type { OrderInput } from 'svc-checkout/server';

/** A node-redis client, as a merchant creates it. */
export type RedisClient = ReturnType<typeof createClient>;

/** Everything an example may use, by name. */
export interface Prelude {
  /** The shop's Express app, listening where the sandbox's config sends the callbacks. */
  app: Express;
  /** The plain checkout widget's id from the sandbox config. */
  widgetId: string;
  /** The merchant's private key, made by the README's `keys` example. */
  privateKeyPem: string;
  /** The gateway's certificate, which checks notifications and callbacks. */
  gatewayCertificatePem: string;
  /** The merchant's id, merchant API v2 key, v1 secret key and brand id from the sandbox config. */
  merchantId: string;
  apiKey: string;
  secretKey: string;
  brandId: string;
  /** A paid order's gateway id. */
  orderId: string;
  /** v1 Purchases of 25.00 paid at checkout with a test card: two on hold (`skip_capture`), one paid, and one
   * paid with `force_recurring` (a recurring token). */
  heldId: string;
  otherHeldId: string;
  paidId: string;
  tokenId: string;
  /** A v1 Client who paid once with `force_recurring`: one saved card. */
  clientId: string;
  /** Another v1 Client of the account. */
  otherClientId: string;
  /** A client of a real redis-server. */
  redisClient: RedisClient;
  /** The shop's own bookkeeping: records that an order was paid. */
  markPaid: (orderId: string | null, amount?: string) => Promise<void>;
  /** The shop's own records: the order it signed under this merchant order id, as given to `signOrder`. */
  signedOrder: (orderId: string | null) => Promise<OrderInput | undefined>;
}

export let app: Prelude['app'];
export let widgetId: Prelude['widgetId'];
export let privateKeyPem: Prelude['privateKeyPem'];
export let gatewayCertificatePem: Prelude['gatewayCertificatePem'];
export let merchantId: Prelude['merchantId'];
export let apiKey: Prelude['apiKey'];
export let secretKey: Prelude['secretKey'];
export let brandId: Prelude['brandId'];
export let orderId: Prelude['orderId'];
export let heldId: Prelude['heldId'];
export let otherHeldId: Prelude['otherHeldId'];
export let paidId: Prelude['paidId'];
export let tokenId: Prelude['tokenId'];
export let clientId: Prelude['clientId'];
export let otherClientId: Prelude['otherClientId'];
export let redisClient: Prelude['redisClient'];
export let markPaid: Prelude['markPaid'];
export let signedOrder: Prelude['signedOrder'];

/** The names an example may list in `uses=`. */
export const PRELUDE_NAMES: ReadonlyArray<keyof Prelude> = [
  'app',
  'widgetId',
  'privateKeyPem',
  'gatewayCertificatePem',
  'merchantId',
  'apiKey',
  'secretKey',
  'brandId',
  'orderId',
  'heldId',
  'otherHeldId',
  'paidId',
  'tokenId',
  'clientId',
  'otherClientId',
  'redisClient',
  'markPaid',
  'signedOrder',
];

const provided = new Set<keyof Prelude>();

/** Sets bindings for the examples that run next. */
export function provide(values: Partial<Prelude>): void {
  if (values.app !== undefined) app = values.app;
  if (values.widgetId !== undefined) widgetId = values.widgetId;
  if (values.privateKeyPem !== undefined) privateKeyPem = values.privateKeyPem;
  if (values.gatewayCertificatePem !== undefined) gatewayCertificatePem = values.gatewayCertificatePem;
  if (values.merchantId !== undefined) merchantId = values.merchantId;
  if (values.apiKey !== undefined) apiKey = values.apiKey;
  if (values.secretKey !== undefined) secretKey = values.secretKey;
  if (values.brandId !== undefined) brandId = values.brandId;
  if (values.orderId !== undefined) orderId = values.orderId;
  if (values.heldId !== undefined) heldId = values.heldId;
  if (values.otherHeldId !== undefined) otherHeldId = values.otherHeldId;
  if (values.paidId !== undefined) paidId = values.paidId;
  if (values.tokenId !== undefined) tokenId = values.tokenId;
  if (values.clientId !== undefined) clientId = values.clientId;
  if (values.otherClientId !== undefined) otherClientId = values.otherClientId;
  if (values.redisClient !== undefined) redisClient = values.redisClient;
  if (values.markPaid !== undefined) markPaid = values.markPaid;
  if (values.signedOrder !== undefined) signedOrder = values.signedOrder;
  for (const name of Object.keys(values) as Array<keyof Prelude>) provided.add(name);
}

/** The names of `uses` that have no value yet. */
export function missing(uses: readonly string[]): string[] {
  return uses.filter((name) => !provided.has(name as keyof Prelude));
}
