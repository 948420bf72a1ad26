import { css } from '@lit/reactive-element';

// The v1 picker's looks, beside the element's own (svc-checkout.styles.ts: the button, the error box), with
// the same tokens and defaults. Tokens are read, never set. A chosen method's row takes the primary colour
// as its border; the radio itself stays visible, so the choice never rests on colour alone.
export const paymentMethodPickerStyles = css`
.status{margin:0;padding:var(--svc-spacing, 12px) 0;color:var(--svc-color-muted, #4b5563)}
.status:empty{padding:0}
.error{margin-bottom:var(--svc-spacing, 12px)}
form{margin:0}
fieldset{margin:0;padding:0;border:0;min-width:0}
legend{padding:0;margin-bottom:calc(var(--svc-spacing, 12px) / 2);font-weight:600;display:flex;align-items:center;gap:.5em}
.methods>legend{font-size:1.125em}
.group{margin-top:var(--svc-spacing, 12px)}
.choice{display:flex;align-items:center;gap:.75em;min-height:var(--svc-input-height, 44px);margin-bottom:calc(var(--svc-spacing, 12px) / 2);padding:.25em .75em;border:1px solid var(--svc-color-border, #6b7280);border-radius:var(--svc-border-radius, 6px);background:var(--svc-color-surface, #f9fafb);cursor:pointer}
.choice:has(input:checked){border-color:var(--svc-color-primary, #1a56db);box-shadow:inset 0 0 0 1px var(--svc-color-primary, #1a56db)}
.choice input{margin:0;width:1.125em;height:1.125em;accent-color:var(--svc-color-primary, #1a56db)}
input:focus-visible,select:focus-visible{outline:3px solid var(--svc-color-focus, #2563eb);outline-offset:2px}
.logos{display:flex;gap:.25em;flex:none}
img{display:block;width:2.5em;height:auto}
legend img{width:2em}
.text{display:flex;flex-direction:column}
.detail{color:var(--svc-color-muted, #4b5563);font-size:.875em}
.country{display:flex;flex-direction:column;gap:.25em;margin-bottom:var(--svc-spacing, 12px)}
select{min-height:var(--svc-input-height, 44px);padding:0 .5em;border:1px solid var(--svc-color-border, #6b7280);border-radius:var(--svc-border-radius, 6px);background:var(--svc-color-surface, #f9fafb);color:inherit;font:inherit}
button{margin-top:var(--svc-spacing, 12px)}
`;
