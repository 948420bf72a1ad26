/**
 * form-parts.ts as the full checkout's first chunk (frame-checkout.js) has it: both parts built in, so that
 * they are defined before any order arrives. vite.config.ts puts this module in place of form-parts.ts in
 * that build only; everything else (tests, the card form's chunk) imports form-parts.ts.
 */
import { SvcCustomerFields } from './customer-fields.js';
import { SvcDeliveryFields } from './delivery-fields.js';
import type { LoadFormParts } from './form-parts.js';

/**
 * The parts, named as values: the package declares no side effects, so a bundler would drop modules
 * imported only for the elements they define.
 */
const BUILT_IN: readonly CustomElementConstructor[] = [SvcCustomerFields, SvcDeliveryFields];

/** The parts are defined once this module has run: nothing to import. */
export const loadFormParts: LoadFormParts = async () => BUILT_IN.length > 0;
