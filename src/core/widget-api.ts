/**
 * The widget API (`/widget-api/v1/...`, ours; the gateway documents do not show it): what the payment frame
 * asks of the gateway, and what the gateway answers. The one description of that wire: the frame reads and
 * writes these shapes (src/frame/widget-api-client.ts), the sandbox parses the requests and sends the answers
 * (src/sandbox/legacy/widget-api-routes.ts). Amounts are decimal strings in major units (`12.50`).
 */
import type { CardScheme } from './card.js';
import type { CustomerPrefill } from './frame-channel.js';
import type { FrameMessages, Language } from './i18n.js';
import type { LegacyOrderStatus, OrderRejectionReason } from './legacy-callbacks.js';
import type { DecimalInput, OrderConstraints, ShippingType } from './order.js';
import type { UncheckedOrderInput } from './order-input-from-attributes.js';

/** A language code as the gateway writes it in a merchant's defaults: one of core's languages. */
export type WireLanguage = Language;

/** A delivery address as the widget API takes it, and as a pickup point's address reads. */
export interface AddressInput {
  /** Street and number. */
  address: string;
  city: string;
  postalCode: string;
  country?: string;
}

/** A pickup point a full-checkout widget offers. */
export interface PickupPointView {
  externalId: string;
  name: string;
  comments?: string;
  serviceHours?: string;
  /** Where it is, when the merchant's configuration says. */
  address?: AddressInput;
}

/** The priced fixed order of a fixed-price (INSTANT) widget, shown before an order exists. */
export interface FixedOrderSummary {
  currency: string;
  total: string;
  tax: string;
  lines: Array<{ label: string; total: string }>;
}

/** `GET /widget-api/v1/widgets/:id`. */
export interface WidgetConfigView {
  id: string;
  type: 'INSTANT' | 'CHECKOUT';
  validation: 'SIGNATURE' | 'CALLBACK';
  collectCustomerData: boolean;
  merchant: { name: string; termsUrl: string };
  /** The merchant's defaults as configured: the tax rate as written there (`0.21`, `"21"`). */
  defaults: { currency: string; taxRate: DecimalInput; language: WireLanguage };
  /** The page origins the merchant allows to take orders. */
  allowedOrigins: string[];
  pickupPoints: PickupPointView[];
  /**
   * The card schemes the widget takes (the sandbox config's `cardSchemes`; by default Visa and Mastercard).
   * The frame refuses other cards as they are typed, and the gateway refuses them at payment.
   */
  cardSchemes: Exclude<CardScheme, 'UNKNOWN'>[];
  /** The priced fixed order of an INSTANT widget; null for a CHECKOUT widget. */
  fixedOrder: FixedOrderSummary | null;
}

/**
 * What the gateway's frame page carries for the frame's first render, as JSON in a data block
 * (`<script type="application/json" id="svc-frame-bootstrap">`, which no policy runs): the widget's
 * configuration as `GET /widgets/:id` answers it, and the texts of the page's language. With them the card
 * form shows as the frame's code starts, with no request or chunk to wait for.
 */
export interface FrameBootstrap {
  config: WidgetConfigView;
  language: Language;
  texts: FrameMessages;
  /**
   * The page is a test gateway's (the sandbox's), which takes test cards only: the mark the frame shows on
   * every screen, by language, so that it follows the frame's. A production gateway leaves it out, and its
   * pages and catalogs carry none of these words.
   */
  testMode?: Readonly<Record<Language, string>>;
}

/** The id of the frame page's data block that holds its `FrameBootstrap`. */
export const FRAME_BOOTSTRAP_ID = 'svc-frame-bootstrap';

/** The state of an order at the gateway. */
export type OrderState = 'CREATED' | 'CHALLENGE' | LegacyOrderStatus;

/** One priced line of an order. */
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

/** A shipping option of an order, as the frame shows and prices it. */
export interface ShippingOptionView {
  id: string;
  /** The merchant's label, else the id: what the customer reads and the notification names. */
  label: string;
  /** `PICKUP_POINT`: delivered to a pickup point the customer chooses, with no street address. */
  type: ShippingType;
  /** Null for an option priced later by the merchant's shipping cost URL, until it is quoted. */
  amount: string | null;
  /**
   * The tax rate of its line as the gateway prices it (`0.21` or `21`): the option's own, else the one quoted,
   * else the merchant's default. The frame's VAT line computes the shipping tax with it, as the gateway does,
   * so that it is the notification's.
   */
  taxRate: string;
}

