/**
 * The React 19 page: a cart whose every change is priced and signed by the shop's back end (as on the lazy
 * page, `POST /api/sign`: the page says only which products and how many), rendered with `<svc-checkout>`
 * and that signed order as its props. A new cart gives a new signed order, and rendering the element with
 * it makes the element reload its frame with the new order, until the customer starts paying. The page's
 * event log is filled by the element's event props, spelled as React 19 passes them to custom elements.
 */
// Defines <svc-checkout> before the first render, so that React sets `order` as a property (an object).
import 'svc-checkout';
import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { OrderInput, OrderJson, SvcCheckout, WidgetState } from 'svc-checkout';
import type {} from 'svc-checkout/react';

/** The products the page offers, as the lazy page shows them; the back end has the prices that count. */
const PRODUCTS = [
  { id: 'tea', name: 'Tea, 100 g', price: '6.40' },
  { id: 'honey', name: 'Honey, 0.5 kg', price: '8.90' },
] as const;

type ProductId = (typeof PRODUCTS)[number]['id'];
type Cart = Record<ProductId, number>;

/** The one shipping option of the cart; its price is the back end's. */
const SHIPPING_OPTION_ID = 'latvian-post';

/** The most of one product the back end takes in a cart. */
const MAX_COUNT = 20;

/** How long the cart must stay unchanged before it is signed, so that typing "12" signs one order, not two. */
const SIGN_DELAY_MS = 250;

/** The element's states before a payment starts: while it shows one of these, a new order replaces its order. */
const BEFORE_PAYMENT: ReadonlyArray<WidgetState | undefined> = [undefined, 'loading', 'form', 'error'];

/** The same key as /event-log.js, so that the cart page lists this page's events too. */
const EVENT_STORAGE_KEY = 'svc-demo:events';

/** What the back end answers: the order it built, and its signature. */
interface SignedCart {
  order: Omit<OrderInput, 'constraints'>;
  signature: string;
  certificateName: string;
}

/** A signed cart as the element's props take it: the order's contents as one object, kept while it stands. */
interface SignedOrder extends SignedCart {
  contents: OrderJson;
}

interface LoggedEvent {
  name: string;
  detail: string;
  time: string;
}

async function signCart(cart: Cart, signal: AbortSignal): Promise<SignedOrder> {
  const items = PRODUCTS.filter(({ id }) => cart[id] > 0).map(({ id }) => ({ id, count: cart[id] }));
  const response = await fetch('/api/sign', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items, shippingOptionId: SHIPPING_OPTION_ID }),
    signal,
  });
  const body = (await response.json()) as Partial<SignedCart> & { message?: string };
  if (!response.ok || !body.order || !body.signature || !body.certificateName) {
    throw new Error(body.message ?? `The shop could not prepare the order (HTTP ${response.status}).`);
  }
  const { order, signature, certificateName } = body as SignedCart;
  return {
    order,
    signature,
    certificateName,
    contents: {
      items: order.items,
      ...(order.shippingOptions && { shippingOptions: order.shippingOptions }),
    },
  };
}

/** A count the back end takes (0 leaves the product out), from what the quantity field holds. */
function countOf(value: string): number {
  const count = Number(value);
  return Number.isInteger(count) ? Math.min(Math.max(count, 0), MAX_COUNT) : 0;
}

