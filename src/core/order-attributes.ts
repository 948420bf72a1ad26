/**
 * Turns the element's attributes into the order the merchant signed, checked as the gateway checks it,
 * naming attributes (not model paths) in every problem so the message points at what to change in the
 * page. For servers and tools (a page renderer that signs what the element will send); the element itself
 * only assembles the order (`orderInputFromAttributes`) and leaves the checks to the gateway.
 */
import type { Result } from './errors.js';
import type { OrderInput } from './order.js';
import { OrderValidationError, parseOrder } from './order.js';
import {
  assembleOrderInput,
  givesSingleItem,
  type OrderAttributes,
  orderAttributeOf,
} from './order-input-from-attributes.js';

export {
  decodeHtmlEntities,
  type OrderAttributes,
  orderInputFromAttributes,
  parseOrderJsonText,
  type UncheckedOrderInput,
} from './order-input-from-attributes.js';

function attributePath(path: string, singleItem: boolean): string {
  const field = /^items\[0\]\.(\w+)$/.exec(path)?.[1];
  const item = singleItem ? orderAttributeOf(field) : undefined;
  if (item) return item;
  return orderAttributeOf(path) ?? (path === 'order' || path === 'currency' ? path : `order.${path}`);
}

/**
 * Builds the order from the element's attributes and checks it: the single-item form (`amount`, `label`,
 * ...) or the `order` JSON, never both. Only what the merchant gave is kept, because only that is signed.
 */
export function orderFromAttributes(attributes: OrderAttributes): Result<OrderInput, OrderValidationError> {
  const { input, issues: shapeIssues } = assembleOrderInput(attributes);
  if (!input) return { error: new OrderValidationError(shapeIssues) };
  const singleItem = givesSingleItem(attributes);
  const { value, error } = parseOrder(input);
  if (error || shapeIssues.length > 0) {
    const issues = (error?.issues ?? []).map((issue) => {
      const path = attributePath(issue.path, singleItem);
      return { ...issue, path, message: issue.message.replace(issue.path, path) };
    });
    return { error: new OrderValidationError([...shapeIssues, ...issues]) };
  }
  return { value: value.input };
}
