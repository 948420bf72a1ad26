/**
 * The legacy order model: what a merchant writes (attributes, `order` JSON, or the server toolkit's order
 * object), read into exact values with every problem named by its field.
 */
import { parseDecimal } from './decimal.js';
import { SvcError } from './errors.js';
import { AmountError, type MinorUnits, parseMinorUnits } from './money.js';
import { isPlainObject } from './plain-object.js';

/** Units of measure the gateway knows. */
export const UNITS = ['PIECE', 'KILOGRAM', 'METER', 'LITRE', 'HOUR'] as const;
export type Unit = (typeof UNITS)[number];

/** A decimal as a merchant writes it: a JSON number or a decimal string. */
export type DecimalInput = number | string;

/**
 * One item as the merchant writes it. `amount` is the unit price with tax included, in major units. `null`
 * for an optional member is "not given", as the official PHP client writes every member it was not given.
 */
export interface OrderItemInput {
  amount: DecimalInput;
  currency?: string | null;
  label: string;
  /** `0.21` or `21` (a value above 1 is a percentage). */
  taxRate?: DecimalInput | null;
  orderItemId?: string | number | null;
  count?: DecimalInput | null;
  unit?: Unit | null;
}

/** How a shipping option delivers: to the customer's address, or to one of the widget's pickup points. */
export const SHIPPING_TYPES = ['ADDRESS', 'PICKUP_POINT'] as const;
export type ShippingType = (typeof SHIPPING_TYPES)[number];

/**
 * A shipping option; one with only `id` is priced later through the merchant's shipping cost URL.
 * `title` and `excludeFromOrderIfFree` (the official client's members), `label` and `type` (ours) are not
 * part of the signature input. `null` for an optional member is "not given".
 */
export interface ShippingOptionInput {
  id: string;
  amount?: DecimalInput | null;
  currency?: string | null;
  taxRate?: DecimalInput | null;
  /** The name the customer reads (and the notification's `shipping.method.name`); the id when absent. */
  title?: string | null;
  /** The same as `title`, kept for orders written before `title`; when both are given they must be equal. */
  label?: string | null;
  /**
   * `true`: once chosen at price 0 (its `amount`, or the price the shipping cost URL quotes), the option adds
   * no shipping line to the order's items in the notification and merchant API v2.
   */
  excludeFromOrderIfFree?: boolean | null;
  /**
   * `ADDRESS` (the default): delivered to the address the customer gives. `PICKUP_POINT`: delivered to one of
   * the widget's pickup points, which the customer must choose; no street address is asked for.
   */
  type?: ShippingType | null;
}

/** Card constraints: only cards matching every given value are accepted. */
export interface OrderConstraints {
  issuer?: string;
  brand?: string;
  paymentScheme?: string;
}

/** Card constraints as the merchant writes them: `null` is "not given". */
export type OrderConstraintsInput = {
  [Member in keyof OrderConstraints]?: OrderConstraints[Member] | null;
};

/**
 * The `order` attribute's JSON, as the official PHP client prints it: `orderId` there is the `order-id`
 * attribute's alternative (signed as the order id). `null` for an optional member is "not given".
 */
export interface OrderJson {
  orderId?: string | null;
  items: OrderItemInput[];
  shippingOptions?: ShippingOptionInput[];
  constraints?: OrderConstraintsInput | null;
}

/**
 * An order with the element-level fields beside it, values as the merchant wrote them: what is signed.
 * `orderId` is the `order-id` attribute or the order JSON's `orderId`.
 */
export interface OrderInput extends OrderJson {
  widgetId: string;
  language?: string;
  /**
   * The `certificate-name` attribute: the merchant certificate whose key signed the order. Signed when given;
   * without it, any active certificate of the merchant may verify the signature.
   */
  certificateName?: string;
  /** The `success-redirect-url` attribute: where the customer goes after paying (absolute http(s) URL). */
  successRedirectUrl?: string;
  backToMerchantUrl?: string;
}

/** A quantity read exactly: `thousandths / 1000`, and the text as the merchant wrote it. */
export interface Quantity {
  thousandths: number;
  text: string;
}

/** A tax rate read exactly: the fraction in parts per million, and the text as the merchant wrote it. */
export interface TaxRate {
  ppm: number;
  text: string;
}

export interface OrderItem {
  amount: MinorUnits;
  currency?: string;
  label: string;
  taxRate?: TaxRate;
  orderItemId?: string;
  count: Quantity;
  unit: Unit;
}

