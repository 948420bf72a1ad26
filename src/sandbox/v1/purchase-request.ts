/**
 * Checks the body of `POST /purchases/` as the v1 document describes it, collecting every problem under the
 * field it belongs to (the document's 400 shape), and turns a valid body into the Purchase's stored fields.
 * Members the document does not name are ignored, as the gateway's own list is not complete.
 */
import { isIP } from 'node:net';
import { isEmailAddress } from '../../core/email-address.js';
import { isPlainObject } from '../../core/plain-object.js';
import { V1_MAX_AMOUNT } from '../../core/v1-limits.js';
import type {
  PaymentMethodDetails,
  PisBulkCreditor,
  PisPurchaseDetails,
  PurchaseClient,
  SvcBulkReceiver,
} from '../../core/v1-types.js';
import { BodyReader, type Json } from '../body-reader.js';
import { type MerchantV1Credentials, TEST_CREDITORS, type TestCreditor } from '../config.js';
import { isIban, normalizeIban, UUID } from '../formats.js';
import type { V1Issue } from './errors.js';
import {
  findPaymentMethod,
  PAYMENT_METHODS,
  PAYOUT_METHODS,
  type PaymentMethodEntry,
} from './method-catalogue.js';
import { methodSupports } from './payment-methods.js';
import { CLIENT_DETAILS_TEXTS } from './purchase-view.js';
import type { StoredPurchase, StoredPurchaseDetails } from './purchases.js';
import type { V1Merchant } from './request-context.js';
import { isWhitelistedCreditor, isWhitelistedIban } from './test-creditors.js';

/** What a valid create request becomes: every request field of the Purchase, defaults filled in. */
export type PurchaseDraft = Pick<
  StoredPurchase,
  | 'brand_id'
  | 'client'
  | 'client_id'
  | 'reference'
  | 'success_callback'
  | 'success_redirect'
  | 'failure_redirect'
  | 'cancel_redirect'
  | 'skip_capture'
  | 'force_recurring'
  | 'payment_method_whitelist'
  | 'payout_method_whitelist'
  | 'due'
> & { purchase: PurchaseDetailsDraft };

/** The `purchase` object of a valid request, its total worked out. */
type PurchaseDetailsDraft = StoredPurchaseDetails & { total: number };

/** What the request is checked against: the key's brand, the merchant's defaults and creditor agreement. */
export interface PurchaseRequestContext {
  brandId: string;
  defaultCurrency: string;
  defaultLanguage: string;
  /**
   * What the merchant agreed with the gateway (its `merchants[].v1` config): the whitelisted creditors of bulk
   * and variable-creditor payments ({@link TEST_CREDITORS} when absent) and whether the variable creditor is
   * enabled (not when absent, as the document's Limits 5 says).
   */
  agreement: Pick<MerchantV1Credentials, 'creditors' | 'variableCreditor'>;
}

/** What a merchant's Purchase requests are checked against, as `POST /purchases/` checks them. */
export function requestContextOf(merchant: V1Merchant): PurchaseRequestContext {
  return {
    brandId: merchant.v1.brandId,
    defaultCurrency: merchant.defaults.currency,
    defaultLanguage: merchant.defaults.language,
    agreement: merchant.v1,
  };
}

/**
 * Checks a create request.
 * @returns the draft, or every problem found (never both).
 */
