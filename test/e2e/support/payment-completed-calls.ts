import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitUntil } from './shop-page.js';

/**
 * A page's init script (`page.addInitScript`) for the tests of a framework's component around `<svc-checkout>`
 * (React, Next.js): before any script of the page runs, it keeps the element the server wrote (as the
 * document is parsed, before the page's module scripts run) as `window.serverElement`, counts the listeners
 * that the page adds for `paymentCompleted` on `<svc-checkout>` (the component's `onPaymentCompleted`:
 * @lit/react adds one listener per event, which calls the current prop) and their calls
 * (`window.paymentCompletedListeners`, `window.paymentCompletedCalls`), and keeps every `checkoutError`'s
 * detail (`window.checkoutErrors`). A string: Playwright runs it as written.
 */
export const COUNT_PAYMENT_COMPLETED_CALLS = `
  document.addEventListener('readystatechange', () => {
    if (document.readyState === 'interactive') window.serverElement = document.querySelector('svc-checkout');
  });
  window.paymentCompletedListeners = 0;
  window.paymentCompletedCalls = 0;
  window.checkoutErrors = [];
  document.addEventListener('checkoutError', (event) => window.checkoutErrors.push(event.detail), true);
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'paymentCompleted' || !(this instanceof Element) || this.localName !== 'svc-checkout' || !listener) {
      return add.call(this, type, listener, options);
    }
    const target = this;
    window.paymentCompletedListeners++;
    return add.call(this, type, (event) => {
      window.paymentCompletedCalls++;
      return typeof listener === 'function' ? listener.call(target, event) : listener.handleEvent(event);
    }, options);
  };
`;

/**
 * Opens `url` in a new context of `browser` with {@link COUNT_PAYMENT_COMPLETED_CALLS}, collecting the page's
 * console errors and uncaught errors, and resolves once the framework's component has hydrated: it added its
 * listener to the element the server wrote (not a new one).
 */
export async function openHydratedPage(
  browser: Browser,
  url: string,
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.addInitScript(COUNT_PAYMENT_COMPLETED_CALLS);
  await page.goto(url);
  await waitUntil(
    'the component to add its listener',
    async () => (await page.evaluate<number>('window.paymentCompletedListeners')) || undefined,
  );
  return { context, page, consoleErrors };
}