export interface ShippingOption {
  id: string;
  /** Absent when the price comes from the merchant's shipping cost URL. */
  amount?: MinorUnits;
  currency?: string;
  taxRate?: TaxRate;
  /** `title` (or its alias `label`) as the merchant wrote it; absent when not given (readers show the id). */
  title?: string;
  /** Whether the option, chosen at price 0, adds no shipping line to the order's items. */
  excludeFromOrderIfFree: boolean;
  /** `ADDRESS` when not given. */
  type: ShippingType;
}

/** A validated order. `input` keeps the merchant's own values, which are what the signature covers. */
export interface Order {
  input: OrderInput;
  items: OrderItem[];
  shippingOptions: ShippingOption[];
  constraints: OrderConstraints;
  /** The one currency the order names, if any item or option names one. */
  currency?: string;
}

/** What is wrong with one field. */
export type OrderIssueCode =
  | 'required'
  | 'wrong_type'
  | 'unknown_member'
  | 'not_a_decimal'
  | 'too_many_decimals'
  | 'too_large'
  | 'negative'
  | 'not_positive'
  | 'not_whole'
  | 'unknown_unit'
  | 'unknown_shipping_type'
  | 'tax_rate_range'
  | 'invalid_currency'
  | 'currency_mismatch'
  | 'duplicate_id'
  | 'conflicting_values'
  | 'too_long'
  | 'invalid_url'
  | 'invalid_json';

export interface OrderIssue {
  /** The field, as a path into the order: `items[1].amount`, `shippingOptions[0].id`, `widgetId`. */
  path: string;
  code: OrderIssueCode;
  /** Names the field and says what to write instead. */
  message: string;
}

/** An order that cannot be used, with every problem found. */
export class OrderValidationError extends SvcError<'invalid_order'> {
  readonly issues: readonly OrderIssue[];

  constructor(issues: readonly OrderIssue[]) {
    const shown = issues.slice(0, 5).map((issue) => issue.message);
    const more = issues.length > shown.length ? ` (and ${issues.length - shown.length} more)` : '';
    super('invalid_order', `Invalid order: ${shown.join('; ')}${more}`);
    this.issues = issues;
  }
}

const MAX_LABEL_LENGTH = 500;
const MAX_ID_LENGTH = 255;
/** The longest `certificateName`: a certificate's name is as long as an id at most. */
export const CERTIFICATE_NAME_MAX_LENGTH = MAX_ID_LENGTH;
const MAX_COUNT_THOUSANDTHS = 10 ** 9;
const CURRENCY = /^[A-Z]{3}$/;

const ORDER_MEMBERS = new Set([
  'widgetId',
  'language',
  'certificateName',
  'successRedirectUrl',
  'backToMerchantUrl',
  'orderId',
  'items',
  'shippingOptions',
  'constraints',
]);
const ITEM_MEMBERS = new Set(['amount', 'currency', 'label', 'taxRate', 'orderItemId', 'count', 'unit']);
const SHIPPING_MEMBERS = new Set([
  'id',
  'amount',
  'currency',
  'taxRate',
  'title',
  'label',
  'excludeFromOrderIfFree',
  'type',
]);
const CONSTRAINT_MEMBERS = new Set(['issuer', 'brand', 'paymentScheme']);

type Fields = Record<string, unknown>;

/**
 * One tax rate that was given, as orders read it, or its issue. Apart from `Reader`, so that `parseTaxRate`
 * (which the payment frame uses) does not take the whole order reader into a browser bundle.
 */
function readTaxRate(value: unknown, path: string): TaxRate | OrderIssue {
  const issue = (code: OrderIssueCode, message: string): OrderIssue => ({
    path,
    code,
    message: `${path}: ${message}`,
  });
  const rate = parseDecimal(value);
  if (!rate) return issue('not_a_decimal', `${JSON.stringify(value)} is not a rate; write 0.21 or 21`);
  if (rate.units < 0n) return issue('tax_rate_range', `${rate.text} is negative`);
  // A value above 1 is a percentage: 21 means 0.21.
  const isPercentage = rate.units > 10n ** BigInt(rate.scale);
  const maxScale = isPercentage ? 4 : 6;
  if (rate.scale > maxScale) {
    return issue('too_many_decimals', `${rate.text} has more than ${maxScale} decimals`);
  }
  const ppm = Number(rate.units * 10n ** BigInt((isPercentage ? 4 : 6) - rate.scale));
  if (ppm > 1_000_000) {
    return issue('tax_rate_range', `${rate.text} is above 100%; write a rate such as 0.21 or 21`);
  }
  return { ppm, text: rate.text };
}

