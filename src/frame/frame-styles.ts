/**
 * The styles of the frame's form, one list: the gateway writes them into the frame's page with its first view
 * (first-view.ts); the frame's code adopts them only where the page has none (first-view-styles.ts).
 */
import type { CSSResult } from 'lit';
import { cardFieldsStyles } from './card-fields.styles.js';
import { paymentFrameStyles } from './payment-frame.styles.js';

export const FRAME_STYLES: readonly CSSResult[] = [paymentFrameStyles, cardFieldsStyles];
