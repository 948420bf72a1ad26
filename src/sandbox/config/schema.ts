/**
 * The schema's part of checking a config: the validators ajv compiled from `sandbox-config.schema.json`
 * (src/sandbox/generated/), given the schema's custom formats, and their errors worded as issues at field
 * paths such as `merchants[0].widgets[1].type`.
 */
import { isHttpUrl, UUID } from '../formats.js';
import {
  type ConfigFormats,
  type ConfigSchemaError,
  type ConfigSchemaValidator,
  everyProblemValidator,
  firstProblemValidator,
} from '../generated/config-validator.js';
import type { ConfigIssue } from './config-error.js';

/** What each custom format's refusal says. */
const FORMAT_MESSAGES: Record<string, string> = {
  uuid: 'must be a UUID such as 1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  currency: 'must be an ISO 4217 currency code in capitals, such as EUR',
  origin:
    'must be an origin: scheme, host and port only, such as https://shop.example or http://localhost:5173',
  'http-url': 'must be an absolute http(s) URL such as https://shop.example/path',
};

/**
 * The schema's custom formats. The generated validator (scripts/generate-config-validator.mjs) calls each as
 * a function of the string.
 */
const FORMATS: ConfigFormats = {
  uuid: (text) => UUID.test(text),
  currency: (text) => /^[A-Z]{3}$/.test(text),
  'http-url': isHttpUrl,
  // The browser's Origin header form: the URL's origin must be the whole text.
  origin: (text) => isHttpUrl(text) && new URL(text).origin === text,
};

const validators = new Map<boolean, ConfigSchemaValidator>();

/**
 * Made once, on first use, so importing this module costs nothing. One stops at the first problem, one
 * lists them all: ajv's time to list them grows with their square (64,000 wrong entries take 14 s), so the
 * listing one runs only on a config small enough, and only once the first has found a problem. Both are
 * ajv's standalone code for the schema with `useDefaults`, `allowUnionTypes`, `verbose` and `strict`.
 */
export function schemaValidator(allErrors: boolean): ConfigSchemaValidator {
  const made = validators.get(allErrors);
  if (made) return made;
  const validator = (allErrors ? everyProblemValidator : firstProblemValidator)(FORMATS);
  validators.set(allErrors, validator);
  return validator;
}

/** `/merchants/0/widgets/1/type` as `merchants[0].widgets[1].type`. */
export function fieldPath(pointer: string, member?: string): string {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/');
  if (member !== undefined) segments.push(member);
  let path = '';
  for (const raw of segments) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return path;
}

/** An ajv error as the issue people read: the field path, and what is wrong in words. */
export function schemaIssue(error: ConfigSchemaError): ConfigIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: fieldPath(error.instancePath, String(params['missingProperty'])),
        message: 'is required',
      };
    case 'additionalProperties': {
      const known = Object.keys((error.parentSchema?.['properties'] as object | undefined) ?? {});
      return {
        path: fieldPath(error.instancePath, String(params['additionalProperty'])),
        message: `is not a setting here; the settings are ${known.join(', ')}`,
      };
    }
    case 'enum':
      return {
        path: fieldPath(error.instancePath),
        message: `must be one of ${(params['allowedValues'] as unknown[]).join(', ')}`,
      };
    case 'type': {
      const types = String(params['type'])
        .split(',')
        .map((type) => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`);
      return { path: fieldPath(error.instancePath), message: `must be ${types.join(' or ')}` };
    }
    case 'format':
      return {
        path: fieldPath(error.instancePath),
        message: FORMAT_MESSAGES[String(params['format'])] ?? error.message ?? 'is not valid',
      };
    case 'minLength':
      return { path: fieldPath(error.instancePath), message: 'must not be empty' };
    case 'minItems':
      return {
        path: fieldPath(error.instancePath),
        message: `must list at least ${String(params['limit'])} entry`,
      };
    default:
      return { path: fieldPath(error.instancePath), message: error.message ?? `fails ${error.keyword}` };
  }
}

/** What is wrong with `text` as a page origin, or undefined when it is one. */
export function originProblem(text: string): string | undefined {
  return FORMATS.origin(text) ? undefined : FORMAT_MESSAGES['origin'];
}