/** What the order's reader refuses in a text it takes: a blank one, or one longer than its limit. */
type TextProblem = 'blank' | 'too_long';

function textProblem(text: string, max: number): TextProblem | undefined {
  if (text.trim() === '') return 'blank';
  return text.length > max ? 'too_long' : undefined;
}

/**
 * What the order's reader refuses in its `certificateName` (blank, or over
 * {@link CERTIFICATE_NAME_MAX_LENGTH} characters), for those that take the name beside the order too, so that
 * neither form takes a name the other refuses; each says it in its own error's words.
 */
export function certificateNameProblem(name: string): TextProblem | undefined {
  return textProblem(name, CERTIFICATE_NAME_MAX_LENGTH);
}

/** Collects issues while one order is read. */
class Reader {
  readonly issues: OrderIssue[] = [];

  add(path: string, code: OrderIssueCode, message: string): undefined {
    this.issues.push({ path, code, message: `${path}: ${message}` });
    return undefined;
  }

  members(value: Fields, allowed: Set<string>, path: string): void {
    for (const key of Object.keys(value)) {
      if (!allowed.has(key)) {
        const prefix = path ? `${path}.` : '';
        this.add(`${prefix}${key}`, 'unknown_member', `is not a member here; use ${[...allowed].join(', ')}`);
      }
    }
  }

  text(value: unknown, path: string, required: boolean, max = MAX_ID_LENGTH): string | undefined {
    if (value === undefined || value === null || value === '') {
      return required ? this.add(path, 'required', 'is required') : undefined;
    }
    if (typeof value !== 'string')
      return this.add(path, 'wrong_type', `must be a string, not ${typeof value}`);
    const problem = textProblem(value, max);
    if (problem === 'blank') return this.add(path, 'required', 'is blank');
    if (problem === 'too_long')
      return this.add(path, 'too_long', `is ${value.length} characters long; at most ${max}`);
    return value;
  }

  amount(value: unknown, path: string): MinorUnits | undefined {
    try {
      const minor = parseMinorUnits(value);
      if (minor < 0) return this.add(path, 'negative', `${String(value)} is negative; amounts are 0 or more`);
      return minor;
    } catch (error) {
      if (error instanceof AmountError) return this.add(path, error.code, error.message);
      throw error;
    }
  }

  currency(value: unknown, path: string): string | undefined {
    const text = this.text(value, path, false);
    if (text === undefined) return undefined;
    if (!CURRENCY.test(text)) {
      return this.add(
        path,
        'invalid_currency',
        `${JSON.stringify(text)} is not an ISO 4217 code such as EUR`,
      );
    }
    return text;
  }

  taxRate(value: unknown, path: string): TaxRate | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    const rate = readTaxRate(value, path);
    if ('ppm' in rate) return rate;
    this.issues.push(rate);
    return undefined;
  }

  count(value: unknown, unit: Unit | undefined, path: string): Quantity | undefined {
    if (value === undefined || value === null || value === '') return { thousandths: 1000, text: '1' };
    const count = parseDecimal(value);
    if (!count)
      return this.add(path, 'not_a_decimal', `${JSON.stringify(value)} is not a number; write 1 or 1.5`);
    if (count.units <= 0n) return this.add(path, 'not_positive', `${count.text} must be greater than 0`);
    if (count.scale > 3) return this.add(path, 'too_many_decimals', `${count.text} has more than 3 decimals`);
    const thousandths = count.units * 10n ** BigInt(3 - count.scale);
    if (thousandths > BigInt(MAX_COUNT_THOUSANDTHS))
      return this.add(path, 'too_large', `${count.text} is too large`);
    if ((unit ?? 'PIECE') === 'PIECE' && thousandths % 1000n !== 0n) {
      return this.add(
        path,
        'not_whole',
        `${count.text} pieces is not a whole number; use a unit such as KILOGRAM`,
      );
    }
    return { thousandths: Number(thousandths), text: count.text };
  }

  unit(value: unknown, path: string): Unit | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'string' && (UNITS as readonly string[]).includes(value)) return value as Unit;
    return this.add(
      path,
      'unknown_unit',
      `${JSON.stringify(value)} is not a unit; use one of ${UNITS.join(', ')}`,
    );
  }

  flag(value: unknown, path: string): boolean | undefined {
    if (value === undefined || value === null) return false;
    if (typeof value === 'boolean') return value;
    return this.add(path, 'wrong_type', `must be true, false or null, not ${JSON.stringify(value)}`);
  }

  shippingType(value: unknown, path: string): ShippingType | undefined {
    if (value === undefined || value === null || value === '') return 'ADDRESS';
    if (typeof value === 'string' && (SHIPPING_TYPES as readonly string[]).includes(value))
      return value as ShippingType;
    return this.add(path, 'unknown_shipping_type', `must be ${SHIPPING_TYPES.join(' or ')}`);
  }

  url(value: unknown, path: string): string | undefined {
    const text = this.text(value, path, false, 2048);
    if (text === undefined) return undefined;
    try {
      const url = new URL(text);
      if (url.protocol === 'https:' || url.protocol === 'http:') return text;
    } catch {}
    return this.add(path, 'invalid_url', `${JSON.stringify(text)} is not an absolute http(s) URL`);
  }
}

