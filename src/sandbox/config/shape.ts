/**
 * The config's shape, looked at before anything else reads it: how many values it holds, and whether it nests
 * deeper than any config does or refers back to itself (a value given to `parseConfig` in process may), which
 * would overflow the stack of the clone and the schema check.
 */
import type { ConfigIssue } from './config-error.js';

/**
 * How deep a config may nest: the deepest member the schema has (`merchants[0].widgets[0].order.items[0].amount`)
 * is 8 levels down, and cloning and schema checking recurse once per level.
 */
export const MAX_CONFIG_DEPTH = 32;

/**
 * The most values (objects, arrays, strings, numbers...) of a wrong config for which every schema problem is
 * listed; past it, the first. A config with 100 merchants of 4 widgets holds about 6,000.
 */
export const MAX_VALUES_LISTED = 10_000;

/** The longest path a nesting issue prints; the start of it says where the config went wrong. */
const MAX_PATH_TEXT = 200;

/**
 * How many values `value` holds, and whether it nests deeper than {@link MAX_CONFIG_DEPTH} or holds itself,
 * found without recursion (a recursive walk of a 10,000-deep value overflows the stack: the stack trace
 * this check replaces).
 */
export function configShape(value: unknown): { issue?: ConfigIssue; values: number } {
  interface Level {
    value: object;
    key: string | number;
    parent: Level | undefined;
    depth: number;
  }
  const path = (level: Level): string => {
    const keys: Array<string | number> = [];
    for (let at: Level | undefined = level; at?.parent; at = at.parent) keys.push(at.key);
    let text = '';
    for (const key of keys.reverse()) text += typeof key === 'number' ? `[${key}]` : text ? `.${key}` : key;
    return text.length > MAX_PATH_TEXT ? `${text.slice(0, MAX_PATH_TEXT)}…` : text;
  };
  let values = 1;
  if (typeof value !== 'object' || value === null) return { values };
  const pending: Level[] = [{ value, key: '', parent: undefined, depth: 0 }];
  for (let level = pending.pop(); level; level = pending.pop()) {
    const entries: Array<[string | number, unknown]> = Array.isArray(level.value)
      ? level.value.map((child, index) => [index, child])
      : Object.entries(level.value);
    values += entries.length;
    for (const [key, child] of entries) {
      if (typeof child !== 'object' || child === null) continue;
      const next: Level = { value: child, key, parent: level, depth: level.depth + 1 };
      if (next.depth > MAX_CONFIG_DEPTH) {
        const message = `nests deeper than ${MAX_CONFIG_DEPTH} levels; a sandbox config nests at most 8`;
        return { issue: { path: path(next), message }, values };
      }
      for (let at: Level | undefined = level; at; at = at.parent) {
        if (at.value === child) {
          const message = `refers back to ${path(at) || 'the config itself'}; a config is plain JSON data`;
          return { issue: { path: path(next), message }, values };
        }
      }
      pending.push(next);
    }
  }
  return { values };
}
