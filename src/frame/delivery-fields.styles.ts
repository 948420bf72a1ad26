/** Styles of `<svc-delivery-fields>`: the shipping options as a list of radio rows with their prices. */
import { css } from 'lit';
import { token } from './tokens.js';

export const deliveryFieldsStyles = css`
  svc-delivery-fields {
    display: block;
  }

  /*
   * The radio stays beside the first line of its words when the price beside them wraps; one line of text
   * (at 1.4em) sits in the middle of the default least height. The label takes the row's height, so that a
   * press anywhere on the row chooses it.
   */
  svc-delivery-fields .svc-shipping-option {
    display: flex;
    gap: 8px;
    align-items: flex-start;
    min-height: ${token('--svc-input-height')};
    padding: 0 12px;
    margin-bottom: 6px;
    border: 1px solid ${token('--svc-color-border')};
    border-radius: ${token('--svc-border-radius')};
  }

  svc-delivery-fields .svc-shipping-option:has(input:checked) {
    border-color: ${token('--svc-color-primary')};
    border-width: 2px;
  }

  svc-delivery-fields .svc-shipping-option input {
    width: 1.2em;
    height: 1.2em;
    margin: calc(10px + 0.1em) 0 0;
    accent-color: ${token('--svc-color-primary')};
  }

  svc-delivery-fields .svc-shipping-option label {
    display: flex;
    flex: 1;
    gap: 8px;
    justify-content: space-between;
    margin: 0;
    padding: 10px 0;
    cursor: pointer;
  }

  svc-delivery-fields .svc-shipping-price {
    color: ${token('--svc-color-muted')};
    font-weight: 400;
  }
`;
