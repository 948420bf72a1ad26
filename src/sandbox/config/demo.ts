/**
 * The demo merchant, which the sandbox runs when no config is given: its ids and keys (fixed, so the demo shop
 * and tests can name them), its config, and its key pair kept in the data dir.
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MAX_PEM_FILE_BYTES, readTextFileIfPresent, writeTextFileAtomic } from '../text-file.js';
import { ConfigError, errorText } from './config-error.js';
import { parseConfig } from './read.js';
import { TEST_CREDITORS } from './test-creditors.js';
import type { SandboxConfig, SandboxConfigFile } from './types.js';

/** The demo merchant's id. */
export const DEMO_MERCHANT_ID = 'demo-merchant';
/** The demo merchant's merchant API v2 key. */
export const DEMO_API_KEY = 'demo-api-key';
/** The demo merchant's v1 secret key (bearer token). */
export const DEMO_V1_SECRET_KEY = 'demo-v1-secret-key';
/** The demo merchant's v1 brand id. */
export const DEMO_V1_BRAND_ID = 'de300000-0000-4000-8000-0000000000b1';
/** The name of the demo merchant's certificate: the public half of the key pair in the data dir. */
export const DEMO_CERTIFICATE_NAME = 'demo';
/** Where the demo shop runs (Vite's dev server). */
export const DEMO_SHOP_ORIGIN = 'http://localhost:5173';

/** Paths on the demo shop's origin that the sandbox calls back; the demo shop serves them. */
export const DEMO_CALLBACK_PATHS = {
  notification: '/api/notification',
  terms: '/api/terms',
  shippingCost: '/api/shipping-cost',
  orderVerification: '/api/order-verification',
  connectionTest: '/api/connection-test',
} as const;

/** The demo merchant's widgets, with fixed ids that the demo shop and tests can name. */
export const DEMO_WIDGET_IDS = {
  /** INSTANT: a fixed-price order kept in the config. */
  instant: 'de300000-0000-4000-8000-000000000001',
  /** CHECKOUT, signed orders: the widget as a payment option. */
  checkout: 'de300000-0000-4000-8000-000000000002',
  /** CHECKOUT, signed orders, collects customer and delivery data, with pickup points: the full checkout. */
  fullCheckout: 'de300000-0000-4000-8000-000000000003',
  /** CHECKOUT whose orders the merchant approves through the order verification URL. */
  callbackValidation: 'de300000-0000-4000-8000-000000000004',
} as const;

/** The demo merchant's config file, with `publicKeyPem` as its certificate `demo`. */
export function demoConfigFile(
  publicKeyPem: string,
  shopOrigin: string = DEMO_SHOP_ORIGIN,
): SandboxConfigFile {
  const callback = (path: string) => `${shopOrigin}${path}`;
  return {
    merchants: [
      {
        id: DEMO_MERCHANT_ID,
        name: 'Demo Shop',
        apiKey: DEMO_API_KEY,
        company: {
          name: 'Demo Shop SIA',
          address: 'Brīvības iela 1, Rīga, LV-1010',
          registrationNumber: '40000000000',
          vatNumber: 'LV40000000000',
        },
        v1: {
          secretKey: DEMO_V1_SECRET_KEY,
          brandId: DEMO_V1_BRAND_ID,
          creditors: TEST_CREDITORS.map((creditor) => ({ ...creditor })),
          variableCreditor: true,
        },
        defaults: { currency: 'EUR', taxRate: '0.21', language: 'en' },
        // A page on any local port works at once; the origins below are the demo shop's own.
        allowLoopbackOrigins: true,
        allowedOrigins: [
          ...new Set([
            shopOrigin,
            'http://localhost:5173',
            'http://127.0.0.1:5173',
            'http://localhost:4173',
            'http://127.0.0.1:4173',
          ]),
        ],
        callbacks: {
          notificationUrl: callback(DEMO_CALLBACK_PATHS.notification),
          termsUrl: callback(DEMO_CALLBACK_PATHS.terms),
          shippingCostUrl: callback(DEMO_CALLBACK_PATHS.shippingCost),
          orderVerificationUrl: callback(DEMO_CALLBACK_PATHS.orderVerification),
          connectionTestUrl: callback(DEMO_CALLBACK_PATHS.connectionTest),
        },
        certificates: [{ name: DEMO_CERTIFICATE_NAME, pem: publicKeyPem }],
        widgets: [
          {
            id: DEMO_WIDGET_IDS.instant,
            type: 'INSTANT',
            order: {
              items: [{ amount: '15.00', label: 'Sandbox T-shirt', orderItemId: 'tshirt', count: 1 }],
            },
          },
          { id: DEMO_WIDGET_IDS.checkout, type: 'CHECKOUT', validation: 'SIGNATURE' },
          {
            id: DEMO_WIDGET_IDS.fullCheckout,
            type: 'CHECKOUT',
            validation: 'SIGNATURE',
            collectCustomerData: true,
            pickupPoints: [
              {
                externalId: 'riga-centre',
                name: 'Riga Centre parcel locker',
                comments: 'Beside the main entrance of the shopping centre',
                serviceHours: '24/7',
                address: {
                  address: 'Brīvības iela 68',
                  city: 'Rīga',
                  postalCode: 'LV-1011',
                  country: 'LV',
                  latitude: 56.9563,
                  longitude: 24.1205,
                },
              },
              {
                externalId: 'riga-old-town',
                name: 'Old Town shop',
                serviceHours: 'Mon-Fri 10-19, Sat 10-16',
                address: { address: 'Audēju iela 16', city: 'Rīga', postalCode: 'LV-1050', country: 'LV' },
              },
            ],
          },
          { id: DEMO_WIDGET_IDS.callbackValidation, type: 'CHECKOUT', validation: 'CALLBACK' },
        ],
      },
    ],
  };
}

