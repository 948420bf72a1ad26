/**
 * Styles of `<svc-card-fields>`: expiry and CVC side by side, the scheme marks inside the number's box, and
 * the compact layout, which puts number, expiry and CVC on one line.
 */
import { css } from 'lit';
import { token } from './tokens.js';

export const cardFieldsStyles = css`
  svc-card-fields {
    display: block;
  }

  svc-card-fields .svc-card-row {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(9em, 1fr));
    column-gap: 12px;
  }

  svc-card-fields .svc-input--adorned input {
    padding-right: 52px;
  }

  /* Room for the marks of the accepted schemes (24px each, 4px apart) before one scheme shows. */
  svc-card-fields .svc-input:has(svg+svg) input {
    padding-right: 80px;
  }

  svc-card-fields .svc-input:has(svg+svg+svg) input {
    padding-right: 108px;
  }

  svc-card-fields .svc-input:has(svg+svg+svg+svg) input {
    padding-right: 136px;
  }

  svc-card-fields .svc-input>:not(input) {
    position: absolute;
    top: 50%;
    right: 12px;
    transform: translateY(-50%);
    pointer-events: none;
  }

  svc-card-fields .svc-scheme-logos {
    display: flex;
    gap: 4px;
  }

  svc-card-fields .svc-scheme-logos svg {
    width: 24px;
    height: 15px;
  }

  /*
   * Compact: the fields' boxes are the items of one wrapping line (number first and widest), so where the
   * frame is narrow expiry and CVC go to a second line; the labels and hints stay the inputs' names and
   * descriptions out of sight, and the errors follow the line, each on its own.
   */
  svc-card-fields .svc-card-fields--compact .svc-card-line {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    margin-bottom: ${token('--svc-spacing')};
  }

  svc-card-fields .svc-card-fields--compact .svc-card-line :is(.svc-card-row, .svc-field) {
    display: contents;
  }

  svc-card-fields .svc-card-fields--compact .svc-card-line :is(label, .svc-hint) {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  svc-card-fields .svc-card-fields--compact .svc-card-line .svc-input {
    flex: 1 1 5em;
  }

  svc-card-fields .svc-card-fields--compact .svc-card-line .svc-input--adorned {
    flex: 3 1 15em;
  }

  svc-card-fields .svc-card-fields--compact .svc-card-line .svc-error {
    flex: 1 1 100%;
    order: 1;
    margin: 0;
  }
`;
