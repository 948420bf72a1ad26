/**
 * `<svc-checkout>` in v1 mode: the payment method picker. It looks up the payment methods at the merchant's
 * endpoint (`payment-methods-url`; the gateway's lookup needs the merchant's secret key, so browsers never
 * call the gateway for it), shows them as the gateway groups them, and on confirmation goes to the
 * Purchase's `checkout_url` with `?preferred=<method>`. It renders into the element's shadow root, in a
 * container the element places, and is loaded only when the element has a `checkout-url` (see
 * svc-checkout-v1.ts), so legacy pages never download it.
 */
import { adoptStyles, type ReactiveController, type ReactiveElement } from '@lit/reactive-element';
import { html, nothing, render, type TemplateResult } from 'lit/html.js';
import type { WidgetState } from '../core/frame-channel.js';
import { createElementTranslator, type Language, normalizeLanguage, type Translate } from '../core/i18n.js';
import {
  type CountryChoices,
  checkoutUrlWithMethod,
  chooseCountry,
  groupMethods,
  type MethodChoice,
  type MethodGroupView,
  methodGroups,
  regionOf,
} from '../core/payment-method-groups.js';
import { createPickerTranslator, type PickerMessageKey } from '../core/picker-messages.js';
import type { PaymentMethods } from '../core/v1-types.js';
import { logFailure, logToConsole, sentence } from './checkout-failure.js';
import { CheckoutErrorEvent } from './events.js';
import { NavigateToCheckoutEvent } from './navigate-to-checkout-event.js';
import { paymentMethodPickerStyles } from './payment-method-picker.styles.js';
import { keptPaymentMethods, lookUpPaymentMethods, lookupUrl } from './payment-methods-lookup.js';

/** What the picker reads of its element: the element's attributes (as properties) and its shadow root. */
export interface PickerHost extends ReactiveElement {
  checkoutUrl?: string | undefined;
  paymentMethodsUrl?: string | undefined;
  country?: string | undefined;
  method?: string | undefined;
  language?: string | undefined;
  texts?: Readonly<Record<string, unknown>> | undefined;
}

/** What the picker may do with its element besides asking it to render. */
export interface PickerControls {
  /** Dispatches an event on the element; false when a listener cancelled it. */
  emit(event: Event): boolean;
  /** Sets the element's `state`. */
  setState(state: WidgetState): void;
}

/** The lookup for the current endpoint and language. */
type Lookup =
  | { status: 'loading'; url: string }
  | { status: 'ready'; url: string; groups: readonly MethodGroupView[] }
  | { status: 'failed'; url: string | undefined };

/** How long the status region stays empty, so that screen readers take it in before its text comes. */
const LIVE_REGION_DELAY_MS = 100;

/** The fallback of the element's texts, as in legacy mode. */
const FALLBACK_LANGUAGE: Language = 'en';

/** An http(s) URL made absolute against the page, or undefined. */
function absoluteUrl(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, document.baseURI);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The regions of the browser's languages (`lv-LV` gives `lv`), a guess at the customer's country. */
function browserRegions(): (string | undefined)[] {
  return (navigator.languages ?? [navigator.language]).map(regionOf);
}

const logos = (urls: readonly string[]) =>
  urls.length === 0
    ? nothing
    : html`<span class="logos">${urls.map((src) => html`<img src=${src} alt="" width="40" height="25" decoding="async">`)}</span>`;

/** The element's language, or the page's. */
const languageOf = (host: PickerHost): Language | undefined =>
  normalizeLanguage(host.language) ?? normalizeLanguage(document.documentElement.lang);

/**
 * The picker of one element, a Lit reactive controller of it. Before each update of the element
 * ({@link hostUpdate}) it applies the element's changed attributes and starts lookups; the element calls
 * {@link render} from its own update, which only renders, and places the returned container. The picker asks
 * the element to update when its lookup settles or the customer chooses.
 */
export class PaymentMethodPicker implements ReactiveController {
  /** The container the picker renders into; the element places it in its shadow root. */
  readonly root: HTMLDivElement = document.createElement('div');
  readonly #host: PickerHost;
  readonly #controls: PickerControls;
  #lookup: Lookup | undefined;
  /** The chosen method; it counts only while it is shown (see `#chosenShown`). */
  #chosen: string | undefined;
  /** The country shown per `byCountry` group, by group name. */
  readonly #countries = new Map<string, string>();
  /** The element's `method` and `country` as last applied, to apply changes to them once. */
  #appliedMethod: string | undefined;
  #appliedCountry: string | undefined;
  #announce = false;
  /** Set when `checkout-url` is unusable: the picker then shows why instead of the methods. */
  #broken = false;

