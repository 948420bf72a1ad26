/**
 * The README's sandbox section, "The sandbox gateway: `svc-sandbox`": its config (the sandbox every README
 * example talks to), the CLI, the sandbox in a test's process, its clock and its test helpers.
 */
import { describeExamples } from './support/readme-checks.js';

describeExamples('sandbox');
