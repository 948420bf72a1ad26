/**
 * The script of the pages whose `<svc-checkout>` is written in the HTML: importing the package defines the
 * element, which then reads its attributes and loads the payment frame. What the element fires is logged by
 * /event-log.js; this adds what a shop would do on a completed payment.
 */
import 'svc-checkout';

document.querySelector('svc-checkout')?.addEventListener('paymentCompleted', (event) => {
  const status = document.getElementById('shop-status');
  if (!status) return;
  status.textContent = event.detail.paymentSucceeded
    ? 'Thank you! Your order is paid; the shop has been notified.'
    : 'The payment did not go through. You can try another card.';
});
