// A frame that the page's HTML declared starts, and tells `ready`, `shown` and its height, before the element's
// script runs and listens (checkoutElementHtml's declaredFrame). The element, adopting it, asks for a replay:
// the frame tells them again, in that order, and then takes the order as any frame does.
import { expect, waitUntil } from '@open-wc/testing';
import { checkoutOrder, init, mountFrame } from './harness.js';

describe('the frame asked for a replay', () => {
  it('says ready again, then shown and its current height, and takes the order after', async () => {
    const order = await checkoutOrder();
    const { channel } = await mountFrame(order.widgetId);
    await waitUntil(
      () => channel.types.includes('shown') && channel.types.includes('resize'),
      'the frame never said shown and its height',
    );
    const heard = channel.posted.length;
    const height = channel.posted.findLast((message) => message.type === 'resize');

    channel.send({ type: 'replay' });
    expect(channel.posted.slice(heard)).to.deep.equal([{ type: 'ready' }, { type: 'shown' }, height]);

    await init(channel, order);
    await channel.waitForState('form');
  });
});
