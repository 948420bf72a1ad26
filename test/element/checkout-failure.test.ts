// The element's console lines are whole sentences, each ending with a full stop, joined by a space (decision
// 7): for every failure code, whatever the message brings (the gateway's, the frame's and the order checks'
// come without a full stop), and the blame of script calls.
import { expect } from '@open-wc/testing';
import { WIDGET_ERROR_CODES } from '../../src/core/frame-channel.js';
import { blame, sentence } from '../../src/element/checkout-failure.js';
import { consoleMessage } from '../../src/element/console-message.js';
import type { CheckoutAttribute, CheckoutErrorCode } from '../../src/element/events.js';

const CODES: readonly CheckoutErrorCode[] = [...WIDGET_ERROR_CODES, 'order_locked'];
const ORIGIN = 'https://shop.example';

/**
 * The sentences of a console line after its `<svc-checkout> code [attribute: …]: ` head. A sentence ends at
 * a full stop (or ? !) before a space and a capital letter or `<`; each must end with one, and none may hold
 * a lower-case letter, digit or closing bracket right before a space and a capital starting the fix, which
 * is how two sentences joined without a full stop read.
 */
function sentencesOf(line: string): string[] {
  const head = /^<svc-checkout> [a-z_]+(?: \[attribute: [\w-]+\])?: /.exec(line);
  expect(head, line).to.not.equal(null);
  return line.slice(head![0].length).split(/(?<=[.!?]) (?=[A-Z<])/);
}

describe('console messages of the element', () => {
  it('are whole sentences ending with a full stop, for every failure code', () => {
    const messages = [
      'The order has no items; give amount and label, or an order with items',
      'The payment frame reported an error.',
      'order: is not valid JSON (Unexpected token i); write {"items":[{"amount":"9.99","label":"..."}]}, HTML-escaped in the attribute',
    ];
    const attributes: Array<CheckoutAttribute | undefined> = [
      undefined,
      'order',
      'amount',
      'addShippingOption',
    ];
    for (const code of CODES) {
      for (const message of messages) {
        for (const attribute of attributes) {
          const line = consoleMessage({ code, message, ...(attribute && { attribute }) }, ORIGIN);
          const context = `${code} ${attribute}: ${line}`;
          expect(line, context).to.match(/\.$/);
          // Two full stops in a row (an ellipsis of three is the message's own).
          expect(line, context).to.not.match(/(?<!\.)\.\.(?!\.)/);
          // The message is one sentence (or more), closed before the fix begins.
          expect(line, context).to.contain(`${sentence(message)} `);
          const sentences = sentencesOf(line);
          expect(sentences.length, context).to.be.greaterThan(1);
          for (const text of sentences) expect(text, context).to.match(/[.!?]$/);
          // The fix: capitalised sentences, each with its full stop.
          const fix = line.slice(line.indexOf(`${sentence(message)} `) + sentence(message).length + 1);
          expect(fix, context).to.match(/^[A-Z].*\.$/);
        }
      }
    }
  });

  it('turn a text into a sentence once: a full stop is added only where none ends it', () => {
    expect(sentence('currency is required, such as currency=EUR')).to.equal(
      'currency is required, such as currency=EUR.',
    );
    expect(sentence(' Already one. ')).to.equal('Already one.');
    expect(sentence('Is it?')).to.equal('Is it?');
  });

  it('name a script call by its method and the number of what it added', () => {
    const layout = { singleItem: false, items: 1, options: 1 };
    expect(blame('order.items[2].amount', 'invalid_order', layout)).to.deep.equal({
      attribute: 'addOrderItem',
      call: 'addOrderItem() (item 2)',
    });
    expect(blame('order.shippingOptions[1].amount', 'invalid_order', layout)).to.deep.equal({
      attribute: 'addShippingOption',
      call: 'addShippingOption() (option 1)',
    });
    const line = consoleMessage(
      {
        code: 'invalid_order',
        message:
          'addShippingOption() (option 1): Shipping option courier has type PICKUP_POINT, but this widget offers no pickup points',
        attribute: 'addShippingOption',
      },
      ORIGIN,
    );
    expect(line).to.equal(
      '<svc-checkout> invalid_order [attribute: addShippingOption]: addShippingOption() (option 1): Shipping option courier has type PICKUP_POINT, but this widget offers no pickup points. Fix what the page passes to addShippingOption() as the message says.',
    );
  });
});
