import { css } from '@lit/reactive-element';

// The element's own views (loading, error) follow the same tokens as the frame, with the same defaults
// (core's `tokenVar`; a test holds each `var()` here to it). Tokens are read, never set here: a value set on
// :host would hide the merchant's inherited one. Written out rather than built from core, which would bring
// every token's checks into the script-tag file; one rule a line, since nothing minifies CSS in templates.
// A button's border is transparent rather than
// none, since forced colours paint it and a button without one reads as plain text there; the padding gives back
// its pixel, so the button keeps its size.
// The iframe is a card on the shop's page: its corners, border and shadow are tokens of the element alone
// (`FRAME_BOX_TOKENS`), which never cross to the frame. The border sits outside the frame's content box, so
// the reported height stays the content's, and the box stretches to the host's width less its border (100%
// where the browser knows no fill-available width). The radius clips the frame's own background with it. Forced colours
// drop the shadow and paint the border in a system colour.
export const svcCheckoutStyles = css`
:host{display:block;position:relative;color:var(--svc-color-text, #1f2937);font-family:var(--svc-font-family, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);font-size:var(--svc-font-size, 16px)}
:host([hidden]){display:none}
iframe{display:block;width:100%;width:-moz-available;width:-webkit-fill-available;border:var(--svc-frame-border, 1px solid #d1d5db);border-radius:var(--svc-frame-radius, 12px);box-shadow:var(--svc-frame-shadow, 0 1px 4px #00000024);color-scheme:normal}
.loading{margin:0;padding:var(--svc-spacing, 12px);color:var(--svc-color-muted, #4b5563)}
.loading:focus{outline:none}
.error{padding:var(--svc-spacing, 12px);border:1px solid var(--svc-color-error, #b91c1c);border-radius:var(--svc-border-radius, 6px);background:var(--svc-color-background, #ffffff)}
.error h2{margin:0 0 .5em;font-size:1.125em;color:var(--svc-color-error, #b91c1c)}
.error p{margin:0 0 .5em}
button{min-height:var(--svc-input-height, 44px);padding:0 calc(1.25em - 1px);border:1px solid transparent;border-radius:var(--svc-border-radius, 6px);background:var(--svc-color-primary, #1a56db);color:var(--svc-color-primary-contrast, #ffffff);font:inherit;cursor:pointer}
button:focus-visible{outline:3px solid var(--svc-color-focus, #2563eb);outline-offset:2px}
`;

/**
 * The tokens of the iframe's box, with the defaults written above: the element applies them to its iframe
 * on the shop's page, so they are neither sent to the frame nor checked as `DESIGN_TOKENS` are.
 */
export const FRAME_BOX_TOKENS = {
  '--svc-frame-radius': '12px',
  '--svc-frame-border': '1px solid #d1d5db',
  '--svc-frame-shadow': '0 1px 4px #00000024',
} as const;
