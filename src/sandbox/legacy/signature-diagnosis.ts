/**
 * Why an order's signature did not verify, in the sandbox only: the text it was checked against (the signed
 * text is no secret: the page shows every field of it), and which field the page added or changed. The
 * fields are joined without separators, so the text alone rarely shows the difference; instead the signature
 * is tried against the order with each field the page may give left out, and with each the merchant has a
 * default for set to it. One that verifies names the field: a React `language` prop that the server did not
 * sign is the case met.
 */

import type { OrderInput } from '../../core/order.js';
import { orderSignatureInput } from '../../core/signature-input.js';
import type { SignatureDiagnosis } from '../../core/widget-api.js';

/** A change of the order to try: the field it names and the sentence that explains a match. */
interface Variant {
  field: string;
  input: OrderInput;
  finding: string;
}

/** The merchant's defaults that a page may have filled in differently. */
export interface SigningDefaults {
  currency?: string;
  language?: string;
}

/**
 * Finds what the page changed. `verifies` tries the signature against an order (false for an order that is
 * not valid). Only called once a signature was refused: the tries cost a verification each.
 */
export function diagnoseSignature(
  input: OrderInput,
  verifies: (candidate: OrderInput) => boolean,
  defaults: SigningDefaults = {},
): SignatureDiagnosis {
  const signedText = orderSignatureInput(input);
  for (const variant of variantsOf(input, defaults)) {
    let matched = false;
    try {
      matched = verifies(variant.input);
    } catch {
      // The order without that field is not valid (an item without its currency in a mixed order): no match.
    }
    if (matched) return { signedText, field: variant.field, finding: variant.finding };
  }
  return {
    signedText,
    finding:
      'no single field the page gave explains it: the order was signed with other values (a price, a label, an item) or another key; compare the text checked with the text the server signed',
  };
}

const show = (value: unknown) => JSON.stringify(String(value));

const isGiven = (value: unknown) => value !== undefined && value !== null && value !== '';

/** `value` without `key`. */
function omit<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _, ...rest } = value;
  return rest;
}

function* variantsOf(input: OrderInput, defaults: SigningDefaults): Generator<Variant> {
  for (const key of ['language', 'successRedirectUrl', 'backToMerchantUrl', 'orderId'] as const) {
    const value = input[key];
    if (!isGiven(value)) continue;
    yield {
      field: key,
      input: omit(input, key),
      finding: `the signature verifies without \`${key}\`: the page added ${key}=${show(value)} that was not signed`,
    };
  }
  if (defaults.language !== undefined && input.language !== defaults.language) {
    yield {
      field: 'language',
      input: { ...input, language: defaults.language },
      finding: `the signature verifies with language=${show(defaults.language)} (the merchant's default): the page gave ${input.language === undefined ? 'none' : show(input.language)}`,
    };
  }
  const items = input.items ?? [];
  for (const [index, item] of items.entries()) {
    for (const key of ['count', 'unit', 'taxRate', 'orderItemId', 'currency'] as const) {
      const value = item[key];
      if (!isGiven(value)) continue;
      yield {
        field: `items[${index}].${key}`,
        input: { ...input, items: items.map((other, at) => (at === index ? omit(item, key) : other)) },
        finding: `the signature verifies without \`items[${index}].${key}\`: the page added ${key}=${show(value)} to item ${index} that was not signed`,
      };
    }
    const { currency } = item;
    if (defaults.currency !== undefined && currency !== defaults.currency) {
      const changed = items.map((other, at) =>
        at === index ? { ...other, currency: defaults.currency } : other,
      );
      yield {
        field: `items[${index}].currency`,
        input: { ...input, items: changed },
        finding: `the signature verifies with items[${index}].currency=${show(defaults.currency)} (the merchant's default): the page gave ${currency === undefined ? 'none' : show(currency)}`,
      };
    }
  }
  const options = input.shippingOptions ?? [];
  for (const [index, option] of options.entries()) {
    yield {
      field: `shippingOptions[${index}]`,
      input: { ...input, shippingOptions: options.filter((_, at) => at !== index) },
      finding: `the signature verifies without shipping option ${show(option.id)}: the page added it, and it was not signed`,
    };
  }
  if (options.length > 0) {
    yield {
      field: 'shippingOptions',
      input: omit(input, 'shippingOptions'),
      finding:
        'the signature verifies without the shipping options: the page added them, and they were not signed',
    };
  }
  const constraints = input.constraints ?? {};
  for (const key of ['paymentScheme', 'issuer', 'brand'] as const) {
    const value = constraints[key];
    if (!isGiven(value)) continue;
    yield {
      field: `constraints.${key}`,
      input: { ...input, constraints: omit(constraints, key) },
      finding: `the signature verifies without \`constraints.${key}\`: the page added ${key}=${show(value)} that was not signed`,
    };
  }
}
