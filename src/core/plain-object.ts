/** Whether a value is a JSON object: not null, not an array. The one guard every reader of untrusted JSON uses. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
