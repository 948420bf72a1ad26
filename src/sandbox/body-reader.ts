/**
 * How the sandbox reads the JSON bodies of its interfaces (widget API, merchant API v2, v1): a
 * {@link BodyReader} takes members at named paths and collects one issue per problem instead of stopping at
 * the first. v1 answers every issue at once (its document's 400 shape, `V1HttpError.invalid`); the legacy
 * widget API and merchant API v2 answer the first alone ({@link BodyReader.throwFirst}). Not read here: the
 * sandbox's config, a file checked by its JSON Schema (`config.ts`), and orders, which core's `parseOrder`
 * reads for the browser and the sandbox alike (ARCHITECTURE.md, "Request bodies").
 */
import { isPlainObject } from '../core/plain-object.js';
import { isHttpUrl } from './formats.js';
import { HttpError } from './http.js';

/** A JSON object, as a body or a member of one. */
export type Json = Record<string, unknown>;

/** What is wrong with a member: the codes v1 answers with, which the legacy interfaces do not show. */
export type BodyIssueCode =
  | 'required'
  | 'null'
  | 'blank'
  | 'empty'
  | 'invalid'
  | 'min_value'
  | 'max_value'
  | 'max_length';

/** One problem of a body. */
export interface BodyIssue {
  /** A path such as `purchase.products[0].price` or `card.number`, or a key such as `__all__`. */
  field: string;
  code: BodyIssueCode;
  /** Names the field and what it takes, for the merchant to fix. */
  message: string;
}

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/** A test for {@link BodyReader.where}: a string that `test` accepts. */
export function stringThat(test: (text: string) => boolean): (value: unknown) => value is string {
  return (value): value is string => typeof value === 'string' && test(value);
}

/** A test for {@link BodyReader.where}: one of `values`, compared with `===`. */
export function oneOf<const T>(values: readonly T[]): (value: unknown) => value is T {
  return (value): value is T => values.includes(value as T);
}

/**
 * Reads members of JSON objects at named paths, collecting an issue per problem.
 *
 * A member that is absent, or null when not required, reads as undefined; `required` makes either an issue
 * (`required`, `null`). To refuse null in an optional member (a `PATCH` that may leave a member out but not
 * null it), pass `required` as `object[key] !== undefined`.
 */
export class BodyReader {
  readonly issues: BodyIssue[] = [];

  /** Adds an issue found by the caller's own rule, such as a UUID or a whitelist. */
  add(field: string, code: BodyIssueCode, message: string): void {
    this.issues.push({ field, code, message });
  }

  /** The member, or undefined when absent or null (null for a required member is a problem). */
  private member(object: Json, key: string, path: string, required: boolean): unknown {
    const value = object[key];
    if (value === undefined || (value === null && !required)) {
      if (required) this.add(path, 'required', `${path} is required`);
      return undefined;
    }
    if (value === null) {
      this.add(path, 'null', `${path} may not be null`);
      return undefined;
    }
    return value;
  }

  /** A string; a blank one (white space only) is a problem when required and reads as absent when not. */
  string(object: Json, key: string, path: string, required = false): string | undefined {
    const value = this.member(object, key, path, required);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.add(path, 'invalid', `${path} must be a string`);
      return undefined;
    }
    if (value.trim() === '') {
      if (required) this.add(path, 'blank', `${path} may not be blank`);
      return undefined;
    }
    return value;
  }

  /**
   * An optional string taken as written: only `""` reads as absent, as it does in the legacy widget API.
   * White space is kept for the caller's rule to judge, so that a page origin of `" "` is refused as an
   * origin rather than read as none.
   */
  text(object: Json, key: string, path: string): string | undefined {
    const value = this.member(object, key, path, false);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') {
      this.add(path, 'invalid', `${path} must be a string`);
      return undefined;
    }
    return value;
  }

  /** A whole number from `limits.min` to `limits.max`. */
  integer(
    object: Json,
    key: string,
    path: string,
    limits: { min: number; max: number },
    required = false,
  ): number | undefined {
    const value = this.member(object, key, path, required);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.add(path, 'invalid', `${path} must be a whole number`);
      return undefined;
    }
    if (value < limits.min) {
      this.add(path, 'min_value', `${path} must be at least ${limits.min}`);
      return undefined;
    }
    if (value > limits.max) {
      this.add(path, 'max_value', `${path} must be at most ${limits.max}`);
      return undefined;
    }
    return value;
  }

  boolean(object: Json, key: string, path: string, required = false): boolean | undefined {
    return this.where(object, key, path, isBoolean, `${path} must be true or false`, required);
  }

  object(object: Json, key: string, path: string, required = false): Json | undefined {
    return this.where(object, key, path, isPlainObject, `${path} must be an object`, required);
  }

  array(object: Json, key: string, path: string, required = false): unknown[] | undefined {
    return this.where(object, key, path, Array.isArray, `${path} must be an array`, required);
  }

  /**
   * A member whose rule is one phrase (a UUID, a time zone, `"csv"` or `"json"`): what `accepts` takes,
   * whatever its type; anything else is one `invalid` issue with `message`, which says what is expected.
   */
  where<T>(
    object: Json,
    key: string,
    path: string,
    accepts: (value: unknown) => value is T,
    message: string,
    required = false,
  ): T | undefined {
    const value = this.member(object, key, path, required);
    if (value === undefined) return undefined;
    if (!accepts(value)) {
      this.add(path, 'invalid', message);
      return undefined;
    }
    return value;
  }

  /**
   * An absolute http(s) URL, stored as the URL parser writes it: an IRI's host in punycode and its path and
   * query percent-encoded, so that it can go into a `Location` header later. White space and control
   * characters are refused rather than dropped (the parser silently drops tabs and newlines).
   */
  url(object: Json, key: string, path: string): string | undefined {
    const value = this.string(object, key, path);
    if (value === undefined) return undefined;
    if (/[\s\p{Cc}]/u.test(value)) {
      this.add(path, 'invalid', `${path} must not contain spaces or control characters; percent-encode them`);
      return undefined;
    }
    if (isHttpUrl(value)) return new URL(value).href;
    this.add(path, 'invalid', `${path} must be an absolute http(s) URL`);
    return undefined;
  }

  /** A required string inside an array entry or nested object. */
  requiredString(object: Json, key: string, path: string): string | undefined {
    return this.string(object, key, path, true);
  }

  /**
   * Throws the first issue, if any, as the legacy interfaces answer a body: one 400 `invalid_request`
   * naming its field (they have no list of problems, and their clients read one `{code, message, field}`).
   */
  throwFirst(): void {
    const first = this.issues[0];
    if (first) throw new HttpError(400, 'invalid_request', first.message, first.field);
  }
}
