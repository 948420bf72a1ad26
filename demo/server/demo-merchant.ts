/**
 * The shop's back end as the sandbox's demo merchant: the merchant app with the demo merchant's certificate
 * name and v1 credentials, which the sandbox's demo config fixes. One place, for `npm start`, for Vite run
 * beside `svc-sandbox`, and for the tests that start the back end again.
 */
import { DEMO_CERTIFICATE_NAME, DEMO_V1_BRAND_ID, DEMO_V1_SECRET_KEY } from '../../src/sandbox/config.js';
import { createMerchantApp, type MerchantApp } from '../merchant/merchant-app.js';

export interface DemoMerchantOptions {
  /** The demo merchant's private key (`<data dir>/demo-merchant/private-key.pem`). */
  privateKeyPem: string;
  /** The gateway's certificate. */
  serviceCertificatePem: string;
  /** The gateway's origin. */
  gatewayUrl: string;
  /** The shop's origin; without it there are no v1 routes, since they all lead back to the shop. */
  shopUrl?: string;
}

/** The demo merchant's back end; call its `ready()` once the gateway listens. */
export function createDemoMerchantApp(options: DemoMerchantOptions): MerchantApp {
  return createMerchantApp({
    privateKeyPem: options.privateKeyPem,
    serviceCertificatePem: options.serviceCertificatePem,
    certificateName: DEMO_CERTIFICATE_NAME,
    ...(options.shopUrl !== undefined && {
      shopUrl: options.shopUrl,
      gatewayUrl: options.gatewayUrl,
      v1Credentials: { secretKey: DEMO_V1_SECRET_KEY, brandId: DEMO_V1_BRAND_ID },
    }),
  });
}
