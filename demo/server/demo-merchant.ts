/**
 * The shop's back end as the sandbox's demo merchant: the merchant app with the demo merchant's certificate
 * name and v1 credentials, which the sandbox's demo config fixes. One place, for `npm start`, for Vite run
 * beside `svc-sandbox`, and for the tests that start the back end again.
 */
import {
  DEMO_CERTIFICATE_NAME,
  DEMO_V1_BRAND_ID,
  DEMO_V1_SECRET_KEY,
  demoConfigFile,
} from 'svc-checkout/sandbox';
import { createMerchantApp, type FixedOrder, type MerchantApp } from '../merchant/merchant-app.js';

export interface DemoMerchantOptions {
  /** The demo merchant's private key (`<data dir>/demo-merchant/private-key.pem`). */
  privateKeyPem: string;
  /** The gateway's certificate. */
  serviceCertificatePem: string;
  /** The gateway's origin. */
  gatewayUrl: string;
  /** The shop's origin; without it there are no v1 routes, since they all lead back to the shop. */
  shopUrl?: string;
  /**
   * The back office's password. Default: the `DEMO_BACK_OFFICE_PASSWORD` environment variable, else one
   * generated (the caller prints `backOfficePassword`).
   */
  backOfficePassword?: string;
}

/**
 * What the demo merchant configured at the gateway, which its back end checks notifications with: the widget
 * defaults and the fixed-price widgets' orders, read from the sandbox's demo config (no key is needed for that).
 */
function demoMerchantSetup() {
  const [merchant] = demoConfigFile('').merchants;
  const fixedOrders: Record<string, FixedOrder> = {};
  for (const widget of merchant?.widgets ?? []) {
    if (widget.type === 'INSTANT' && widget.order) fixedOrders[widget.id] = widget.order;
  }
  const { currency, taxRate } = merchant?.defaults ?? {};
  if (currency === undefined || taxRate === undefined) throw new Error('The demo config names no defaults');
  return { orderDefaults: { currency, taxRate }, fixedOrders };
}

function backOfficePassword(options: DemoMerchantOptions): { backOfficePassword?: string } {
  const password = options.backOfficePassword ?? process.env['DEMO_BACK_OFFICE_PASSWORD'];
  return password === undefined || password === '' ? {} : { backOfficePassword: password };
}

/** The demo merchant's back end; call its `ready()` once the gateway listens. */
export function createDemoMerchantApp(options: DemoMerchantOptions): MerchantApp {
  return createMerchantApp({
    privateKeyPem: options.privateKeyPem,
    serviceCertificatePem: options.serviceCertificatePem,
    certificateName: DEMO_CERTIFICATE_NAME,
    ...demoMerchantSetup(),
    ...backOfficePassword(options),
    ...(options.shopUrl !== undefined && {
      shopUrl: options.shopUrl,
      gatewayUrl: options.gatewayUrl,
      v1Credentials: { secretKey: DEMO_V1_SECRET_KEY, brandId: DEMO_V1_BRAND_ID },
    }),
  });
}
