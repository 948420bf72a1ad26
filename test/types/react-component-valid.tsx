/**
 * `Checkout` from `svc-checkout/react` as the README shows it: each of these compiles (strict, skipLibCheck
 * off), with the element's properties as props and its events as camelCase props.
 */
import { useRef } from 'react';
import type {
  CheckoutErrorDetail,
  NavigateToCheckoutDetail,
  OrderJson,
  PaymentCompletedDetail,
  SvcCheckout,
} from 'svc-checkout';
import { Checkout, type CheckoutProps } from 'svc-checkout/react';

const order: OrderJson = {
  items: [{ amount: '12.50', label: 'Tea', count: 2, orderItemId: 'tea' }],
  shippingOptions: [{ id: 'latvian-post', amount: '2.80', label: 'Latvian Post' }],
};

export function Page({ signature }: { signature: string }) {
  const element = useRef<SvcCheckout>(null);
  const completed: PaymentCompletedDetail[] = [];
  return (
    <Checkout
      ref={element}
      key="PANTRY-1"
      widgetId="de300000-0000-4000-8000-000000000002"
      gateway="https://pay.example"
      language="lv"
      order={order}
      orderId="PANTRY-1"
      backToMerchantUrl="https://shop.example/cart"
      successRedirectUrl="https://shop.example/thanks"
      signature={signature}
      certificateName="shop-2025"
      email="anna@example.com"
      phone="+37120000000"
      firstName="Anna"
      lastName="Bērziņa"
      texts={{ 'loading.text': 'Brīdi…' }}
      cardLayout="compact"
      cardholderName="optional"
      lazy={false}
      className="checkout"
      id="checkout"
      style={{ maxWidth: '32rem' }}
      onPaymentCompleted={(event) => {
        const succeeded: boolean = event.detail.paymentSucceeded;
        const merchantOrderId: string | null = event.detail.merchantOrderId;
        completed.push(event.detail);
        if (succeeded && merchantOrderId) element.current?.remove();
      }}
      onNavigateBackToCart={(event) => {
        const url: string | null = event.detail.backToMerchantUrl;
        if (url) event.preventDefault();
      }}
      onCheckoutError={(event) => {
        const detail: CheckoutErrorDetail = event.detail;
        console.error(detail.code, detail.message, detail.attribute);
      }}
    />
  );
}

/** The order as its JSON text, the single-item form, and v1 mode. */
export function Others({ checkoutUrl }: { checkoutUrl: string }) {
  const props: CheckoutProps = { widgetId: 'w', order: JSON.stringify(order), signature: 's' };
  return (
    <>
      <Checkout {...props} />
      <Checkout
        widgetId="w"
        amount="12.50"
        currency="EUR"
        label="Tea"
        taxRate="0.21"
        count="2"
        unit="PIECE"
      />
      <Checkout
        checkoutUrl={checkoutUrl}
        paymentMethodsUrl="/payment-methods?currency=EUR"
        country="lv"
        method="visa"
        onNavigateToCheckout={(event) => {
          const detail: NavigateToCheckoutDetail = event.detail;
          event.preventDefault();
          history.pushState(null, '', detail.url);
        }}
      />
    </>
  );
}