export function readCreatePurchase(
  body: Json,
  context: PurchaseRequestContext,
): { draft: PurchaseDraft } | { issues: V1Issue[] } {
  const reader = new BodyReader();

  const brandId = reader.string(body, 'brand_id', 'brand_id', true);
  if (brandId !== undefined) {
    if (!UUID.test(brandId)) reader.add('brand_id', 'invalid', 'brand_id must be a UUID');
    else if (brandId.toLowerCase() !== context.brandId.toLowerCase()) {
      reader.add('brand_id', 'invalid', "brand_id is not a brand of the secret key's account");
    }
  }

  const client = readClient(reader, body);
  const clientId = reader.string(body, 'client_id', 'client_id');
  if (clientId !== undefined && !UUID.test(clientId))
    reader.add('client_id', 'invalid', 'client_id must be a UUID');

  const reference = reader.string(body, 'reference', 'reference');
  const successCallback = reader.url(body, 'success_callback', 'success_callback');
  const successRedirect = reader.url(body, 'success_redirect', 'success_redirect');
  const failureRedirect = reader.url(body, 'failure_redirect', 'failure_redirect');
  const cancelRedirect = reader.url(body, 'cancel_redirect', 'cancel_redirect');
  const skipCapture = reader.boolean(body, 'skip_capture', 'skip_capture') ?? false;
  const forceRecurring = reader.boolean(body, 'force_recurring', 'force_recurring') ?? false;
  const due = reader.integer(body, 'due', 'due', { min: 1, max: 99_999_999_999 });
  const whitelist = readWhitelist(reader, body);
  const payoutWhitelist = readPayoutWhitelist(reader, body);

  const details = reader.object(body, 'purchase', 'purchase', true);
  const purchase = details ? readPurchaseDetails(reader, details, context) : undefined;

  checkDebtorCode(reader, details, client);
  if (purchase) {
    checkMethodDetails(reader, purchase, client, context.agreement);
    checkPayable(reader, purchase, whitelist, { skipCapture, forceRecurring });
  }

  if (reader.issues.length > 0 || !purchase || brandId === undefined) return { issues: reader.issues };
  return {
    draft: {
      brand_id: brandId.toLowerCase(),
      client,
      client_id: clientId?.toLowerCase() ?? null,
      purchase,
      reference: reference ?? null,
      success_callback: successCallback ?? null,
      success_redirect: successRedirect ?? null,
      failure_redirect: failureRedirect ?? null,
      cancel_redirect: cancelRedirect ?? null,
      skip_capture: skipCapture,
      force_recurring: forceRecurring,
      payment_method_whitelist: whitelist ?? null,
      payout_method_whitelist: payoutWhitelist ?? null,
      due: due ?? null,
    },
  };
}

function readClient(reader: BodyReader, body: Json): PurchaseClient {
  const object = reader.object(body, 'client', 'client');
  if (!object) return {};
  const client: PurchaseClient = {};
  for (const name of CLIENT_DETAILS_TEXTS) {
    const value = reader.string(object, name, `client.${name}`);
    if (value !== undefined) client[name] = value;
  }
  if (client.email !== undefined && !isEmailAddress(client.email)) {
    reader.add('client.email', 'invalid', 'client.email must be an email address');
  }
  for (const name of ['cc', 'bcc'] as const) {
    const emails = readEmails(reader, object, name, `client.${name}`);
    if (emails) client[name] = emails;
  }
  return client;
}

/** A list of email addresses (a Client's `cc` or `bcc`), or undefined when left out or wrong. */
export function readEmails(
  reader: BodyReader,
  object: Json,
  member: string,
  path: string,
): string[] | undefined {
  const list = reader.array(object, member, path);
  if (!list) return undefined;
  const emails = list.filter((entry): entry is string => typeof entry === 'string' && isEmailAddress(entry));
  if (emails.length === list.length) return emails;
  reader.add(path, 'invalid', `${path} must be an array of email addresses`);
  return undefined;
}

/** `payout_method_whitelist`: names of `GET /payout_methods/`, kept as given. */
function readPayoutWhitelist(reader: BodyReader, body: Json): string[] | undefined {
  const field = 'payout_method_whitelist';
  const list = reader.array(body, field, field);
  if (!list) return undefined;
  const names: string[] = [];
  list.forEach((entry, index) => {
    if (typeof entry !== 'string') {
      reader.add(field, 'invalid', `${field}[${index}] must be a string`);
    } else if (!PAYOUT_METHODS.some((method) => method.name === entry)) {
      reader.add(
        field,
        'invalid',
        `${JSON.stringify(entry)} is not a payout method; GET /payout_methods/ lists them`,
      );
    } else if (!names.includes(entry)) names.push(entry);
  });
  return names;
}

