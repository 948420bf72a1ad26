/**
 * The wire types of the widget API (`/widget-api/v1/...`) as the frame reads and writes them. The sandbox
 * declares its own (src/sandbox/legacy-orders.ts, src/sandbox/widget-api.ts); the frame may import only core
 * and lit, so the shapes are written again here and kept in step by the frame's tests against a real sandbox.
 */
import type {
  CustomerPrefill,
  Language,
  OrderConstraints,
  ShippingType,
  UncheckedOrderInput,
} from '../core/index.js';

/** A language code as the gateway writes it in a merchant's defaults: one of core's languages. */
export type WireLanguage = Language;

/** A pickup point a full-checkout widget offers. */
export interface PickupPointView {
  externalId: string;
  name: string;
  comments?: string;
  serviceHours?: string;
  /** Where it is, when the merchant's configuration says. */
  address?: { address: string; city: string; postalCode: string; country?: string };
}

/** `GET /widget-api/v1/widgets/:id`. */
export interface WidgetConfigView {
  id: string;
  type: 'INSTANT' | 'CHECKOUT';
  validation: 'SIGNATURE' | 'CALLBACK';
  collectCustomerData: boolean;
  merchant: { name: string; termsUrl: string };
  defaults: { currency: string; taxRate: string; language: WireLanguage };
  pickupPoints: PickupPointView[];
}

/** The state of an order at the gateway. */
export type OrderState =
  | 'CREATED'
  | 'CHALLENGE'
  | 'PAID'
  | 'FAILED'
  | 'CANCELLED'
  | 'REFUNDED'
  | 'PARTIALLY_REFUNDED';

/** One priced line of an order; amounts are decimal strings in major units (`12.50`). */
export interface OrderLineView {
  type: 'ITEM' | 'SHIPPING';
  label: string;
  unitAmount: string;
  count: string;
  unit: string;
  taxRate: string;
  total: string;
  tax: string;
}

/** A shipping option of an order, as the gateway describes it. */
export interface ShippingOptionView {
  id: string;
  /** What the customer reads: the merchant's label, else the id. */
  label: string;
  /** `PICKUP_POINT`: delivered to a pickup point the customer chooses, with no street address. */
  type: ShippingType;
  /** A decimal string; null for an option priced later by the merchant's shipping cost URL (until quoted). */
  amount: string | null;
  /**
   * The tax rate of its line as the gateway prices it (`0.21` or `21`): the option's own, else the one quoted,
   * else the merchant's default. The frame's VAT line computes the shipping tax with it, as the gateway does.
   */
  taxRate: string;
}

/** The public view of an order: never card data. */
export interface OrderView {
  /** The gateway's order id. */
  id: string;
  state: OrderState;
  /** The merchant's order id, when the page gave one. */
  orderId: string | null;
  currency: string;
  lines: OrderLineView[];
  total: string;
  tax: string;
  shippingOptions: ShippingOptionView[];
  constraints: OrderConstraints;
  collectCustomerData: boolean;
  backToMerchantUrl: string | null;
  lastError: { code: string; message: string } | null;
  /** The open 3-D Secure challenge of an order in `CHALLENGE`, when the gateway says it. */
  challengeId?: string | null;
}

/**
 * The answer of `POST /widget-api/v1/orders` (200) to an unsigned order (fixed-price or CALLBACK widget) whose
 * order id was paid on the widget before, with that content: a page reloaded after paying. The paid status
 * alone: no gateway id and nothing of the order, since anyone can send unsigned content naming an order id.
 */
export interface PaidReceipt {
  receipt: true;
  state: 'PAID';
  /** The merchant's order id, as the page gave it. */
  orderId: string;
}

/** `POST /widget-api/v1/orders`. */
export interface CreateOrderRequest {
  /** As the page gave it (the element's `init`): the gateway checks it. */
  order: UncheckedOrderInput;
  signature?: string;
  certificateName?: string;
  pageOrigin: string;
  customer: CustomerPrefill;
}

/** A delivery address as the widget API takes it. */
export interface AddressInput {
  address: string;
  city: string;
  postalCode: string;
  country?: string;
}

/**
 * `POST .../orders/:id/shipping-quotes`: an ADDRESS option with the customer's `address`, a PICKUP_POINT
 * option with `pickupPointId` and no address.
 */
export interface ShippingQuoteRequest {
  optionId: string;
  address?: AddressInput;
  pickupPointId?: string;
}

/** The price of a shipping option, decimal string in major units, and the tax rate of its line. */
export interface ShippingQuote {
  amount: string;
  currency: string;
  taxRate: string;
}

/** Customer data sent with a payment (full checkout): the fields the merchant may prefill. */
export type CustomerInput = CustomerPrefill;

/**
 * The delivery choice sent with a payment of an order with shipping options: only `optionId` on a plain
 * widget; on the full checkout the contact phone and, as the option's type asks, the address or the pickup point.
 */
export interface ShippingInput {
  optionId: string;
  address?: AddressInput;
  pickupPointId?: string;
  contactPhone?: string;
}

/**
 * `POST .../orders/:id/payments`. The only request that carries card data: in its body, to the gateway's
 * own origin, never in a URL.
 */
export interface PaymentRequest {
  idempotencyKey: string;
  card: { number: string; expiry: string; cvc: string; holder: string };
  customer?: CustomerInput;
  shipping?: ShippingInput;
}

/** A gateway error code with its reason. */
export interface GatewayFailure {
  code: string;
  message: string;
}

/** The answer to a payment, a challenge answer or a cancellation. */
export type PaymentResult =
  | { state: 'PAID'; order: OrderView }
  | { state: 'FAILED'; order: OrderView; error: GatewayFailure }
  | { state: 'CANCELLED'; order: OrderView }
  | { state: 'CHALLENGE'; order: OrderView; challengeId: string }
  | { state: 'RETRY'; order: OrderView; error: GatewayFailure };

/** The body of every 4xx and 5xx answer of the widget API. */
export interface ApiErrorBody {
  code: string;
  message: string;
  field?: string;
}