/** A gateway error code with its reason. */
export interface GatewayFailure {
  code: string;
  message: string;
}

/** The public view of an order: never card data, never merchant secrets. */
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
  lastError: GatewayFailure | null;
  /** The open 3-D Secure challenge while the state is CHALLENGE (else null), so a reloaded frame can show it. */
  challengeId: string | null;
}

/**
 * The answer of `POST /widget-api/v1/orders` (200) to an unsigned order (fixed-price or CALLBACK widget) whose
 * order id was paid on the widget before, with that content: a page reloaded after paying. The paid status
 * alone: no gateway id and nothing of the order (its amounts, lines and shipping may be another customer's),
 * since anyone can send unsigned content naming an order id.
 */
export interface PaidReceipt {
  receipt: true;
  state: 'PAID';
  /** The merchant's order id, as the page gave it. */
  orderId: string;
}

/** Customer data sent with an order or a payment (full checkout): the fields the merchant may prefill. */
export type CustomerInput = CustomerPrefill;

/** `POST /widget-api/v1/orders`: answered 201 with an {@link OrderView}, or 200 with a {@link PaidReceipt}. */
export interface CreateOrderRequest {
  /** As the page gave it (the element's `init`): the gateway checks it. */
  order: UncheckedOrderInput;
  signature?: string;
  /**
   * The page's `certificate-name`, for clients that send it beside the order rather than as
   * `order.certificateName` (as the element does); signed all the same, and refused when both differ.
   */
  certificateName?: string;
  /** Checked against the merchant's allowed origins when given. */
  pageOrigin?: string;
  customer?: CustomerInput;
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

/** The answer to a shipping quote: the option's price and the tax rate of its line. */
export interface ShippingQuote {
  amount: string;
  currency: string;
  taxRate: string;
}

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
  /** `holder` may be left out or empty. */
  card: { number: string; expiry: string; cvc: string; holder?: string };
  customer?: CustomerInput;
  shipping?: ShippingInput;
}

/** `POST .../orders/:id/challenges/:challengeId`: the customer's answer to the 3-D Secure test challenge. */
export interface ChallengeAnswer {
  approve: boolean;
}

/** The answer to a payment, a challenge answer or a cancellation (`POST .../orders/:id/cancel`). */
export type PaymentResult =
  | { state: 'PAID'; order: OrderView }
  | { state: 'FAILED'; order: OrderView; error: GatewayFailure }
  | { state: 'CANCELLED'; order: OrderView }
  | { state: 'CHALLENGE'; order: OrderView; challengeId: string }
  | { state: 'RETRY'; order: OrderView; error: GatewayFailure };

/** The error of a 4xx or 5xx answer: a code, its reason, and the request member at fault when there is one. */
export interface ApiError {
  code: string;
  message: string;
  field?: string;
  /** Why the merchant refused the order (`order_rejected` from a CALLBACK widget's verification). */
  reason?: OrderRejectionReason;
  /**
   * More for the merchant's developer than `message` says, such as which field the page added to a signed
   * order; the element logs it with the message. The frame takes it from `hint`, or from `details.finding`.
   */
  hint?: string;
  /**
   * The sandbox only, with `signature_invalid`: why the signature did not verify. For the developer's
   * console, never the shopper's eyes.
   */
  details?: SignatureDiagnosis;
}

/**
 * Why an order's signature did not verify (the sandbox's diagnosis): the text it checked, and the page's
 * field that made the difference, when leaving it out (or giving the merchant's default) verifies.
 */
export interface SignatureDiagnosis {
  /** The text the signature was checked against (counts `%.3f`, the official client's field order). */
  signedText: string;
  /** The field the page added or changed, such as `language` or `items[0].count`, when one was found. */
  field?: string;
  /** One sentence: what was found, or that no single field explains it. */
  finding: string;
}

/** The body of every 4xx and 5xx answer of the widget API. */
export interface ApiErrorBody {
  error: ApiError;
}
