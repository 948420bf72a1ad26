/**
 * What svc-checkout/testing knows without a browser: its named test cards are the sandbox's, with the outcome
 * each name promises, and the names it finds the frame's fields by match the frame's texts in each language
 * (and a page's own override), whole, with the "(optional)" mark a field may carry.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FRAME_MESSAGES, LANGUAGES } from '../../src/core/i18n.js';
import { TEST_CARDS } from '../../src/sandbox/index.js';
import { FrameLabels } from '../../src/testing/frame-labels.js';
import { TEST_CARD_NUMBERS } from '../../src/testing/index.js';

describe('TEST_CARD_NUMBERS', () => {
  test('each is a sandbox test card with the outcome its name says', () => {
    const outcome = (number: string) => {
      const card = TEST_CARDS.find((candidate) => candidate.number === number);
      assert.ok(card, `${number} is a sandbox test card`);
      return 'code' in card.outcome ? card.outcome.code : card.outcome.kind;
    };
    assert.deepEqual(
      Object.fromEntries(Object.entries(TEST_CARD_NUMBERS).map(([name, number]) => [name, outcome(number)])),
      {
        approved: 'approved',
        declined: 'card_declined',
        insufficientFunds: 'insufficient_funds',
        threeDSecure: 'challenge',
        processingError: 'processing_error',
      },
    );
  });
});

describe('FrameLabels', () => {
  const labels = new FrameLabels();

  test('a name matches the text of every language, whole, and a field’s "(optional)" mark', () => {
    for (const language of LANGUAGES) {
      assert.match(FRAME_MESSAGES[language]['customer.phone'], labels.name('customer.phone'), language);
      assert.match(
        `${FRAME_MESSAGES[language]['customer.phone']} (${FRAME_MESSAGES[language]['field.optional']})`,
        labels.name('customer.phone'),
      );
    }
    assert.doesNotMatch('Pickup point', labels.name('delivery.choosePickupPoint'));
    assert.doesNotMatch('Choose a pickup point.', labels.name('delivery.pickupPoint'));
    assert.doesNotMatch('Email address of the shop', labels.name('customer.email'));
  });

  test('a {parameter} matches any text: the pay button names its amount', () => {
    assert.match('Pay €12.50', labels.name('pay.button'));
    assert.match('Maksāt 12,50 €', labels.name('pay.button'));
    assert.doesNotMatch('Cancel payment', labels.name('pay.button'));
  });

  test('a page’s override of a text is a name too, and texts are taken literally', () => {
    const renamed = new FrameLabels({ 'card.number.label': 'Card no. (16 digits)' });
    assert.match('Card no. (16 digits)', renamed.name('card.number.label'));
    assert.match('Card number', renamed.name('card.number.label'));
    assert.doesNotMatch('Card noX (16 digits)', renamed.name('card.number.label'));
  });
});
