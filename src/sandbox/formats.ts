/**
 * Text formats the sandbox checks in its config and its v1 requests: UUIDs (any version, any case) and
 * absolute http(s) URLs.
 */

/** A UUID in its 8-4-4-4-12 hexadecimal form, upper or lower case. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the text is an absolute `http:` or `https:` URL with a host. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
