/**
 * The one error the sandbox's test helpers throw: what to fix, named. A refusal of the gateway itself (a
 * signature that does not match, an origin not allowed, a card the widget does not take) keeps the gateway's
 * own code in `gatewayCode`, so a test can assert the very refusal a page would meet.
 */
import { SvcError } from '../../core/errors.js';

export type TestHelperErrorCode =
  /** The helper's input is wrong: `field` names the member to fix. */
  | 'invalid_input'
  /** The order, Purchase or subscriber named does not exist (for this merchant). */
  | 'not_found'
  /** The object exists, but the action does not apply to it now (a refund of an unpaid Purchase). */
  | 'not_applicable'
  /** The gateway refused the request as it refuses a page's or an API client's: see `gatewayCode`. */
  | 'refused_by_gateway';

export class TestHelperError extends SvcError<TestHelperErrorCode> {
  constructor(
    code: TestHelperErrorCode,
    message: string,
    readonly details: {
      /** The input member at fault, such as `card` or `attributes.signature`. */
      field?: string;
      /** With `refused_by_gateway`: the gateway's code, such as `signature_invalid`. */
      gatewayCode?: string;
      /** The HTTP status the helper's route answers with. */
      status?: number;
    } = {},
  ) {
    super(code, message);
  }

  get field(): string | undefined {
    return this.details.field;
  }

  get gatewayCode(): string | undefined {
    return this.details.gatewayCode;
  }

  /** What the helpers' HTTP routes answer: the sandbox's error shape, plus `gatewayCode` when there is one. */
  get status(): number {
    return (
      this.details.status ??
      { invalid_input: 400, not_found: 404, not_applicable: 409, refused_by_gateway: 400 }[this.code]
    );
  }

  toJSON(): { error: { code: string; message: string; field?: string; gatewayCode?: string } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.field !== undefined && { field: this.field }),
        ...(this.gatewayCode !== undefined && { gatewayCode: this.gatewayCode }),
      },
    };
  }
}

export function invalidInput(field: string, message: string): TestHelperError {
  return new TestHelperError('invalid_input', message, { field });
}
