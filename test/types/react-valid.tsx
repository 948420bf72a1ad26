/**
 * `<svc-checkout>` in React 19 as the README shows it: each of these compiles (strict, skipLibCheck off),
 * and each type is the one React 19 passes at run time.
 */
import 'svc-checkout';
import { useRef } from 'react';
import type {
  CheckoutErrorDetail,
  NavigateBackToCartEvent,
  NavigateToCheckoutDetail,
  OrderJson,
  PaymentCompletedDetail,
  SvcCheckout,
} from 'svc-checkout';
import type {} from 'svc-checkout/react';

const order: OrderJson = {
  items: [{ amount: '12.50', label: 'Tea', count: 2, orderItemId: 'tea' }],
  shippingOptions: [{ id: 'latvian-post', amount: '2.80', label: 'Latvian Post' }],
};

export function Checkout({ signature }: { signature: string }) {
  const element = useRef<SvcCheckout>(null);
  const completed: PaymentCompletedDetail[] = [];
  return (
    <svc-checkout
      ref={element}
      key="PANTRY-1"
      widget-id="de300000-0000-4000-8000-000000000002"
      gateway="https://pay.example"
      language="lv"
      order={order}
      order-id="PANTRY-1"
      back-to-merchant-url="https://shop.example/cart"
      success-redirect-url="https://shop.example/thanks"
      signature={signature}
      certificate-name="shop-2025"
      email="anna@example.com"
      phone="+37120000000"
      first-name="Anna"
      last-name="Bērziņa"
      texts={{ 'loading.text': 'Brīdi…' }}
      class="checkout"
      className="checkout"
      id="checkout"
      style={{ maxWidth: '32rem' }}
      onpaymentCompleted={(event) => {
        const succeeded: boolean = event.detail.paymentSucceeded;
        const orderId: string = event.detail.orderId;
        const merchantOrderId: string | null = event.detail.merchantOrderId;
        completed.push(event.detail);
        if (succeeded && orderId && merchantOrderId) element.current?.remove();
      }}
      onnavigateBackToCart={(event: NavigateBackToCartEvent) => {
        if (event.cancelable) event.preventDefault();
      }}
      oncheckoutError={(event) => {
        const detail: CheckoutErrorDetail = event.detail;
        console.error(detail.code, detail.message, detail.attribute);
      }}
      onClick={(event) => event.currentTarget.state}
    >
      <p>Children render only where the element has no shadow root; it has one, so this stays hidden.</p>
    </svc-checkout>
  );
}

/** The order as its JSON text (what a server-rendered page must give) and the single-item attributes. */
export function SingleItem() {
  return (
    <>
      <svc-checkout widget-id="w" order={JSON.stringify(order)} signature="s" />
      <svc-checkout
        widget-id="w"
        amount="12.50"
        currency="EUR"
        label="Tea"
        tax-rate="0.21"
        count="2"
        unit="PIECE"
        signature="s"
        lazy
      />
      <svc-checkout lazy={false} widget-id="w" />
    </>
  );
}

/** v1 mode: the payment method picker and its cancelable navigation. */
export function PaymentMethods({ checkoutUrl }: { checkoutUrl: string }) {
  return (
    <svc-checkout
      checkout-url={checkoutUrl}
      payment-methods-url="/payment-methods?currency=EUR"
      country="lv"
      method="visa"
      onnavigateToCheckout={(event) => {
        const detail: NavigateToCheckoutDetail = event.detail;
        event.preventDefault();
        history.pushState(null, '', detail.url);
      }}
    />
  );
}
