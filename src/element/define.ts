/**
 * Importing this module defines `<svc-checkout>` (once; see `defineSvcCheckout`). `import 'svc-checkout'`
 * imports it.
 */
import { defineSvcCheckout } from './register.js';

defineSvcCheckout();
