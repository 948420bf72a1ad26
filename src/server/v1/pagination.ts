/**
 * The v1 list endpoints answer one page at a time, `{results, next, previous}`, where `next` is the URL of the
 * following page or null. {@link paginate} walks those links as an async iterator, so a caller writes
 * `for await (const item of list)` and fetches no page it does not reach.
 */
import { isPlainObject } from '../../core/plain-object.js';
import type { V1Page } from '../../core/v1-types.js';
import { V1ApiError } from './errors.js';

/** Fetches one page; {@link paginate} calls it with the first URL and then each `next`. */
export type FetchV1Page<Item> = (url: URL, options: { signal?: AbortSignal }) => Promise<V1Page<Item>>;

/** Options of {@link paginate}. */
export interface PaginateOptions {
  /** Stops the walk: the page being fetched is aborted and the iterator rejects. */
  signal?: AbortSignal;
}

/**
 * The items of a list endpoint, page after page. Each `for await` starts again from the first page; leaving
 * the loop early fetches nothing more.
 */
export interface V1List<Item> extends AsyncIterable<Item> {
  /** The pages themselves, for callers that want `next` / `previous` or to work a page at a time. */
  pages(): AsyncIterableIterator<V1Page<Item>>;
  /**
   * Every item, or the first `limit` of them.
   * @throws V1ApiError as the pages' requests do.
   */
  toArray(options?: { limit?: number }): Promise<Item[]>;
}

/** The page's shape, checked before anything of it is used. */
function checkPage<Item>(page: unknown, url: URL): V1Page<Item> {
  if (
    !isPlainObject(page) ||
    !Array.isArray(page['results']) ||
    !(page['next'] === null || page['next'] === undefined || typeof page['next'] === 'string')
  ) {
    throw new V1ApiError(
      'invalid_response',
      `${url.pathname} did not answer a page ({results: array, next: string | null})`,
      { body: page },
    );
  }
  return {
    results: page['results'] as Item[],
    next: (page['next'] as string | null | undefined) ?? null,
    previous: typeof page['previous'] === 'string' ? page['previous'] : null,
  };
}

/**
 * The URL of the page after `page`, resolved against the page's own URL, or null at the end.
 * @throws V1ApiError `invalid_response` when `next` leaves the first page's origin (the page requests carry
 *   the secret key, which must go to the gateway only) or points back at a page already read (which would
 *   loop forever).
 */
function nextUrl(next: string | null, current: URL, first: URL, seen: Set<string>): URL | null {
  if (next === null || next === '') return null;
  let url: URL;
  try {
    url = new URL(next, current);
  } catch (error) {
    throw new V1ApiError('invalid_response', `The page's next link ${JSON.stringify(next)} is not a URL`, {
      cause: error,
    });
  }
  if (url.origin !== first.origin) {
    throw new V1ApiError(
      'invalid_response',
      `The page's next link leads to ${url.origin}, not ${first.origin}; it is not followed, so the secret key ` +
        'is sent to the gateway only',
    );
  }
  if (seen.has(url.href)) {
    throw new V1ApiError(
      'invalid_response',
      `The page's next link ${url.href} points back at a page already read`,
    );
  }
  return url;
}

/**
 * Walks a list endpoint from `firstUrl` along each page's `next`.
 * @param fetchPage fetches one page (the v1 client's authenticated GET).
 * @example
 * ```ts
 * for await (const delivery of paginate(url, (pageUrl, { signal }) => get(pageUrl, signal))) console.log(delivery);
 * ```
 */
export function paginate<Item>(
  firstUrl: URL | string,
  fetchPage: FetchV1Page<Item>,
  options: PaginateOptions = {},
): V1List<Item> {
  const first = new URL(firstUrl);
  const request = options.signal ? { signal: options.signal } : {};

  async function* pages(): AsyncGenerator<V1Page<Item>> {
    const seen = new Set<string>();
    let url: URL | null = first;
    while (url !== null) {
      seen.add(url.href);
      const page = checkPage<Item>(await fetchPage(url, request), url);
      yield page;
      url = nextUrl(page.next, url, first, seen);
    }
  }

  async function* items(): AsyncGenerator<Item> {
    for await (const page of pages()) yield* page.results;
  }

  return {
    [Symbol.asyncIterator]: items,
    pages,
    async toArray({ limit = Number.POSITIVE_INFINITY } = {}) {
      const all: Item[] = [];
      if (limit <= 0) return all;
      for await (const item of items()) {
        all.push(item);
        if (all.length >= limit) break;
      }
      return all;
    },
  };
}
