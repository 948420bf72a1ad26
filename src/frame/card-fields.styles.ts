/** Styles of `<svc-card-fields>`: expiry and CVC side by side, the scheme mark inside the number's box. */
import { css } from 'lit';

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

  svc-card-fields .svc-scheme-logo {
    position: absolute;
    top: 50%;
    right: 12px;
    transform: translateY(-50%);
    pointer-events: none;
  }
`;
