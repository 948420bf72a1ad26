/**
 * The README's server toolkit section, "The server toolkit: `svc-checkout/server`": notifications,
 * callbacks, the merchant API v2 and the v1 REST interface, against the sandbox of the README's config.
 */
import { describeExamples } from './support/readme-checks.js';

describeExamples('server');
