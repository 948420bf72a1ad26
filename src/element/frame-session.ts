/**
 * `<svc-checkout>`'s frame session (legacy mode), a Lit reactive controller: the prepared order, the loads
 * of the payment frame (a {@link FrameHost} each), the frame's messages, and the order's changes after the
 * start (replaced after the task that made them, refused once a payment attempt began). It builds no DOM:
 * the element renders {@link FrameSession.frame} when the session asks it to update, and shows the failures
 * the session hands it through {@link SessionControls}. The controller is a closure rather than a class: its
 * state, in local variables, minifies to single letters, which keeps the script-tag file (with the frame)
 * within its size budget.
 */
import type { PropertyValues, ReactiveController, ReactiveElement } from '@lit/reactive-element';
import { DESIGN_TOKEN_NAMES } from '../core/design-token-names.js';
import type { FrameToElementMessage, WidgetErrorCode, WidgetState } from '../core/frame-channel.js';
import type { OrderItemInput, ShippingOptionInput } from '../core/order.js';
import { blame, type CheckoutFailure, logFailure } from './checkout-failure.js';
import { elementLanguage } from './element-language.js';
import {
  type CheckoutAttribute,
  CheckoutErrorEvent,
  NavigateBackToCartEvent,
  PaymentCompletedEvent,
} from './events.js';
import { FrameHost, type FrameLoadFailure } from './frame-host.js';
import { type OrderSource, orderKey, type Prepared, prepareOrder } from './prepare-order.js';

/** What the session reads of its element: the attributes the order is made of, its language and texts. */
export interface SessionHost extends ReactiveElement, OrderSource {
  language?: string | undefined;
  texts?: Readonly<Record<string, unknown>> | undefined;
  lazy?: boolean;
  checkoutUrl?: string | undefined;
}

/** What the session may do with its element. */
export interface SessionControls {
  /** Dispatches an event on the element; false when a listener cancelled it. */
  emit(event: Event): boolean;
  /** Sets the element's `state`. */
  setState(state: WidgetState): void;
  /** Shows the failure instead of the frame (which the session has stopped), and reports it. */
  fail(failure: CheckoutFailure): void;
  /** The element's class (not a subclass): its properties' attributes, and `frameReadyTimeout`. */
  elementClass: { properties: object; frameReadyTimeout: number };
}

/**
 * One load of the frame as the element shows it: from the start, since the gateway's page carries the form
 * (its first view), which takes the focus and typing before the frame's code has run.
 */
export interface FrameView {
  host: FrameHost;
  height?: number;
}

/**
 * The properties whose change leaves the order as it is: `language` is a live update of the form, `texts`
 * and `lazy` matter at the start only, and the rest are v1 mode's. A change of any other property may change
 * the order (see `changed`).
 */
const NOT_ORDER = ['language', 'texts', 'lazy', 'checkoutUrl', 'paymentMethodsUrl', 'country', 'method'];

/** The frame session of one element (see the module's description), created by {@link createFrameSession}. */
export interface FrameSession extends ReactiveController {
  /** The load shown, which the element renders; undefined before the first and while a failure is shown. */
  readonly frame: FrameView | undefined;
  /** The items and shipping options the page added by script (`addOrderItem`, `addShippingOption`). */
  readonly items: OrderItemInput[];
  readonly shippingOptions: ShippingOptionInput[];
  /**
   * Opens the frame as the element connects, before the start (the page's scripts after the element may
   * still add to the order), so that the frame loads meanwhile: for a legacy widget that starts by itself,
   * when the attributes name one. The start sends the order to it when it is for the same gateway and widget.
   */
  open(): void;
  /** Starts with what the attributes make: the frame with the prepared order, or the failure. */
  start(): void;
  /** Stops and drops the frame opened before a start in v1 mode. */
  stop(): void;
  /**
   * Takes the element's changed properties after an update: the order's, after the task (the page may still
   * be setting the signature that goes with a new order), and `language`, a live update of the form.
   */
  changed(changed: PropertyValues): void;
  /** Sends the `--svc-*` custom properties again, after the page changed them. */
  refreshAppearance(): void;
  /** Loads the frame with a new channel (the first time, on retry, and after the element was moved). */
  load(): void;
}

