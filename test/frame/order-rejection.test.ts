// The merchant's rejection of an order (a CALLBACK widget's order verification said no), through the real
// sandbox: the test gateway's merchant rejects `REJECT-<reason>-…` order ids with that reasonCode
// (test/support/gateway-fixture.ts), and the sandbox answers the frame's intake with `order_rejected` and
// the reason. The frame shows the customer why, in the frame's language, reads it out, puts the focus on
// it, and offers the way back to the shop when the page gave a back-to-merchant URL.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createTranslator, type Language, type OrderInput } from '../../src/core/index.js';
import { ORDER_REJECTION_REASONS } from '../../src/core/legacy-callbacks.js';
import { checkoutOrder, gatewayInfo, init, liveRegion, type MemoryChannel, mountFrame } from './harness.js';

const BACK_URL = 'https://shop.example/cart';

/** An order of the CALLBACK widget that the merchant rejects with `reason` (none for `undefined`). */
async function rejectedOrder(
  reason: string | undefined,
  extra: Partial<OrderInput> = {},
): Promise<OrderInput> {
  const { widgets } = await gatewayInfo();
  const id = crypto.randomUUID().slice(0, 8);
  return checkoutOrder({
    widgetId: widgets.callbackValidation,
    orderId: reason ? `REJECT-${reason}-${id}` : `REJECT-${id}`,
    ...extra,
  });
}

/** Mounts the frame, sends the order, and waits for the rejection screen with its focus. */
async function rejection(
  order: OrderInput,
  language?: Language,
): Promise<{ frame: HTMLElement; channel: MemoryChannel }> {
  const { frame, channel } = await mountFrame(order.widgetId);
  await init(channel, order, language ? { language } : {});
  await channel.waitForState('failed');
  await waitUntil(
    () => document.activeElement === frame.querySelector('#svc-status-title'),
    'focus not on the rejection heading',
  );
  return { frame, channel };
}

function backButton(frame: HTMLElement): HTMLButtonElement | undefined {
  return [...frame.querySelectorAll('button')].find(
    (button) =>
      button.textContent?.trim() ===
      createTranslator(document.documentElement.lang as Language)('status.backToMerchant'),
  );
}

describe('the merchant’s rejection of the order', () => {
  for (const reason of ORDER_REJECTION_REASONS) {
    it(`says why for ${reason}, and reads it out`, async () => {
      const en = createTranslator('en');
      const { frame, channel } = await rejection(
        await rejectedOrder(reason, { backToMerchantUrl: BACK_URL }),
      );
      const title = en('status.rejected.title');
      const text = en(`rejected.${reason}`);
      expect(frame.querySelector('#svc-status-title')!.textContent).to.equal(title);
      expect(frame.querySelector('.svc-status-text')!.textContent).to.equal(text);
      expect(liveRegion(frame).textContent).to.equal(`${title}. ${text}`);
      // The frame shows it itself: the element gets no error, only the state, which reveals the frame.
      expect(channel.states).to.deep.equal(['loading', 'failed']);
      expect(channel.types).to.not.include('error');
      // No form, no "try another card": the gateway never took this order.
      expect(frame.querySelector('form') === null, 'a form shows').to.equal(true);
      expect(frame.querySelectorAll('button')).to.have.length(1);
      await expect(frame).to.be.accessible();
    });
  }

  it('reads a rejection without a reason as the general one', async () => {
    const en = createTranslator('en');
    const { frame } = await rejection(await rejectedOrder(undefined));
    expect(frame.querySelector('.svc-status-text')!.textContent).to.equal(en('rejected.OTHER'));
  });

  it('goes back to the shop from the keyboard when the page gave its URL', async () => {
    const { frame, channel } = await rejection(
      await rejectedOrder('PRICE_CHANGED', { backToMerchantUrl: BACK_URL }),
    );
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement === backButton(frame), 'focus not on the back button').to.equal(true);
    await sendKeys({ press: 'Enter' });
    expect(channel.types).to.include('navigateBackToCart');
  });

  it('offers no way back without a back-to-merchant URL', async () => {
    const { frame } = await rejection(await rejectedOrder('PRODUCT_NOT_AVAILABLE'));
    expect(backButton(frame) === undefined, 'a back button shows').to.equal(true);
    expect(frame.querySelectorAll('button')).to.have.length(0);
    await expect(frame).to.be.accessible();
  });

  for (const language of ['lv', 'ru'] as const) {
    it(`says it in ${language}`, async () => {
      const t = createTranslator(language);
      const { frame } = await rejection(
        await rejectedOrder('DELIVERY_ADDRESS_NOT_SUPPORTED', { backToMerchantUrl: BACK_URL }),
        language,
      );
      expect(frame.querySelector('#svc-status-title')!.textContent).to.equal(t('status.rejected.title'));
      expect(liveRegion(frame).textContent).to.equal(
        `${t('status.rejected.title')}. ${t('rejected.DELIVERY_ADDRESS_NOT_SUPPORTED')}`,
      );
      expect(backButton(frame) !== undefined, 'no back button').to.equal(true);
      await expect(frame).to.be.accessible();
    });
  }
});
