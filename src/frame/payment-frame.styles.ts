/**
 * The payment frame's styles, shared by the parts of its form (fields, buttons, notices), on the `--svc-*`
 * tokens. Every rule is scoped under `svc-payment-frame`, since they are adopted by the whole document.
 */
import { css } from 'lit';
import { token } from './tokens.js';

const primary = token('--svc-color-primary');
const primaryContrast = token('--svc-color-primary-contrast');
const text = token('--svc-color-text');
const muted = token('--svc-color-muted');
const background = token('--svc-color-background');
const surface = token('--svc-color-surface');
const border = token('--svc-color-border');
const error = token('--svc-color-error');
const success = token('--svc-color-success');
const focus = token('--svc-color-focus');
const radius = token('--svc-border-radius');
const spacing = token('--svc-spacing');
const inputHeight = token('--svc-input-height');

export const paymentFrameStyles = css`
  html:has(> body > svc-payment-frame),
  body:has(> svc-payment-frame) {
    margin: 0;
    background: ${background};
  }

  svc-payment-frame {
    display: block;
    box-sizing: border-box;
    padding: max(4px, ${spacing});
    color: ${text};
    background: ${background};
    font-family: ${token('--svc-font-family')};
    font-size: ${token('--svc-font-size')};
    line-height: 1.4;
  }

  svc-payment-frame *,
  svc-payment-frame *::before,
  svc-payment-frame *::after {
    box-sizing: border-box;
  }

  svc-payment-frame h2 {
    margin: 0 0 calc(${spacing} * 0.75);
    font-size: 1.15em;
  }

  svc-payment-frame p {
    margin: 0 0 calc(${spacing} * 0.5);
  }

  svc-payment-frame .svc-visually-hidden,
  svc-payment-frame .svc-card-fields--compact .svc-card-line :is(label, .svc-hint) {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }

  svc-payment-frame fieldset {
    margin: 0 0 ${spacing};
    padding: 0;
    border: 0;
    min-width: 0;
  }

  svc-payment-frame legend {
    padding: 0;
    margin-bottom: calc(${spacing} * 0.5);
    font-weight: 600;
  }

  svc-payment-frame .svc-field {
    margin-bottom: ${spacing};
  }

  svc-payment-frame label {
    display: block;
    margin-bottom: 4px;
    font-weight: 500;
  }

  svc-payment-frame .svc-optional,
  svc-payment-frame .svc-hint,
  svc-payment-frame .svc-secure-note,
  svc-payment-frame .svc-summary-order,
  svc-payment-frame .svc-summary-tax {
    color: ${muted};
    font-weight: 400;
    font-size: 0.875em;
  }

  svc-payment-frame .svc-hint {
    margin: 4px 0 0;
  }

  svc-payment-frame .svc-input {
    position: relative;
  }

  svc-payment-frame input:not([type='radio'], [type='checkbox']),
  svc-payment-frame select {
    display: block;
    width: 100%;
    min-height: ${inputHeight};
    padding: 0 12px;
    color: ${text};
    background: ${surface};
    border: 1px solid ${border};
    border-radius: ${radius};
    font: inherit;
  }

  svc-payment-frame input::placeholder {
    color: ${muted};
    opacity: 1;
  }

  svc-payment-frame input[readonly] {
    opacity: 0.8;
  }

  svc-payment-frame input[aria-invalid='true'] {
    border-color: ${error};
    border-width: 2px;
  }

  svc-payment-frame .svc-error {
    margin: 4px 0 0;
    color: ${error};
    font-size: 0.875em;
    font-weight: 600;
  }

  svc-payment-frame :focus-visible,
  svc-payment-frame input:focus,
  svc-payment-frame select:focus {
    outline: 3px solid ${focus};
    outline-offset: 1px;
  }

  svc-payment-frame [tabindex='-1']:focus {
    outline: none;
  }

  svc-payment-frame .svc-checkbox {
    display: flex;
    gap: 8px;
    align-items: flex-start;
  }

  svc-payment-frame .svc-checkbox input {
    width: 1.25em;
    height: 1.25em;
    margin: 0.1em 0 0;
    accent-color: ${primary};
  }

  svc-payment-frame .svc-checkbox label {
    margin: 0;
    font-weight: 400;
  }

  svc-payment-frame .svc-link {
    color: ${primary};
  }

  svc-payment-frame .svc-actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(${spacing} * 0.75);
    align-items: center;
    margin: ${spacing} 0;
  }

  svc-payment-frame .svc-button {
    min-height: ${inputHeight};
    padding: 0 20px;
    border: 1px solid transparent;
    border-radius: ${radius};
    font: inherit;
    font-weight: 600;
    cursor: pointer;
  }

  svc-payment-frame .svc-button--primary {
    color: ${primaryContrast};
    background: ${primary};
  }

  svc-payment-frame .svc-pay {
    flex: 1 1 100%;
  }

  svc-payment-frame .svc-button--secondary {
    color: ${primary};
    background: ${background};
    border-color: ${primary};
  }

  svc-payment-frame .svc-button--link {
    padding: 0 4px;
    color: ${primary};
    background: none;
    text-decoration: underline;
  }

  svc-payment-frame .svc-button[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.7;
  }

  svc-payment-frame [aria-busy='false'] .svc-pay {
    cursor: pointer;
    opacity: 1;
  }

  svc-payment-frame .svc-notice {
    margin: ${spacing} 0;
    padding: ${spacing};
    border: 1px solid ${border};
    border-left-width: 4px;
    border-radius: ${radius};
    background: ${surface};
  }

  svc-payment-frame .svc-notice--error {
    border-color: ${error};
  }

  svc-payment-frame .svc-progress {
    color: ${muted};
  }

  svc-payment-frame .svc-progress::before {
    content: '';
    display: inline-block;
    width: 0.9em;
    height: 0.9em;
    margin-right: 8px;
    vertical-align: -0.1em;
    border: 2px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    animation: svc-spin 0.8s linear infinite;
  }

  @keyframes svc-spin {
    to {
      transform: rotate(360deg);
    }
  }

  @media (prefers-reduced-motion: reduce) {
    svc-payment-frame .svc-progress::before {
      animation: none;
    }
  }

  svc-payment-frame .svc-summary {
    margin-bottom: ${spacing};
    padding: ${spacing};
    background: ${surface};
    border-radius: ${radius};
  }

  svc-payment-frame .svc-summary-lines {
    margin: 0;
    padding: 0;
    list-style: none;
  }

  svc-payment-frame .svc-summary-lines li,
  svc-payment-frame .svc-summary-totals > div {
    display: flex;
    gap: 8px;
    justify-content: space-between;
    padding: 4px 0;
  }

  svc-payment-frame .svc-line-label {
    flex: 1;
  }

  svc-payment-frame .svc-line-quantity {
    color: ${muted};
  }

  svc-payment-frame .svc-summary-totals {
    margin: 4px 0 0;
    border-top: 1px solid ${border};
  }

  svc-payment-frame .svc-summary-totals dd {
    margin: 0;
  }

  /* Words in a dashed box: not colour alone. */
  svc-payment-frame .svc-test-mode {
    padding: 4px 8px;
    border: 1px dashed;
  }

  svc-payment-frame .svc-summary-total {
    font-weight: 700;
  }

  svc-payment-frame .svc-status {
    padding: calc(${spacing} * 2) ${spacing};
    text-align: center;
  }

  svc-payment-frame .svc-status-actions {
    justify-content: center;
    margin-bottom: 0;
  }

  svc-payment-frame .svc-status-icon {
    display: block;
    margin: 0 auto ${spacing};
  }

  svc-payment-frame .svc-status--paid .svc-status-icon {
    color: ${success};
  }

  svc-payment-frame .svc-status--failed .svc-status-icon {
    color: ${error};
  }

  svc-payment-frame .svc-status--cancelled .svc-status-icon {
    color: ${muted};
  }

  svc-payment-frame .svc-challenge {
    padding: ${spacing};
    border: 1px solid ${border};
    border-radius: ${radius};
  }

  @media (prefers-reduced-motion: no-preference) {
    svc-payment-frame .svc-button {
      transition: filter 0.15s;
    }
  }

  svc-payment-frame .svc-button:hover:not([aria-disabled='true']) {
    filter: brightness(0.92);
  }
`;