/** The frame session of `host`, added to it as a controller. */
export function createFrameSession(host: SessionHost, controls: SessionControls): FrameSession {
  let started = false;
  /** The load shown (the session's `frame`). */
  let current: FrameView | undefined;
  let reloadOnConnect = false;
  /** The order the frame has (or had, when it failed); undefined when the attributes gave none. */
  let prepared: Prepared | undefined;
  /** The `orderKey` of what the element shows: the frame's order, or the failure of the attributes. */
  let shown: string | undefined;
  /** The `orderKey` of the last change looked at, so that a refused change repeated is not refused again. */
  let seen: string | undefined;
  /** The frame has reported a payment attempt in its current load: the order is locked. */
  let attempted = false;
  /** The merchant's verification rejected the frame's current order: its `failed` state is no attempt. */
  let rejected = false;
  /** How the frame opened before the start failed, told at the start, when the page listens. */
  let earlyFailure: FrameLoadFailure | undefined;
  /** The properties changed since the last look at them, which the next task takes together. */
  const changedKeys = new Set<PropertyKey>();
  let changeTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The iframe that the page's HTML declared in the element's shadow root (`checkoutElementHtml`), there
   * before the element's script ran: the first load may adopt it; any later one finds its own old iframes.
   */
  let declared = host.shadowRoot?.querySelector('iframe');

  const session: FrameSession = {
    get frame() {
      return current;
    },
    items: [],
    shippingOptions: [],

    open() {
      if (started || current || host.lazy || host.checkoutUrl) return;
      const made = prepare();
      // What cannot open now is told at the start, which prepares again.
      if ('code' in made) return;
      prepared = made;
      load();
    },

    start() {
      started = true;
      const opened = prepared;
      const made = prepare();
      // The frame opened before the start takes the order when it was opened for the same gateway, widget
      // and card form (whose settings are in its URL, and a page may set them after adding the element).
      if (
        'code' in made ||
        opened?.gateway !== made.gateway ||
        opened.widgetId !== made.widgetId ||
        opened.card !== made.card
      ) {
        begin(made, true);
        return;
      }
      // A failure of its load is told now.
      shown = seen = orderKey(made);
      prepared = made;
      if (earlyFailure) failed(earlyFailure.code, earlyFailure.message);
      // `init` goes now when the frame is ready, else when it says so.
      else if (current?.host.ready) sendInit(current.host);
    },

    stop() {
      current?.host.dispose();
      current = undefined;
      reloadOnConnect = false;
    },

    hostConnected() {
      if (reloadOnConnect) {
        reloadOnConnect = false;
        load();
      }
    },

    hostDisconnected() {
      // A moved iframe reloads, so the frame starts over: listen to its new load on a new channel.
      if (current) {
        current.host.dispose();
        reloadOnConnect = true;
      }
    },

    changed(changed) {
      if (started) {
        for (const key of changed.keys()) if (!NOT_ORDER.includes(key as string)) changedKeys.add(key);
        if (changedKeys.size > 0) {
          clearTimeout(changeTimer);
          changeTimer = setTimeout(takeChanges);
        }
      }
      const language = elementLanguage(host);
      // Before `ready`, `post` does nothing: `init` carries the language then.
      if (changed.has('language') && language && current) current.host.post({ type: 'update', language });
    },

    refreshAppearance() {
      current?.host.post({ type: 'update', appearance: appearance() });
    },

    load,
  };

  /** What the attributes and the added items and options make now (see prepare-order.ts). */
  function prepare(): Prepared | CheckoutFailure {
    // The class registered for the tag: the gateway's script sets the default on it, which may be another
    // copy of the element's class (the npm package defined the tag first) or a subclass.
    const { defaultGateway } = host.constructor as { defaultGateway?: string };
    return prepareOrder(host, session.items, session.shippingOptions, defaultGateway);
  }

  function load(): void {
    if (!prepared) return;
    current?.host.dispose();
    attempted = false;
    rejected = false;
    const frameHost: FrameHost = new FrameHost(
      {
        gateway: prepared.gateway,
        widgetId: prepared.widgetId,
        // The document's origin, which the frame sees as `event.origin` (`location.origin` is "null" in an
        // about:srcdoc page that inherits its parent's origin).
        pageOrigin: window.origin,
        readyTimeout: controls.elementClass.frameReadyTimeout,
        fields: ((prepared.init.order.shippingOptions as unknown[] | undefined)?.length ?? 0) > 0,
        language: elementLanguage(host),
        card: prepared.card,
        declared,
      },
      {
        message: (message) => onMessage(frameHost, message),
        failed: (failure) => {
          if (started) failed(failure.code, failure.message);
          else earlyFailure = failure;
        },
      },
    );
    declared = undefined;
    current = { host: frameHost };
    host.requestUpdate();
    controls.setState('loading');
  }

  /**
   * Shows what the attributes make: the frame with the prepared order, or the failure. `now` false (a
   * disconnected element) leaves the load of the frame to the next connection.
   */
  function begin(made: Prepared | CheckoutFailure, now: boolean): void {
    shown = seen = orderKey(made);
    if ('code' in made) {
      prepared = undefined;
      fail(made);
    } else {
      prepared = made;
      if (now) load();
      else reloadOnConnect = true;
    }
  }

  /**
   * Takes the changes of the last task (see the element's description): the new order replaces the frame's,
   * unless it is equal, or a payment attempt has begun in the frame, which refuses it.
   */
  function takeChanges(): void {
    const properties = controls.elementClass.properties as Record<PropertyKey, { attribute?: string }>;
    const names = [...changedKeys].map((key) => properties[key]?.attribute ?? String(key));
    changedKeys.clear();
    const made = prepare();
    const key = orderKey(made);
    const wasSeen = key === seen;
    seen = key;
    if (key === shown || wasSeen) return;
    if (attempted && current) {
      const failure = {
        code: 'order_locked',
        message: `${names.join(', ')}: changed after a payment attempt began`,
        attribute: names[0] as CheckoutAttribute,
      } as const;
      logFailure(failure);
      controls.emit(new CheckoutErrorEvent(failure));
      return;
    }
    begin(made, host.isConnected);
  }

  function onMessage(frameHost: FrameHost, message: FrameToElementMessage): void {
    const frame = current;
    if (frame?.host !== frameHost) return;
    switch (message.type) {
      case 'ready':
        if (started) sendInit(frameHost);
        return;
      case 'shown':
        return;
      case 'resize':
        frame.height = message.height;
        host.requestUpdate();
        return;
      case 'state':
        if (message.state === 'error') {
          // The frame sends `error` first; a bare `error` state still must not leave a blank box.
          failed('internal_error', 'The payment frame reported an error.');
          return;
        }
        controls.setState(message.state);
        if (message.state !== 'loading' && message.state !== 'form' && !rejected) attempted = true;
        return;
      case 'paymentCompleted': {
        const url = message.paymentSucceeded && prepared?.init.order.successRedirectUrl;
        // After the listeners ran (dispatch is synchronous), unless one called preventDefault().
        if (
          controls.emit(
            new PaymentCompletedEvent({
              orderId: message.orderId,
              merchantOrderId: message.merchantOrderId ?? null,
              paymentSucceeded: message.paymentSucceeded,
            }),
          ) &&
          url
        )
          location.assign(url);
        return;
      }
      case 'navigateBackToCart': {
        const url = prepared?.init.order.backToMerchantUrl ?? null;
        if (controls.emit(new NavigateBackToCartEvent({ backToMerchantUrl: url })) && url)
          location.assign(url);
        return;
      }
      case 'error':
        failed(message.code, message.message, message.field);
        return;
      case 'rejected':
        // The frame shows the customer why; the page may change the order and try again (not locked).
        rejected = true;
        controls.emit(
          new CheckoutErrorEvent({
            code: 'order_rejected',
            message: message.message,
            ...(message.reason && { reason: message.reason }),
          }),
        );
        return;
    }
  }

  function sendInit(frameHost: FrameHost): void {
    const language = elementLanguage(host);
    const texts: Record<string, string> = {};
    for (const [key, value] of Object.entries(host.texts ?? {})) {
      if (typeof value === 'string') texts[key] = value;
    }
    frameHost.post({
      type: 'init',
      ...prepared!.init,
      appearance: appearance(),
      texts,
      ...(language && { language }),
    });
  }

  // The values go as the page computes them: the frame holds them to core's allow-list (it must not trust
  // any message) and warns in its console, which the page's developer tools show, about each value it
  // leaves out. Checking here as well would cost the script-tag file about 1.6 KB gzip (core's colour
  // names and value grammars).
  function appearance(): Record<string, string> {
    const style = getComputedStyle(host);
    const values: Record<string, string> = {};
    for (const name of DESIGN_TOKEN_NAMES) {
      const value = style.getPropertyValue(name).trim();
      if (value) values[name] = value;
    }
    return values;
  }

  /** A failure the frame or its load reports, blamed on what the page gave (an attribute or a script call). */
  function failed(code: WidgetErrorCode, message: string, field?: string): void {
    const { attribute, call } = blame(field, code, prepared!);
    fail({ code, message: call ? `${call}: ${message}` : message, ...(attribute && { attribute }) });
  }

  /** Stops listening to the frame shown, and shows the failure instead. */
  function fail(failure: CheckoutFailure): void {
    current?.host.dispose();
    current = undefined;
    controls.fail(failure);
  }

  host.addController(session);
  return session;
}
