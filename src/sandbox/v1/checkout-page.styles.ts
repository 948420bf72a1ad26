/**
 * The hosted checkout page's stylesheet, served as a file (`/checkout/assets/checkout.css`) because the page's
 * Content-Security-Policy allows no inline style. Colours meet WCAG AA contrast; focus is always visible.
 * The focus ring is the frame's default (3:1 or more on the page's white and grey); it stands 2px off its
 * control, so the page's white, not a filled button's blue, lies between the two (no one colour reaches 3:1
 * against both white and the button's blue). The filled buttons keep a transparent border, which forced
 * colours paint, so they still look like buttons there. A merchant's brand replaces `--primary` and
 * `--primary-contrast` (and `--accent`, the chosen method's mark) with a stylesheet of its own, loaded after
 * this one (checkout-brand.ts); text on white (links) keeps `--link`, since a brand colour is checked against
 * its own text only.
 */
import { choiceId, continueButtonId } from './checkout-method-choices.js';
import { PAYMENT_METHODS } from './method-catalogue.js';

/**
 * Which submit button shows: the card's while a card (new or saved) is chosen, else the chosen bank's or
 * wallet's, each named by its radio. Without `:has()` the card's button and fields show, as before.
 */
const CHOSEN_METHOD_RULES = `
.go { display: none; }
@supports selector(:has(*)) {
  form:not(:has(#method-card:checked)) .card-fields { display: none; }
  form:not(:has(#method-card:checked, input[value^="saved:"]:checked)) .pay-card { display: none; }
${PAYMENT_METHODS.filter((method) => method.group !== 'card')
  .map(
    (method) =>
      `  form:has(#${choiceId(method.name)}:checked) #${continueButtonId(method.name)} { display: block; }`,
  )
  .join('\n')}
}`;

export const CHECKOUT_CSS = `
:root { color-scheme: light; --text: #1f2933; --muted: #52606d; --border: #6b7280; --line: #d9e2ec;
  --primary: #0b5cad; --primary-contrast: #ffffff; --accent: #0b5cad; --error: #b00020; --surface: #f5f7fa; --focus: #2563eb;
  --link: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
  color: var(--text); background: var(--surface); }
main { max-width: 32rem; margin: 2rem auto; padding: 2rem; background: #fff; border: 1px solid var(--line);
  border-radius: 12px; box-shadow: 0 1px 2px rgb(16 24 40 / 6%), 0 8px 24px rgb(16 24 40 / 6%); }
@media (max-width: 34rem) { main { margin: 0; padding: 1.25rem 1rem; border: 0; border-radius: 0; box-shadow: none; } }
.brand { display: flex; align-items: center; gap: .75rem; margin: 0 0 1rem; }
.brand img { max-height: 2.5rem; max-width: 10rem; }
h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 1.25rem; }
h2 { font-size: 1rem; margin: 0 0 .5rem; }
.summary { border-bottom: 1px solid var(--line); margin-bottom: 1.25rem; padding-bottom: 1rem; }
.summary ul { list-style: none; margin: 0; padding: 0; }
.summary li { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; padding: .375rem 0; }
.summary li + li { border-top: 1px solid var(--line); }
.item { display: flex; flex-direction: column; }
.unit { color: var(--muted); font-size: .875rem; }
.line-total, .total span:last-child { font-variant-numeric: tabular-nums; white-space: nowrap; }
.total { display: flex; justify-content: space-between; gap: 1rem; font-weight: 700; font-size: 1.125rem;
  margin: .5rem 0 0; padding-top: .5rem; border-top: 1px solid var(--line); }
/* The step page's payee and amount, then its buttons: apart, so the total does not read as the button's. */
.total + form { margin-top: 1.25rem; }
.due { margin: 0 0 1rem; padding: .5rem .75rem; border-left: 4px solid var(--accent); background: var(--surface); }
fieldset { border: 0; margin: 0 0 1.25rem; padding: 0; min-width: 0; }
legend { font-weight: 600; padding: 0; margin: 0 0 .5rem; }
fieldset fieldset { margin: .75rem 0 0; }
fieldset fieldset legend { font-weight: 400; color: var(--muted); font-size: .875rem; margin-bottom: .25rem; }
.option { display: flex; align-items: center; gap: .75rem; margin: 0 0 .5rem; padding: 0 .75rem;
  border: 1px solid var(--border); border-radius: 8px; background: #fff; }
.option:has(input:checked) { border-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); }
.option input { width: 1.125rem; height: 1.125rem; margin: 0; accent-color: var(--accent); }
.option label { display: flex; flex: 1; align-items: center; gap: .5rem; min-height: 3rem; cursor: pointer; }
.option img { width: 40px; height: 25px; }
.others { margin: .25rem 0 0; }
.others summary { padding: .625rem 0; cursor: pointer; color: var(--link); font-weight: 600; }
.others[open] summary { margin-bottom: .25rem; }
.field { margin: 0 0 1rem; }
.field label { display: block; font-weight: 500; margin-bottom: .25rem; }
.field input { width: 100%; min-height: 2.75rem; padding: .5rem .75rem; font: inherit; color: inherit;
  border: 1px solid var(--border); border-radius: 6px; }
.field input[aria-invalid="true"] { border: 2px solid var(--error); }
.hint { color: var(--muted); font-size: .875rem; margin: .25rem 0 0; }
.field-error { color: var(--error); font-weight: 600; margin: .25rem 0 0; }
.alert { border: 2px solid var(--error); border-radius: 8px; padding: .75rem 1rem; margin: 0 0 1.25rem; }
.alert > :last-child { margin-bottom: 0; }
.alert a { color: var(--error); }
button { min-height: 3rem; padding: .5rem 1.25rem; font: inherit; font-weight: 600; border-radius: 8px;
  cursor: pointer; }
.pay, .go, .approve { width: 100%; color: var(--primary-contrast); background: var(--primary);
  border: 1px solid transparent; }
.decline { width: 100%; margin-top: .5rem; color: var(--text); background: #fff; border: 1px solid var(--border); }
.back { display: inline-block; margin-top: 1rem; color: var(--link); }
.note { color: var(--muted); font-size: .875rem; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.creditors { width: 100%; border-collapse: collapse; margin: 0 0 1rem; }
.creditors caption { text-align: left; font-weight: 700; margin-bottom: .25rem; }
.creditors th, .creditors td { text-align: left; padding: .25rem .5rem .25rem 0; border-bottom: 1px solid var(--border); }
.creditors td:last-child { text-align: right; white-space: nowrap; }
${CHOSEN_METHOD_RULES}
`;