  constructor(host: PickerHost, controls: PickerControls) {
    this.#host = host;
    this.#controls = controls;
    host.addController(this);
    const elementClass = host.constructor as typeof ReactiveElement;
    adoptStyles(host.renderRoot as ShadowRoot, [...elementClass.elementStyles, paymentMethodPickerStyles]);
    // A status region is announced when its text changes, not with the text it is inserted with.
    setTimeout(() => {
      this.#announce = true;
      host.requestUpdate();
    }, LIVE_REGION_DELAY_MS);
    if (!absoluteUrl(host.checkoutUrl)) this.#break();
  }

  /** Before the element's update: applies its attributes (see `#sync`). */
  hostUpdate(): void {
    this.#sync(languageOf(this.#host));
  }

  /** Renders the current state into {@link root} and returns it. Called from the element's update. */
  render(): HTMLDivElement {
    const textLanguage = languageOf(this.#host) ?? FALLBACK_LANGUAGE;
    this.root.lang = textLanguage;
    render(this.#template(textLanguage), this.root);
    return this.root;
  }

  /**
   * Applies changed `method` and `country` (which choose the shown countries again) and starts the lookup
   * when the endpoint or the language changed.
   */
  #sync(language: Language | undefined): void {
    const host = this.#host;
    if (this.#broken) return;
    let choose = false;
    if (host.method !== this.#appliedMethod) {
      this.#appliedMethod = host.method;
      this.#chosen = host.method || undefined;
      choose = true;
    }
    if (host.country !== this.#appliedCountry) {
      this.#appliedCountry = host.country;
      choose = true;
    }
    const url = host.paymentMethodsUrl ? lookupUrl(host.paymentMethodsUrl, language) : undefined;
    if (this.#lookup === undefined || this.#lookup.url !== url) {
      if (url === undefined) {
        this.#failed(
          undefined,
          `payment-methods-url: ${JSON.stringify(host.paymentMethodsUrl ?? null)} is not an http(s) URL`,
        );
      } else {
        this.#startLookup(url);
      }
    } else if (choose) {
      this.#chooseCountries();
    }
  }

  #startLookup(url: string): void {
    const kept = keptPaymentMethods(url);
    if (kept) {
      this.#ready(url, kept);
      return;
    }
    this.#lookup = { status: 'loading', url };
    this.#controls.setState('loading');
    void lookUpPaymentMethods(url).then((result) => {
      if (this.#lookup?.url !== url) return;
      if (result.ok) this.#ready(url, result.methods);
      else this.#failed(url, result.reason, result.explained);
      this.#host.requestUpdate();
    });
  }

  #ready(url: string, methods: PaymentMethods): void {
    const gateway = absoluteUrl(this.#host.checkoutUrl)?.origin ?? location.origin;
    this.#lookup = { status: 'ready', url, groups: methodGroups(methods, gateway) };
    this.#chooseCountries();
    this.#controls.setState('form');
  }

  /** `explained`: the HTTP status of an endpoint's error answer whose message the reason relays. */
  #failed(url: string | undefined, reason: string, explained?: number): void {
    this.#lookup = { status: 'failed', url };
    this.#controls.setState('form');
    const said = `<svc-checkout> payment methods lookup failed [attribute: payment-methods-url]: ${sentence(reason)}`;
    logToConsole((lines) => `${said} ${lines.lookupFix(explained)}`, said);
  }

  /** Shows each country group in the customer's country, or the one of the chosen method. */
  #chooseCountries(): void {
    const lookup = this.#lookup;
    if (lookup?.status !== 'ready') return;
    const wanted = [this.#host.country, ...browserRegions()];
    this.#countries.clear();
    for (const group of lookup.groups) {
      if (group.kind !== 'byCountry') continue;
      const code = chooseCountry(group.countries, wanted, this.#chosen);
      if (code !== undefined) this.#countries.set(group.name, code);
    }
  }

  #shownCountry(group: Extract<MethodGroupView, { kind: 'byCountry' }>): CountryChoices {
    const code = this.#countries.get(group.name);
    return group.countries.find((country) => country.code === code) ?? group.countries[0]!;
  }

