/**
 * The payment methods on the hosted form: which choices the page opens on, which wait behind "Other ways to
 * pay", and the submit button of each bank and wallet. A method the merchant's page preferred
 * (`?preferred=`) is shown alone; without one, the page opens on the saved cards, the card and the banks of
 * the customer's country, so that on a phone the card fields are not pushed below the fold by the banks of
 * three countries. The disclosure is a `<details>`, and the stylesheet (`:has()`) shows the card fields only
 * while the card is chosen and the one submit button that says where the chosen method leads, so the page
 * needs no script: a browser without `:has()` shows the card fields and the card's button, as before.
 */
import { escapeHtml } from '../http.js';
import type { PageContext } from './checkout-page.js';
import {
  BANK_COUNTRIES,
  type BankCountry,
  COUNTRY_NAMES,
  localize,
  logoPath,
  METHOD_COUNTRIES,
  METHOD_GROUPS,
  type PaymentMethodEntry,
} from './method-catalogue.js';

/** The form's value of a saved card: its token's id behind a prefix no method name has. */
function savedChoice(tokenId: string): string {
  return `saved:${tokenId}`;
}

/** The id of a choice's radio. */
export function choiceId(value: string): string {
  return `method-${value}`;
}

/** The id of a bank's or wallet's own submit button, which the stylesheet shows while it is chosen. */
export function continueButtonId(methodName: string): string {
  return `go-${methodName}`;
}

interface Choice {
  value: string;
  label: string;
  logos: readonly string[];
}

/** Choices under one legend (saved cards, a country's banks), or none (the card, the wallets). */
interface ChoiceGroup {
  legend?: string;
  choices: Choice[];
}

export interface MethodChoiceOptions {
  methods: readonly PaymentMethodEntry[];
  savedCards: ReadonlyArray<{ id: string; description: string }>;
  /** The checked choice; one not offered (or none) checks the first. */
  selected?: string;
  /** Open on the selected choice alone (the merchant's page preferred it), when it is offered. */
  alone: boolean;
  /** The choice that takes focus, for an error about the method. */
  autofocus?: string;
}

/** The first choice as the page lists them: a saved card, the card, the first bank by country, a wallet. */
export function firstChoice(
  methods: readonly PaymentMethodEntry[],
  savedCards: ReadonlyArray<{ id: string }>,
): string {
  if (savedCards[0]) return savedChoice(savedCards[0].id);
  if (methods.some((method) => method.group === 'card')) return 'card';
  for (const country of METHOD_COUNTRIES) {
    const bank = methods.find((method) => method.group === 'bank' && method.country === country);
    if (bank) return bank.name;
  }
  return methods[0]?.name ?? 'card';
}

/** Every choice in the order the page lists them, grouped. */
function choiceGroups(context: PageContext, options: MethodChoiceOptions): ChoiceGroup[] {
  const { t, language } = context;
  const groupLabel = (name: string) =>
    localize(METHOD_GROUPS.find((group) => group.name === name)!.label, language);
  const named = (method: PaymentMethodEntry): Choice => ({
    value: method.name,
    label: localize(method.displayName, language),
    logos: [logoPath(method.logo)],
  });
  const groups: ChoiceGroup[] = [];
  if (options.savedCards.length > 0) {
    groups.push({
      legend: t('methods.saved'),
      choices: options.savedCards.map((card) => ({
        value: savedChoice(card.id),
        label: card.description,
        logos: [],
      })),
    });
  }
  const cards = options.methods.filter((method) => method.group === 'card');
  if (cards.length > 0) {
    groups.push({
      choices: [
        { value: 'card', label: groupLabel('card'), logos: cards.map((card) => logoPath(card.logo)) },
      ],
    });
  }
  for (const country of METHOD_COUNTRIES) {
    const banks = options.methods.filter((method) => method.group === 'bank' && method.country === country);
    if (banks.length === 0) continue;
    groups.push({
      legend: `${groupLabel('bank')}: ${localize(COUNTRY_NAMES[country], language)}`,
      choices: banks.map(named),
    });
  }
  const wallets = options.methods.filter((method) => method.group === 'wallet');
  if (wallets.length > 0) groups.push({ choices: wallets.map(named) });
  return groups;
}

/**
 * The customer's country among those with banks of their own: the Purchase's `client.country`, else the
 * country of a Latvian page (Russian is spoken in all three, English anywhere).
 */
function customerCountry(context: PageContext): BankCountry | undefined {
  const country = context.record.purchase.client.country?.toLowerCase();
  if (BANK_COUNTRIES.some((candidate) => candidate === country)) return country as BankCountry;
  return context.language === 'lv' ? 'lv' : undefined;
}

/** The choices the page opens on; the rest wait behind "Other ways to pay". */
function shownFirst(context: PageContext, options: MethodChoiceOptions, selected: string): Set<string> {
  if (options.alone && selected === options.selected) return new Set([selected]);
  const country = customerCountry(context);
  const shown = new Set<string>();
  for (const card of options.savedCards) shown.add(savedChoice(card.id));
  for (const method of options.methods) {
    if (method.group === 'card') shown.add('card');
    if (method.group === 'bank' && method.country === country) shown.add(method.name);
  }
  if (shown.size === 0) shown.add(selected);
  // The checked choice is never hidden: else a refused form would come back with its choice out of sight.
  return shown.has(selected) ? shown : new Set([selected]);
}

/** The choices of the methods' fieldset, those shown first and then the disclosure of the others. */
export function methodChoices(context: PageContext, options: MethodChoiceOptions): string {
  const groups = choiceGroups(context, options);
  const values = groups.flatMap((group) => group.choices.map((choice) => choice.value));
  const selected =
    options.selected !== undefined && values.includes(options.selected)
      ? options.selected
      : (values[0] ?? '');
  const first = shownFirst(context, options, selected);
  const radio = (choice: Choice) => {
    const id = choiceId(choice.value);
    return (
      `<div class="option"><input type="radio" id="${escapeHtml(id)}" name="method" value="${escapeHtml(choice.value)}"` +
      `${choice.value === selected ? ' checked' : ''}${choice.value === options.autofocus ? ' autofocus' : ''}>` +
      `<label for="${escapeHtml(id)}">${choice.logos.map((logo) => `<img src="${escapeHtml(logo)}" alt="">`).join('')}` +
      `${escapeHtml(choice.label)}</label></div>`
    );
  };
  const render = (wanted: (choice: Choice) => boolean) =>
    groups
      .map((group) => {
        const choices = group.choices.filter(wanted);
        if (choices.length === 0) return '';
        const radios = choices.map(radio).join('');
        return group.legend === undefined
          ? radios
          : `<fieldset><legend>${escapeHtml(group.legend)}</legend>${radios}</fieldset>`;
      })
      .join('');
  const others = render((choice) => !first.has(choice.value));
  return (
    render((choice) => first.has(choice.value)) +
    (others === ''
      ? ''
      : `<details class="others"><summary>${escapeHtml(context.t('methods.other'))}</summary>${others}</details>`)
  );
}

/**
 * One submit button per bank and wallet offered, saying where it leads ("Continue to Swedbank"); the
 * stylesheet shows the chosen method's. They carry no name: the checked radio says what is paid with.
 */
export function continueButtons(context: PageContext, methods: readonly PaymentMethodEntry[]): string {
  return methods
    .filter((method) => method.group !== 'card')
    .map(
      (method) =>
        `<button type="submit" class="go" id="${continueButtonId(method.name)}">` +
        `${escapeHtml(context.t('pay.continue', { method: localize(method.displayName, context.language) }))}</button>`,
    )
    .join('');
}
