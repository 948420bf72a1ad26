/**
 * The base of every error svc-checkout throws or returns. `code` is a literal union per error class, so a
 * caller can `switch` on it; `message` says what went wrong and what to change.
 */
export class SvcError<Code extends string = string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A value or an error, never both: the shape of every fallible call that does not throw. */
export type Result<Value, Err> = { value: Value; error?: undefined } | { value?: undefined; error: Err };