function readItem(reader: Reader, value: unknown, path: string): OrderItem | undefined {
  if (!isPlainObject(value)) return reader.add(path, 'wrong_type', 'must be an object with amount and label');
  reader.members(value, ITEM_MEMBERS, path);
  const before = reader.issues.length;
  const amount =
    value['amount'] === undefined
      ? reader.add(`${path}.amount`, 'required', 'is required')
      : reader.amount(value['amount'], `${path}.amount`);
  const label = reader.text(value['label'], `${path}.label`, true, MAX_LABEL_LENGTH);
  const currency = reader.currency(value['currency'], `${path}.currency`);
  const taxRate = reader.taxRate(value['taxRate'], `${path}.taxRate`);
  const rawId = value['orderItemId'];
  const orderItemId = reader.text(
    typeof rawId === 'number' ? String(rawId) : rawId,
    `${path}.orderItemId`,
    false,
  );
  const unit = reader.unit(value['unit'], `${path}.unit`);
  const count = reader.count(value['count'], unit, `${path}.count`);
  if (reader.issues.length > before || amount === undefined || label === undefined || count === undefined)
    return undefined;
  return {
    amount,
    label,
    count,
    unit: unit ?? 'PIECE',
    ...(currency !== undefined && { currency }),
    ...(taxRate !== undefined && { taxRate }),
    ...(orderItemId !== undefined && { orderItemId }),
  };
}

function readShippingOption(reader: Reader, value: unknown, path: string): ShippingOption | undefined {
  if (!isPlainObject(value)) return reader.add(path, 'wrong_type', 'must be an object with an id');
  reader.members(value, SHIPPING_MEMBERS, path);
  const before = reader.issues.length;
  const id = reader.text(value['id'], `${path}.id`, true);
  const amount =
    value['amount'] === undefined || value['amount'] === null
      ? undefined
      : reader.amount(value['amount'], `${path}.amount`);
  const currency = reader.currency(value['currency'], `${path}.currency`);
  const taxRate = reader.taxRate(value['taxRate'], `${path}.taxRate`);
  const title = reader.text(value['title'], `${path}.title`, false, MAX_LABEL_LENGTH);
  const label = reader.text(value['label'], `${path}.label`, false, MAX_LABEL_LENGTH);
  if (title !== undefined && label !== undefined && title !== label) {
    reader.add(
      `${path}.title`,
      'conflicting_values',
      `${JSON.stringify(title)} and ${path}.label ${JSON.stringify(label)} differ; label is an alias of title: give title alone`,
    );
  }
  const excludeFromOrderIfFree = reader.flag(
    value['excludeFromOrderIfFree'],
    `${path}.excludeFromOrderIfFree`,
  );
  const type = reader.shippingType(value['type'], `${path}.type`);
  if (
    reader.issues.length > before ||
    id === undefined ||
    type === undefined ||
    excludeFromOrderIfFree === undefined
  )
    return undefined;
  const name = title ?? label;
  return {
    id,
    type,
    excludeFromOrderIfFree,
    ...(amount !== undefined && { amount }),
    ...(currency !== undefined && { currency }),
    ...(taxRate !== undefined && { taxRate }),
    ...(name !== undefined && { title: name }),
  };
}

function readConstraints(reader: Reader, value: unknown): OrderConstraints {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) {
    reader.add('constraints', 'wrong_type', 'must be an object with issuer, brand or paymentScheme');
    return {};
  }
  reader.members(value, CONSTRAINT_MEMBERS, 'constraints');
  const constraints: OrderConstraints = {};
  for (const key of CONSTRAINT_MEMBERS) {
    const text = reader.text(value[key], `constraints.${key}`, false);
    if (text !== undefined) constraints[key as keyof OrderConstraints] = text;
  }
  return constraints;
}