  /** The chosen method when the customer can see it chosen; undefined otherwise. */
  #chosenShown(): string | undefined {
    const lookup = this.#lookup;
    const chosen = this.#chosen;
    if (lookup?.status !== 'ready' || chosen === undefined) return undefined;
    const shown = lookup.groups.some((group) =>
      (group.kind === 'byCountry' ? this.#shownCountry(group).methods : groupMethods(group)).some(
        (choice) => choice.method === chosen,
      ),
    );
    return shown ? chosen : undefined;
  }

  readonly #choose = (event: Event): void => {
    this.#chosen = (event.target as HTMLInputElement).value;
    this.#host.requestUpdate();
  };

  #setCountry(group: string, event: Event): void {
    this.#countries.set(group, (event.target as HTMLSelectElement).value);
    this.#host.requestUpdate();
  }

  readonly #confirm = (event: Event): void => {
    event.preventDefault();
    const checkout = absoluteUrl(this.#host.checkoutUrl);
    if (!checkout) {
      this.#break();
      this.#host.requestUpdate();
      return;
    }
    const method = this.#chosenShown() ?? null;
    const url = method === null ? checkout.href : checkoutUrlWithMethod(checkout.href, method);
    if (this.#controls.emit(new NavigateToCheckoutEvent({ method, url }))) location.assign(url);
  };

  /** `checkout-url` is unusable: say so as legacy mode says a setup error (console, `checkoutError`). */
  #break(): void {
    this.#broken = true;
    const failure = {
      code: 'invalid_order',
      message: `checkout-url: ${JSON.stringify(this.#host.checkoutUrl ?? null)} is not an http(s) URL; give the Purchase's checkout_url.`,
      attribute: 'checkout-url',
    } as const;
    this.#controls.setState('error');
    logFailure(failure);
    this.#controls.emit(new CheckoutErrorEvent(failure));
  }

  #template(language: Language): TemplateResult {
    const host = this.#host;
    if (this.#broken) {
      const t = createElementTranslator(language, host.texts);
      return html`<div class="error" role="alert" part="error">
        <h2>${t('error.title')}</h2>
        <p>${t('error.unavailable')}</p>
      </div>`;
    }
    const t = createPickerTranslator(language, host.texts);
    const lookup = this.#lookup;
    const groups = lookup?.status === 'ready' ? lookup.groups : [];
    const status =
      lookup?.status === 'loading'
        ? t('picker.loading')
        : lookup?.status === 'ready' && groups.length === 0
          ? t('picker.empty')
          : '';
    const chosen = this.#chosenShown();
    return html`<p class="status" role="status" part="status">${this.#announce ? status : ''}</p>
      ${
        lookup?.status === 'failed'
          ? html`<div class="error" role="alert" part="error"><p>${t('picker.failed')}</p></div>`
          : nothing
      }
      ${
        lookup === undefined || lookup.status === 'loading'
          ? nothing
          : html`<form part="picker" novalidate @submit=${this.#confirm}>
            ${
              groups.length > 0
                ? html`<fieldset class="methods">
                  <legend>${t('picker.title')}</legend>
                  ${groups.map((group) => this.#group(group, chosen, t, language))}
                </fieldset>`
                : nothing
            }
            <button part="confirm-button">${t('picker.confirm')}</button>
          </form>`
      }`;
  }

  #group(
    group: MethodGroupView,
    chosen: string | undefined,
    t: Translate<PickerMessageKey>,
    language: Language,
  ): TemplateResult {
    if (group.kind === 'card') {
      const members = group.methods.map((choice) => choice.method);
      const checked = chosen !== undefined && members.includes(chosen);
      const schemes = new Intl.ListFormat(language, { type: 'conjunction' }).format(
        group.methods.map((choice) => choice.name),
      );
      return html`<label class="choice card" part="method">
        <input type="radio" name="method" .value=${checked ? chosen! : members[0]!} .checked=${checked} @change=${this.#choose}>
        ${logos(group.logos)}
        <span class="text"><span class="name">${group.label ?? t('picker.card')}</span>
        <span class="detail">${t('picker.cardSchemes', { schemes })}</span></span>
      </label>`;
    }
    const legend = html`<legend>${logos(group.logos)}${group.label ?? t('picker.otherMethods')}</legend>`;
    if (group.kind === 'list') {
      return html`<fieldset class="group" part="group">
        ${legend}${group.methods.map((choice) => this.#choice(choice, chosen))}
      </fieldset>`;
    }
    const shown = this.#shownCountry(group);
    return html`<fieldset class="group" part="group">
      ${legend}
      <label class="country">${t('picker.country')}
        <select part="country-select" @change=${(event: Event) => this.#setCountry(group.name, event)}>
          ${group.countries.map(
            (country) =>
              html`<option value=${country.code} .selected=${country.code === shown.code}>${country.name ?? t('picker.otherCountry')}</option>`,
          )}
        </select>
      </label>
      ${shown.methods.map((choice) => this.#choice(choice, chosen))}
    </fieldset>`;
  }

  #choice(choice: MethodChoice, chosen: string | undefined): TemplateResult {
    return html`<label class="choice" part="method">
      <input type="radio" name="method" .value=${choice.method} .checked=${choice.method === chosen} @change=${this.#choose}>
      ${logos(choice.logos)}<span class="name">${choice.name}</span>
    </label>`;
  }
}