/** The config the sandbox runs with when none is given: the demo merchant, checked like any config. */
export function demoConfig(options: { publicKeyPem: string; shopOrigin?: string }): SandboxConfig {
  return parseConfig(demoConfigFile(options.publicKeyPem, options.shopOrigin), { source: 'demo config' });
}

/** The demo merchant's key pair as kept in the data dir. */
export interface DemoMerchantKeys {
  privateKeyPem: string;
  publicKeyPem: string;
  /** `<dataDir>/demo-merchant/private-key.pem`: where the demo shop reads the key it signs orders with. */
  privateKeyFile: string;
  publicKeyFile: string;
  /** Whether this call generated the pair (false when it was already there). */
  created: boolean;
}

/**
 * Returns the demo merchant's RSA 2048 key pair, generating it on first use into
 * `<dataDir>/demo-merchant/` (private key PKCS#8 PEM, mode 0600; public key SPKI PEM beside it). Kept
 * across restarts so that a demo shop that read the key once keeps working.
 * @throws ConfigError `unreadable_config` when a key file is there but cannot be read or is not a key.
 */
export function ensureDemoMerchantKeys(dataDir: string): DemoMerchantKeys {
  const dir = join(resolve(dataDir), DEMO_MERCHANT_ID);
  const privateKeyFile = join(dir, 'private-key.pem');
  const publicKeyFile = join(dir, 'public-key.pem');
  let privateKeyPem: string | undefined;
  try {
    privateKeyPem = readTextFileIfPresent(privateKeyFile, MAX_PEM_FILE_BYTES);
  } catch (error) {
    throw new ConfigError('unreadable_config', privateKeyFile, [{ path: '', message: errorText(error) }]);
  }
  if (privateKeyPem !== undefined) {
    let publicKeyPem: string;
    try {
      publicKeyPem = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
    } catch (error) {
      throw new ConfigError('unreadable_config', privateKeyFile, [
        {
          path: '',
          message: `is not a private key PEM (${errorText(error)}); delete it to have a new pair made`,
        },
      ]);
    }
    if (readTextFileIfPresent(publicKeyFile, MAX_PEM_FILE_BYTES) !== publicKeyPem)
      writeTextFileAtomic(publicKeyFile, publicKeyPem, 0o644);
    return { privateKeyPem, publicKeyPem, privateKeyFile, publicKeyFile, created: false };
  }
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeTextFileAtomic(privateKeyFile, pair.privateKey, 0o600);
  writeTextFileAtomic(publicKeyFile, pair.publicKey, 0o644);
  return {
    privateKeyPem: pair.privateKey,
    publicKeyPem: pair.publicKey,
    privateKeyFile,
    publicKeyFile,
    created: true,
  };
}
