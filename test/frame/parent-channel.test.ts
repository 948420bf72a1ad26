// The window channel: messages out to the exact origin of the parent, messages in only from the parent, its
// origin and this channel. Here the test page plays the frame and an iframe plays the merchant page.
import { expect, waitUntil } from '@open-wc/testing';
import { type ElementToFrameMessage, envelope } from '../../src/core/index.js';
import { createWindowChannel } from '../../src/frame/parent-channel.js';

const CHANNEL = 'abcdef0123456789';

const update = (channel = CHANNEL) =>
  envelope<ElementToFrameMessage>(channel, { type: 'update', language: 'lv' });

describe('window channel', () => {
  let merchantPage: HTMLIFrameElement;

  beforeEach(async () => {
    merchantPage = document.createElement('iframe');
    // The merchant page posts on command, so the message's source is really its window.
    merchantPage.srcdoc = `<script>
      window.received = [];
      window.addEventListener('message', (event) => {
        if (event.data && event.data.command === 'post') parent.postMessage(event.data.message, '*');
        else window.received.push({ data: event.data, origin: event.origin, fromTop: event.source === parent });
      });
    </script>`;
    const loaded = new Promise((resolve) => merchantPage.addEventListener('load', resolve, { once: true }));
    document.body.append(merchantPage);
    await loaded;
  });

  afterEach(() => merchantPage.remove());

  it('posts enveloped messages to the parent at its exact origin', async () => {
    const parent = merchantPage.contentWindow!;
    const channel = createWindowChannel({ self: window, parent, origin: location.origin, channel: CHANNEL });
    channel.post({ type: 'ready' });
    channel.post({ type: 'state', state: 'form' });
    const received = () =>
      (parent as unknown as { received: Array<{ data: unknown; origin: string }> }).received;
    await waitUntil(() => received().length === 2);
    expect(received()[0]).to.deep.equal({
      data: { protocol: 'svc-checkout', version: 1, channel: CHANNEL, type: 'ready' },
      origin: location.origin,
      fromTop: true,
    });
  });

  it('sends nothing to a parent at another origin than the one it was told', async () => {
    const parent = merchantPage.contentWindow!;
    const channel = createWindowChannel({
      self: window,
      parent,
      origin: 'https://shop.example',
      channel: CHANNEL,
    });
    channel.post({ type: 'ready' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((parent as unknown as { received: unknown[] }).received).to.deep.equal([]);
  });

  it('takes a message posted by the parent', async () => {
    const parent = merchantPage.contentWindow!;
    const channel = createWindowChannel({ self: window, parent, origin: location.origin, channel: CHANNEL });
    const got: ElementToFrameMessage[] = [];
    const stop = channel.onMessage((message) => got.push(message));
    parent.postMessage({ command: 'post', message: update() }, location.origin);
    await waitUntil(() => got.length === 1);
    expect(got[0]).to.deep.equal(update());
    stop();
  });

  it('drops messages from another window, another origin, another channel or of another shape', async () => {
    const parent = merchantPage.contentWindow!;
    const channel = createWindowChannel({ self: window, parent, origin: location.origin, channel: CHANNEL });
    const got: ElementToFrameMessage[] = [];
    const stop = channel.onMessage((message) => got.push(message));
    const deliver = (data: unknown, origin: string, source: Window | null) =>
      window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
    deliver(update(), location.origin, window); // not the parent
    deliver(update(), 'https://evil.example', parent); // not the parent's origin
    deliver(update('another-channel-01'), location.origin, parent);
    deliver({ ...update(), extra: 'member' }, location.origin, parent);
    deliver('{"type":"update"}', location.origin, parent);
    expect(got).to.deep.equal([]);
    deliver(update(), location.origin, parent);
    expect(got).to.have.length(1);
    stop();
    deliver(update(), location.origin, parent);
    expect(got).to.have.length(1);
  });
});
