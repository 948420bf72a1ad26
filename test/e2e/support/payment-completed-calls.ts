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