function ReactCartPage({ gateway }: { gateway: string }) {
  const [cart, setCart] = useState<Cart>({ tea: 2, honey: 1 });
  const [signed, setSigned] = useState<SignedOrder>();
  const [cartError, setCartError] = useState('');
  const [status, setStatus] = useState('');
  // Once the customer started paying, the element keeps its order (it would refuse a new one): the cart closes.
  const [closed, setClosed] = useState(false);
  const [events, setEvents] = useState<LoggedEvent[]>([]);
  const empty = PRODUCTS.every(({ id }) => cart[id] === 0);

  useEffect(() => {
    if (empty) {
      setSigned(undefined);
      setCartError('Your cart is empty: add at least one product.');
      return;
    }
    // Only the newest cart's order is shown: an answer for a cart changed since is dropped.
    const request = new AbortController();
    const timer = setTimeout(() => {
      signCart(cart, request.signal).then(
        (order) => {
          setCartError('');
          setSigned(order);
        },
        (error: Error) => {
          if (!request.signal.aborted) setCartError(error.message);
        },
      );
    }, SIGN_DELAY_MS);
    return () => {
      clearTimeout(timer);
      request.abort();
    };
  }, [cart, empty]);

  // The element reflects its state in its `state` attribute; React 19 runs the cleanup a ref callback returns.
  const watchState = useCallback((element: SvcCheckout | null) => {
    if (!element) return;
    const observer = new MutationObserver(() => {
      if (!BEFORE_PAYMENT.includes(element.state)) setClosed(true);
    });
    observer.observe(element, { attributes: true, attributeFilter: ['state'] });
    return () => observer.disconnect();
  }, []);

  const log = (event: Event) => {
    const detail = event instanceof CustomEvent && event.detail != null ? JSON.stringify(event.detail) : '';
    const entry = { name: event.type, detail, time: new Date().toISOString() };
    console.info(`[svc-demo] ${entry.name}`, detail);
    try {
      const kept: unknown[] = JSON.parse(sessionStorage.getItem(EVENT_STORAGE_KEY) ?? '[]');
      kept.push({ ...entry, page: location.pathname });
      sessionStorage.setItem(EVENT_STORAGE_KEY, JSON.stringify(kept.slice(-50)));
    } catch {
      // Storage may be off; the on-page log still works.
    }
    setEvents((logged) => [...logged, entry]);
  };

  return (
    <>
      <form className="panel" aria-labelledby="cart-title" onSubmit={(event) => event.preventDefault()}>
        <h2 id="cart-title">Cart</h2>
        {PRODUCTS.map(({ id, name, price }) => (
          <div className="product" key={id}>
            <label>
              {name}{' '}
              <input
                type="number"
                name={id}
                min="0"
                max={MAX_COUNT}
                value={cart[id]}
                disabled={closed}
                aria-label={`${name.split(',')[0]} quantity`}
                onChange={(event) => {
                  const count = countOf(event.target.value);
                  setCart((current) => ({ ...current, [id]: count }));
                }}
              />
            </label>
            <span>{price} EUR each</span>
          </div>
        ))}
        <div className="product">
          <span>Shipping: Latvian Post</span>
          <span>2.80 EUR</span>
        </div>
        <p role="status">{signed && `Order ${signed.order.orderId}, signed by the shop for this cart.`}</p>
        <p id="cart-error" role="alert">
          {cartError}
        </p>
      </form>
      {signed && !empty && (
        <svc-checkout
          gateway={gateway}
          widget-id={signed.order.widgetId}
          order-id={signed.order.orderId ?? undefined}
          back-to-merchant-url={signed.order.backToMerchantUrl}
          order={signed.contents}
          signature={signed.signature}
          certificate-name={signed.certificateName}
          ref={watchState}
          onpaymentCompleted={(event) => {
            log(event);
            setStatus(
              event.detail.paymentSucceeded
                ? 'Thank you! Your order is paid; the shop has been notified.'
                : 'The payment did not go through. You can try another card.',
            );
          }}
          oncheckoutError={log}
          onnavigateBackToCart={log}
        />
      )}
      <p id="shop-status" role="status">
        {status}
      </p>
      <section className="events panel" aria-labelledby="events-title">
        <h2 id="events-title">Events from the widget</h2>
        <div role="log" aria-live="polite" aria-labelledby="events-title">
          <ol id="event-log">
            {events.map(({ name, detail, time }, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows, so an entry's place is its identity
              <li key={index} data-event={name}>
                <time dateTime={time}>{new Date(time).toLocaleTimeString()}</time> <strong>{name}</strong>
                {detail && (
                  <>
                    {' '}
                    <code>{detail}</code>
                  </>
                )}
              </li>
            ))}
          </ol>
        </div>
      </section>
    </>
  );
}

const app = document.getElementById('app')!;
createRoot(app).render(
  <StrictMode>
    <ReactCartPage gateway={app.dataset['gateway']!} />
  </StrictMode>,
);