function readWhitelist(reader: BodyReader, body: Json): string[] | undefined {
  const list = reader.array(body, 'payment_method_whitelist', 'payment_method_whitelist');
  if (!list) return undefined;
  const field = 'payment_method_whitelist';
  if (list.length === 0) {
    reader.add(field, 'empty', `${field} must name at least one payment method, or be left out`);
    return undefined;
  }
  const names: string[] = [];
  list.forEach((entry, index) => {
    if (typeof entry !== 'string') {
      reader.add(field, 'invalid', `${field}[${index}] must be a string`);
    } else if (!findPaymentMethod(entry)) {
      reader.add(
        field,
        'invalid',
        `${JSON.stringify(entry)} is not a payment method; GET /payment_methods/ lists them`,
      );
    } else if (!names.includes(entry)) names.push(entry);
  });
  return names;
}

function readPurchaseDetails(
  reader: BodyReader,
  details: Json,
  context: PurchaseRequestContext,
): PurchaseDetailsDraft | undefined {
  const issuesBefore = reader.issues.length;
  const products = readProducts(reader, details);

  let currency = context.defaultCurrency;
  const givenCurrency = reader.string(details, 'currency', 'purchase.currency');
  if (givenCurrency !== undefined) {
    if (/^[A-Za-z]{3}$/.test(givenCurrency)) currency = givenCurrency.toUpperCase();
    else reader.add('purchase.currency', 'invalid', 'purchase.currency must be an ISO 4217 code such as EUR');
  }
  let language = context.defaultLanguage;
  const givenLanguage = reader.string(details, 'language', 'purchase.language');
  if (givenLanguage !== undefined) {
    if (/^[A-Za-z]{2}$/.test(givenLanguage)) language = givenLanguage.toLowerCase();
    else reader.add('purchase.language', 'invalid', 'purchase.language must be an ISO 639-1 code such as lv');
  }
  const dueStrict = reader.boolean(details, 'due_strict', 'purchase.due_strict') ?? false;
  const totalOverride = reader.integer(details, 'total_override', 'purchase.total_override', {
    min: 0,
    max: V1_MAX_AMOUNT,
  });
  const methodDetails = readMethodDetails(reader, details);
  const notes = reader.string(details, 'notes', 'purchase.notes');
  const timezone = reader.string(details, 'timezone', 'purchase.timezone');
  if (timezone !== undefined && !isTimeZone(timezone)) {
    reader.add(
      'purchase.timezone',
      'invalid',
      'purchase.timezone must be an IANA time zone name such as Europe/Riga',
    );
  }
  const emailMessage = reader.string(details, 'email_message', 'purchase.email_message');

  if (reader.issues.length > issuesBefore || !products) return undefined;
  const sum = products.reduce((total, product) => total + product.price * product.quantity, 0);
  if (sum > V1_MAX_AMOUNT) {
    reader.add(
      'purchase.products',
      'max_value',
      `The products add up to ${sum} minor units; the most a purchase takes is ${V1_MAX_AMOUNT}`,
    );
    return undefined;
  }
  return {
    products,
    currency,
    language,
    due_strict: dueStrict,
    total_override: totalOverride ?? null,
    payment_method_details: methodDetails,
    total: totalOverride ?? sum,
    ...(notes !== undefined && { notes }),
    ...(timezone !== undefined && { timezone }),
    ...(emailMessage !== undefined && { email_message: emailMessage }),
  };
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function readProducts(reader: BodyReader, details: Json): StoredPurchaseDetails['products'] | undefined {
  const list = reader.array(details, 'products', 'purchase.products', true);
  if (!list) return undefined;
  if (list.length === 0) {
    reader.add('purchase.products', 'empty', 'purchase.products must list at least one product');
    return undefined;
  }
  const products: StoredPurchaseDetails['products'] = [];
  list.forEach((entry, index) => {
    const path = `purchase.products[${index}]`;
    if (!isPlainObject(entry)) {
      reader.add(path, 'invalid', `${path} must be an object with name, price and quantity`);
      return;
    }
    const name = reader.requiredString(entry, 'name', `${path}.name`);
    const price = reader.integer(entry, 'price', `${path}.price`, { min: 0, max: V1_MAX_AMOUNT }, true);
    const quantity = reader.integer(entry, 'quantity', `${path}.quantity`, { min: 1, max: 1_000_000 }) ?? 1;
    const category = reader.string(entry, 'category', `${path}.category`);
    if (name !== undefined && price !== undefined) {
      products.push({ name, price, quantity, ...(category !== undefined && { category }) });
    }
  });
  return products.length === list.length ? products : undefined;
}

function readMethodDetails(reader: BodyReader, details: Json): PaymentMethodDetails {
  const base = 'purchase.payment_method_details';
  const object = reader.object(details, 'payment_method_details', base);
  if (!object) return {};
  const result: PaymentMethodDetails = {};

  const bulk = reader.array(object, 'pis_bulk_purchase', `${base}.pis_bulk_purchase`);
  if (bulk) {
    const creditors: PisBulkCreditor[] = [];
    bulk.forEach((entry, index) => {
      const path = `${base}.pis_bulk_purchase[${index}]`;
      if (!isPlainObject(entry)) {
        reader.add(path, 'invalid', `${path} must be an object`);
        return;
      }
      const name = reader.requiredString(entry, 'creditor_name', `${path}.creditor_name`);
      const iban = readIban(reader, entry, 'creditor_iban', `${path}.creditor_iban`);
      if (name !== undefined && iban !== undefined)
        creditors.push({ creditor_name: name, creditor_iban: iban });
    });
    result.pis_bulk_purchase = creditors;
  }

  const variable = reader.object(object, 'pis_purchase', `${base}.pis_purchase`);
  if (variable) {
    const path = `${base}.pis_purchase`;
    const creditor = reader.object(variable, 'creditor', `${path}.creditor`, true);
    const name = creditor && reader.requiredString(creditor, 'name', `${path}.creditor.name`);
    const iban = creditor && readIban(reader, creditor, 'iban', `${path}.creditor.iban`);
    const debtor = reader.object(variable, 'debtor', `${path}.debtor`);
    const identification = debtor && reader.object(debtor, 'identification', `${path}.debtor.identification`);
    let debtorDetails: PisPurchaseDetails['debtor'];
    if (identification) {
      const idPath = `${path}.debtor.identification`;
      const type = reader.requiredString(identification, 'type', `${idPath}.type`);
      const schemeName = reader.requiredString(identification, 'scheme_name', `${idPath}.scheme_name`);
      if (type !== undefined && type !== 'organisation' && type !== 'private') {
        reader.add(`${idPath}.type`, 'invalid', `${idPath}.type must be organisation or private`);
      } else if (type !== undefined && schemeName !== undefined) {
        debtorDetails = { identification: { type, scheme_name: schemeName } };
      }
    } else if (debtor) debtorDetails = {};
    if (name !== undefined && iban !== undefined) {
      result.pis_purchase = {
        creditor: { name, iban },
        ...(debtorDetails !== undefined && { debtor: debtorDetails }),
      };
    }
  }

  const cardBulk = reader.array(object, 'svc_bulk_purchase', `${base}.svc_bulk_purchase`);
  if (cardBulk) {
    const receivers: SvcBulkReceiver[] = [];
    cardBulk.forEach((entry, index) => {
      const path = `${base}.svc_bulk_purchase[${index}]`;
      if (!isPlainObject(entry)) {
        reader.add(path, 'invalid', `${path} must be an object`);
        return;
      }
      const name = reader.requiredString(entry, 'receiver_name', `${path}.receiver_name`);
      const iban = readIban(reader, entry, 'receiver_iban', `${path}.receiver_iban`);
      const personalId = reader.requiredString(entry, 'receiver_personal_id', `${path}.receiver_personal_id`);
      if (name !== undefined && iban !== undefined && personalId !== undefined) {
        receivers.push({ receiver_name: name, receiver_iban: iban, receiver_personal_id: personalId });
      }
    });
    result.svc_bulk_purchase = receivers;
  }

  const ipAddress = reader.string(object, 'ip_address', `${base}.ip_address`);
  if (ipAddress !== undefined) {
    if (isIP(ipAddress) === 0)
      reader.add(`${base}.ip_address`, 'invalid', `${base}.ip_address must be an IP address`);
    else result.ip_address = ipAddress;
  }
  return result;
}

function readIban(reader: BodyReader, object: Json, key: string, path: string): string | undefined {
  const value = reader.requiredString(object, key, path);
  if (value === undefined) return undefined;
  if (!isIban(value)) {
    reader.add(path, 'invalid', `${path} is not a valid IBAN`);
    return undefined;
  }
  return normalizeIban(value);
}

/**
 * A debtor identification takes its value from `client.personal_code`, so one without the other is refused
 * whatever else is wrong with the identification.
 */
function checkDebtorCode(reader: BodyReader, details: Json | undefined, client: PurchaseClient): void {
  const methodDetails = details?.['payment_method_details'];
  const variable = isPlainObject(methodDetails) ? methodDetails['pis_purchase'] : undefined;
  const debtor = isPlainObject(variable) ? variable['debtor'] : undefined;
  if (
    !isPlainObject(debtor) ||
    !isPlainObject(debtor['identification']) ||
    client.personal_code !== undefined
  )
    return;
  reader.add(
    'client.personal_code',
    'required',
    'client.personal_code is required with a debtor identification: it is the identification value',
  );
}

/** The rules of bulk, variable-creditor and card bulk payments, once each part reads on its own. */
function checkMethodDetails(
  reader: BodyReader,
  purchase: PurchaseDetailsDraft,
  client: PurchaseClient,
  agreement: PurchaseRequestContext['agreement'],
): void {
  const details = purchase.payment_method_details;
  const base = 'purchase.payment_method_details';
  const kinds = (['pis_bulk_purchase', 'pis_purchase', 'svc_bulk_purchase'] as const).filter(
    (kind) => details[kind] !== undefined,
  );
  if (kinds.length > 1) {
    reader.add(base, 'invalid', `${kinds.join(' and ')} cannot be combined; a purchase is paid one way`);
    return;
  }
  const whitelist = agreement.creditors ?? TEST_CREDITORS;
  const products = purchase.products.length;
  if (details.pis_bulk_purchase) {
    const creditors = details.pis_bulk_purchase;
    if (creditors.length !== products) {
      reader.add(
        `${base}.pis_bulk_purchase`,
        'invalid',
        `has ${creditors.length} creditors for ${products} products; they pair by position, so the counts must match`,
      );
    }
    const strangers = new Set(
      creditors
        .map((creditor) => creditor.creditor_iban)
        .filter((iban) => !isWhitelistedIban(iban, whitelist)),
    );
    for (const iban of strangers) {
      reader.add(
        '__all__',
        'invalid',
        `The creditor IBAN ${iban} is not whitelisted for bulk payments; ${whitelistText(whitelist, (entry) => entry.iban)}`,
      );
    }
  }
  if (details.pis_purchase) {
    const { creditor } = details.pis_purchase;
    if (!(agreement.variableCreditor ?? false)) {
      reader.add(
        'creditor',
        'invalid',
        'The variable creditor is not enabled for this merchant: the gateway enables it by agreement, the sandbox with merchants[].v1.variableCreditor: true in its config',
      );
    } else if (!isWhitelistedCreditor(creditor.name, creditor.iban, whitelist)) {
      reader.add(
        'creditor',
        'invalid',
        `The creditor ${JSON.stringify(creditor.name)} with IBAN ${creditor.iban} is not whitelisted as a variable creditor (name and IBAN must match one entry); ${whitelistText(whitelist, (entry) => `${JSON.stringify(entry.name)} ${entry.iban}`)}`,
      );
    }
  }
  if (details.svc_bulk_purchase) {
    if (details.svc_bulk_purchase.length !== products) {
      reader.add(
        `${base}.svc_bulk_purchase`,
        'invalid',
        `has ${details.svc_bulk_purchase.length} receivers for ${products} products; they pair by position, so the counts must match`,
      );
    }
    if (client.full_name === undefined) {
      reader.add('client.full_name', 'required', 'client.full_name is required for a card bulk payment');
    }
    if (client.personal_code === undefined) {
      reader.add(
        'client.personal_code',
        'required',
        'client.personal_code is required for a card bulk payment',
      );
    }
    if (purchase.total_override === null) {
      reader.add(
        'purchase.total_override',
        'required',
        'purchase.total_override is required for a card bulk payment: set it to the amount due',
      );
    }
  }
}

/** The merchant's whitelist, as an error message names it. */
function whitelistText(
  whitelist: readonly TestCreditor[],
  entry: (creditor: TestCreditor) => string,
): string {
  return whitelist.length === 0
    ? "this merchant's whitelist (merchants[].v1.creditors in the sandbox config) is empty"
    : `this merchant's whitelist (merchants[].v1.creditors in the sandbox config): ${whitelist.map(entry).join(', ')}`;
}

/**
 * Whether the Purchase saves a card without a charge: `skip_capture` with a total of 0 (the platform's
 * "preauthorization", in its SDKs' description of `skip_capture`). Paid by card only, it saves the card
 * whether or not `force_recurring` is set, and ends `preauthorized`, holding nothing.
 */
export function preauthorizes(skipCapture: boolean, purchase: Pick<StoredPurchaseDetails, 'total'>): boolean {
  return skipCapture && (purchase.total ?? 0) === 0;
}

/** The methods a purchase may be paid with: whitelist (or all), then what the payment kind allows. */
export function payableMethods(
  purchase: Pick<StoredPurchaseDetails, 'currency' | 'payment_method_details' | 'total'>,
  whitelist: readonly string[] | null | undefined,
  needs: { skipCapture: boolean; forceRecurring: boolean },
): PaymentMethodEntry[] {
  const details = purchase.payment_method_details;
  const group =
    details.pis_bulk_purchase || details.pis_purchase
      ? 'bank'
      : details.svc_bulk_purchase
        ? 'card'
        : undefined;
  return PAYMENT_METHODS.filter(
    (method) =>
      (!whitelist || whitelist.includes(method.name)) &&
      (group === undefined || method.group === group) &&
      methodSupports(method, {
        currency: purchase.currency,
        skipCapture: needs.skipCapture,
        recurring: needs.forceRecurring,
        preauthorization: preauthorizes(needs.skipCapture, purchase),
      }),
  );
}

/** Refuses a purchase that no method could pay, naming why. */
function checkPayable(
  reader: BodyReader,
  purchase: PurchaseDetailsDraft,
  whitelist: string[] | undefined,
  needs: { skipCapture: boolean; forceRecurring: boolean },
): void {
  if (payableMethods(purchase, whitelist, needs).length > 0) return;
  if (!PAYMENT_METHODS.some((method) => method.currencies.includes(purchase.currency))) {
    const currencies = [...new Set(PAYMENT_METHODS.flatMap((method) => method.currencies))];
    reader.add(
      'purchase.currency',
      'invalid',
      `No payment method takes ${purchase.currency}; the sandbox's methods take ${currencies.join(', ')}`,
    );
    return;
  }
  const wants = [
    `${purchase.currency}`,
    needs.skipCapture && 'skip_capture',
    needs.forceRecurring && 'force_recurring',
    preauthorizes(needs.skipCapture, purchase) && 'preauthorization (skip_capture with a total of 0)',
    purchase.payment_method_details.pis_bulk_purchase && 'a bulk bank payment (bank methods only)',
    purchase.payment_method_details.pis_purchase && 'a variable creditor (bank methods only)',
    purchase.payment_method_details.svc_bulk_purchase && 'a card bulk payment (card methods only)',
  ].filter(Boolean);
  reader.add(
    whitelist ? 'payment_method_whitelist' : '__all__',
    'invalid',
    `No ${whitelist ? 'listed ' : ''}payment method can pay this purchase: ${wants.join(', ')}`,
  );
}