/** The members that are not `null`: the order JSON's `null` is "not given", and readers need see only one form. */
function givenOnly(value: Fields): Fields {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null));
}

/** A valid order's input with every `null` member (of the order, its items, options and constraints) left out. */
function withoutNulls(input: Fields): Fields {
  const given = givenOnly(input);
  for (const list of ['items', 'shippingOptions'] as const) {
    const entries = given[list];
    if (Array.isArray(entries)) given[list] = entries.map((entry: Fields) => givenOnly(entry));
  }
  if (isPlainObject(given['constraints'])) given['constraints'] = givenOnly(given['constraints']);
  return given;
}

/**
 * Reads and validates an order, collecting every problem rather than stopping at the first.
 * An order may have no items: a fixed-price widget's order lives in the gateway, not on the page. `null`
 * for an optional member is "not given" (the official PHP client writes every member so), and the order's
 * `input` leaves it out.
 */
export function parseOrder(
  input: unknown,
): { value: Order; error?: undefined } | { value?: undefined; error: OrderValidationError } {
  const reader = new Reader();
  if (!isPlainObject(input)) {
    reader.add('order', 'wrong_type', 'must be an object with widgetId and items');
    return { error: new OrderValidationError(reader.issues) };
  }
  reader.members(input, ORDER_MEMBERS, '');
  const widgetId = reader.text(input['widgetId'], 'widgetId', true);
  reader.text(input['language'], 'language', false, 16);
  reader.text(input['certificateName'], 'certificateName', false, CERTIFICATE_NAME_MAX_LENGTH);
  reader.url(input['successRedirectUrl'], 'successRedirectUrl');
  reader.url(input['backToMerchantUrl'], 'backToMerchantUrl');
  const rawOrderId = input['orderId'];
  // The official client prints the id as the merchant set it: a number for an integer id.
  const orderId = reader.text(
    typeof rawOrderId === 'number' && Number.isSafeInteger(rawOrderId) ? String(rawOrderId) : rawOrderId,
    'orderId',
    false,
  );

  const items: OrderItem[] = [];
  const rawItems = input['items'] ?? [];
  if (!Array.isArray(rawItems)) reader.add('items', 'wrong_type', 'must be an array of items');
  else
    rawItems.forEach((raw, index) => {
      const item = readItem(reader, raw, `items[${index}]`);
      if (item) items.push(item);
    });

  const shippingOptions: ShippingOption[] = [];
  const rawOptions = input['shippingOptions'] ?? [];
  if (!Array.isArray(rawOptions))
    reader.add('shippingOptions', 'wrong_type', 'must be an array of shipping options');
  else {
    const seen = new Set<string>();
    rawOptions.forEach((raw, index) => {
      const option = readShippingOption(reader, raw, `shippingOptions[${index}]`);
      if (!option) return;
      if (seen.has(option.id))
        reader.add(
          `shippingOptions[${index}].id`,
          'duplicate_id',
          `${JSON.stringify(option.id)} is used twice`,
        );
      seen.add(option.id);
      shippingOptions.push(option);
    });
  }
  const constraints = readConstraints(reader, input['constraints']);

  const currencies = [...items, ...shippingOptions]
    .map((entry) => entry.currency)
    .filter((c) => c !== undefined);
  const currency = currencies[0];
  if (currencies.some((c) => c !== currency)) {
    reader.add(
      'currency',
      'currency_mismatch',
      `an order takes one currency, and this one names ${[...new Set(currencies)].join(' and ')}`,
    );
  }

  if (reader.issues.length > 0 || widgetId === undefined)
    return { error: new OrderValidationError(reader.issues) };
  return {
    value: {
      input: {
        ...withoutNulls(input),
        ...(orderId !== undefined && { orderId }),
      } as unknown as OrderInput,
      items,
      shippingOptions,
      constraints,
      ...(currency !== undefined && { currency }),
    },
  };
}

/**
 * Reads one tax rate (`0.21`, `21`, `"5.5"`) as the order model does; for defaults kept outside an order.
 * @throws OrderValidationError naming `path` when the rate is missing or invalid.
 */
export function parseTaxRate(value: unknown, path = 'taxRate'): TaxRate {
  const rate =
    value === undefined || value === null || value === ''
      ? { path, code: 'required' as const, message: `${path}: is required` }
      : readTaxRate(value, path);
  if ('code' in rate) throw new OrderValidationError([rate]);
  return rate;
}
