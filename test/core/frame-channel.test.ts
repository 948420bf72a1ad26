import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  CHANNEL_PROTOCOL,
  CHANNEL_VERSION,
  createChannelId,
  type ElementToFrameMessage,
  envelope,
  type FrameToElementMessage,
  readElementMessage,
  readFrameMessage,
} from '../../src/core/frame-channel.js';

const channel = createChannelId();

const frameMessages: FrameToElementMessage[] = [
  envelope(channel, { type: 'ready' }),
  envelope(channel, { type: 'resize', height: 412 }),
  envelope(channel, { type: 'state', state: 'challenge' }),
  envelope(channel, { type: 'paymentCompleted', orderId: 'o-1', paymentSucceeded: false }),
  envelope(channel, {
    type: 'paymentCompleted',
    orderId: 'o-2',
    merchantOrderId: 'A-1',
    paymentSucceeded: true,
  }),
  envelope(channel, { type: 'navigateBackToCart' }),
  envelope(channel, { type: 'error', code: 'unknown_widget', message: 'No widget', field: 'widget-id' }),
  envelope(channel, { type: 'shown' }),
];

const elementMessages: ElementToFrameMessage[] = [
  envelope(channel, {
    type: 'init',
    order: { widgetId: 'w', items: [{ amount: '1.00', label: 'A' }] },
    signature: 'c2ln',
    certificateName: 'main',
    language: 'lv',
    customer: { email: 'a@example.com' },
    appearance: { '--svc-color-primary': '#123456' },
    texts: { pay: 'Maksāt' },
  }),
  envelope(channel, { type: 'update', language: 'ru' }),
  envelope(channel, { type: 'replay' }),
];

describe('frame channel', () => {
  test('channel ids are 128-bit hex and unique', () => {
    const ids = new Set(Array.from({ length: 100 }, createChannelId));
    assert.equal(ids.size, 100);
    for (const id of ids) assert.match(id, /^[0-9a-f]{32}$/);
  });

  test('reads every well-formed message of its own channel, from a structured clone as postMessage delivers it', () => {
    for (const message of frameMessages)
      assert.deepEqual(readFrameMessage(structuredClone(message), channel), message);
    for (const message of elementMessages)
      assert.deepEqual(readElementMessage(structuredClone(message), channel), message);
  });

  test('refuses a merchant order id that is not a string', () => {
    const completed = envelope<FrameToElementMessage>(channel, {
      type: 'paymentCompleted',
      orderId: 'o-3',
      paymentSucceeded: true,
    });
    assert.equal(readFrameMessage({ ...completed, merchantOrderId: 7 }, channel), undefined);
    assert.equal(readFrameMessage({ ...completed, merchantOrderId: null }, channel), undefined);
  });

  test('refuses other channels, protocols, versions and directions', () => {
    for (const message of frameMessages) {
      assert.equal(readFrameMessage({ ...message, channel: createChannelId() }, channel), undefined);
      assert.equal(readFrameMessage({ ...message, protocol: 'other' }, channel), undefined);
      assert.equal(readFrameMessage({ ...message, version: CHANNEL_VERSION + 1 }, channel), undefined);
      assert.equal(readElementMessage(message, channel), undefined);
    }
    for (const message of elementMessages) assert.equal(readFrameMessage(message, channel), undefined);
  });

  test('refuses extra members, so nothing else (card data included) can ride along', () => {
    for (const message of [...frameMessages, ...elementMessages]) {
      const withExtra = { ...message, cardNumber: '4111111111111111' };
      assert.equal(readFrameMessage(withExtra, channel), undefined);
      assert.equal(readElementMessage(withExtra, channel), undefined);
    }
  });

  test('refuses members of the wrong type', () => {
    const bad: unknown[] = [
      { ...frameMessages[1], height: '412' },
      { ...frameMessages[1], height: Number.POSITIVE_INFINITY },
      { ...frameMessages[2], state: 'hacked' },
      { ...frameMessages[3], paymentSucceeded: 'yes' },
      { ...frameMessages[5], code: 'made_up' },
      { ...elementMessages[0], customer: { email: 1 } },
      { ...elementMessages[0], order: 'x' },
      null,
      'ready',
      [],
    ];
    for (const data of bad) {
      assert.equal(readFrameMessage(data, channel), undefined, JSON.stringify(data));
      assert.equal(readElementMessage(data, channel), undefined, JSON.stringify(data));
    }
  });

  test('property: arbitrary data is never taken for a message', () => {
    fc.assert(
      fc.property(
        fc.record({
          protocol: fc.constantFrom(CHANNEL_PROTOCOL, 'x'),
          version: fc.constantFrom(CHANNEL_VERSION, 2),
          channel: fc.constantFrom(channel, 'other'),
          type: fc.constantFrom('ready', 'resize', 'state', 'init', 'error', 'paymentCompleted'),
          extra: fc.anything(),
        }),
        (data) => {
          // `extra` is never a member of any message, so every such object must be refused.
          assert.equal(readFrameMessage(data, channel), undefined);
          assert.equal(readElementMessage(data, channel), undefined);
        },
      ),
    );
  });
});
