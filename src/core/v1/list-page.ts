/**
 * The page every list endpoint answers.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

/** A page of a list endpoint; `next` and `previous` are absolute URLs of the neighbouring pages. */
export interface V1Page<Item> {
  results: Item[];
  next: string | null;
  previous: string | null;
}
