/**
 * The hosted checkout page's stylesheet, served as a file (`/checkout/assets/checkout.css`) because the page's
 * Content-Security-Policy allows no inline style. Colours meet WCAG AA contrast; focus is always visible.
 * The focus ring is the frame's default (3:1 or more on the page's white and grey); it stands 2px off its
 * control, so the page's white, not a filled button's blue, lies between the two (no one colour reaches 3:1
 * against both white and the button's blue). The filled buttons keep a transparent border, which forced
 * colours paint, so they still look like buttons there.
 */
export const CHECKOUT_CSS = `
:root { color-scheme: light; --text: #1f2933; --muted: #52606d; --border: #9aa5b1; --primary: #0b5cad;
  --primary-contrast: #ffffff; --error: #b00020; --surface: #f5f7fa; --focus: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
  color: var(--text); background: var(--surface); }
main { max-width: 34rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border: 1px solid #d9e2ec;
  border-radius: 8px; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1.125rem; margin: 0 0 .5rem; }
.summary { border-bottom: 1px solid #d9e2ec; margin-bottom: 1rem; padding-bottom: 1rem; }
.summary ul { list-style: none; margin: 0; padding: 0; }
.summary li, .total { display: flex; justify-content: space-between; gap: 1rem; }
.total { font-weight: 700; margin: .5rem 0 0; }
fieldset { border: 1px solid #d9e2ec; border-radius: 6px; margin: 0 0 1rem; padding: .75rem 1rem; }
legend { font-weight: 700; padding: 0 .25rem; }
.option { display: flex; align-items: center; gap: .5rem; margin: .25rem 0; }
.option label { display: flex; align-items: center; gap: .5rem; cursor: pointer; }
.option img { width: 40px; height: 25px; }
.field { margin: 0 0 .75rem; }
.field label { display: block; font-weight: 600; }
.field input { width: 100%; min-height: 2.75rem; padding: .5rem .75rem; font: inherit; color: inherit;
  border: 1px solid var(--border); border-radius: 4px; }
.field input[aria-invalid="true"] { border: 2px solid var(--error); }
.hint { color: var(--muted); font-size: .875rem; margin: .125rem 0 0; }
.field-error { color: var(--error); font-weight: 600; margin: .25rem 0 0; }
.alert { border: 2px solid var(--error); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1rem; }
.alert a { color: var(--error); }
button { min-height: 2.75rem; padding: .5rem 1.25rem; font: inherit; font-weight: 700; border-radius: 4px;
  cursor: pointer; }
.pay, .approve { width: 100%; color: var(--primary-contrast); background: var(--primary);
  border: 1px solid transparent; }
.decline { width: 100%; margin-top: .5rem; color: var(--text); background: #fff; border: 1px solid var(--border); }
.back { display: inline-block; margin-top: 1rem; color: var(--primary); }
.note { color: var(--muted); font-size: .875rem; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.creditors { width: 100%; border-collapse: collapse; margin: 0 0 1rem; }
.creditors caption { text-align: left; font-weight: 700; margin-bottom: .25rem; }
.creditors th, .creditors td { text-align: left; padding: .25rem .5rem .25rem 0; border-bottom: 1px solid var(--border); }
.creditors td:last-child { text-align: right; white-space: nowrap; }
`;
