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

  /*
   * Each field spans four rows of the row's grid (label, input, hint, error) and lays its parts on them, so
   * a label that wraps, or an error under one field alone, moves both inputs alike; the labels start level.
   */
  svc-card-fields .svc-card-row {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(9em, 1fr));
    column-gap: 12px;
  }

  svc-card-fields .svc-card-row .svc-field {
    display: grid;
    grid-row: span 4;
    grid-template-rows: subgrid;
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
   * Compact: the fields' boxes are the cells of one grid line (number first and widest); where the fieldset
   * is narrower than the three need, the number takes the line alone and expiry and CVC share the next, never
   * one of them beside the number. The labels and hints stay the inputs' names and descriptions out of
   * sight (payment-frame.styles.ts hides them as it hides all such), and the errors follow the line, each
   * on its own.
   */
  svc-card-fields .svc-card-fields--compact {
    container-type: inline-size;
  }

  svc-card-fields .svc-card-fields--compact .svc-card-line {
    display: grid;
    grid-template-columns: 1fr 5.5em 4.5em;
    gap: 8px;
    margin-bottom: ${token('--svc-spacing')};
  }

  @container (width < 28em) {
    svc-card-fields .svc-card-fields--compact .svc-card-line {
      grid-template-columns: 1fr 1fr;
    }

    svc-card-fields .svc-card-fields--compact .svc-card-line .svc-input--adorned {
      grid-column: 1 / -1;
    }
  }

  svc-card-fields .svc-card-fields--compact .svc-card-line :is(.svc-card-row, .svc-field) {
    display: contents;
  }

  svc-card-fields .svc-card-fields--compact .svc-card-line .svc-error {
    grid-column: 1 / -1;
    order: 1;
    margin: 0;
  }
`;
