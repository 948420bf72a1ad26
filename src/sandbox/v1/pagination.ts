/**
 * Pages of the v1 list endpoints: `{results, next, previous}` with absolute URLs of the neighbouring pages.
 * The document does not show the query of a page; the sandbox takes `page` (from 1) and `per_page` (1 to
 * 100, default 20), and its `next` / `previous` keep every other parameter of the request, so a client that
 * follows `next` never builds a URL itself.
 */
import type { V1Page } from '../../core/v1-types.js';
import type { RequestContext } from '../http.js';
import { V1HttpError, type V1Issue } from './errors.js';

/** Which slice of a list a request asks for. */
export interface PageRequest {
  /** From 1. */
  page: number;
  perPage: number;
}

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

/** Reads `page` and `per_page`; each problem is an issue of its parameter. */
export function readPageRequest(query: URLSearchParams): { request: PageRequest } | { issues: V1Issue[] } {
  const issues: V1Issue[] = [];
  const read = (name: string, fallback: number, max: number): number => {
    const text = query.get(name);
    if (text === null) return fallback;
    if (!/^\d{1,9}$/.test(text)) {
      issues.push({ field: name, code: 'invalid', message: `${name} must be a whole number` });
      return fallback;
    }
    const value = Number(text);
    if (value < 1) issues.push({ field: name, code: 'min_value', message: `${name} must be at least 1` });
    else if (value > max)
      issues.push({ field: name, code: 'max_value', message: `${name} must be at most ${max}` });
    return value;
  };
  const page = read('page', 1, Number.MAX_SAFE_INTEGER);
  const perPage = read('per_page', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return issues.length > 0 ? { issues } : { request: { page, perPage } };
}

/**
 * The page `request` of `items`. `url` is the request's own absolute URL; the links are it with `page`
 * replaced. A page past the end is empty, with `previous` leading back.
 */
export function pageOf<Item>(items: readonly Item[], request: PageRequest, url: URL): V1Page<Item> {
  const start = (request.page - 1) * request.perPage;
  const link = (page: number): string => {
    const target = new URL(url.href);
    target.searchParams.set('page', String(page));
    return target.href;
  };
  const lastPage = Math.max(1, Math.ceil(items.length / request.perPage));
  return {
    results: items.slice(start, start + request.perPage),
    next: request.page < lastPage ? link(request.page + 1) : null,
    previous: request.page > 1 ? link(Math.min(request.page - 1, lastPage)) : null,
  };
}

/**
 * The page of `items` that the request asks for (`page`, `per_page`), with links on the host the caller used.
 * @throws V1HttpError 400 naming `page` or `per_page`.
 */
export function requestedPage<Item>(
  http: RequestContext,
  baseUrl: string,
  items: readonly Item[],
): V1Page<Item> {
  const read = readPageRequest(http.url.searchParams);
  if ('issues' in read) throw V1HttpError.invalid(read.issues);
  return pageOf(items, read.request, new URL(`${http.url.pathname}${http.url.search}`, baseUrl));
}
