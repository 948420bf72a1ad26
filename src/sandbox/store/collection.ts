/**
 * The store in memory: documents by collection and id, and the collections that change them. Each change is
 * applied here at once and handed on as one op of the journal, with a way to undo it should the transaction
 * roll back or its record fail to be written.
 */

import { StoreError } from './errors.js';
import { deleteOp, patchOp, putOp } from './line-format.js';
import { patchText } from './patch.js';
import type { Collection } from './types.js';

/** The documents of one collection, by id. */
export type Documents = Map<string, unknown>;

/** The documents of the collection `name` in `all`, created empty on first use. */
export function documentsOf(all: Map<string, Documents>, name: string): Documents {
  let documents = all.get(name);
  if (!documents) {
    documents = new Map();
    all.set(name, documents);
  }
  return documents;
}

/** Where a collection's changes go: the running transaction, or a commit of their own. */
export interface ChangeRecorder {
  /** Applies one change in memory (`apply` returns how to undo it) and journals `op`, its text. */
  change(op: string, apply: () => () => void): void;
}

export class StoreCollection<T> implements Collection<T> {
  private readonly quotedName: string;

  constructor(
    private readonly recorder: ChangeRecorder,
    readonly name: string,
    private readonly documents: Documents,
  ) {
    this.quotedName = JSON.stringify(name);
  }

  get size(): number {
    return this.documents.size;
  }

  get(id: string): T | undefined {
    return this.documents.get(id) as T | undefined;
  }

  has(id: string): boolean {
    return this.documents.has(id);
  }

  put(id: string, value: T): void {
    const text = JSON.stringify(value);
    if (text === undefined) {
      throw new StoreError('not_json', `${this.name}/${id}: ${typeof value} is not a JSON value`);
    }
    // Keep what a restart would load, not the caller's object: the two can never drift apart.
    const stored = JSON.parse(text) as unknown;
    const quotedId = JSON.stringify(id);
    const before = this.documents.get(id);
    // A small change of a large document (an attempt added to a Purchase) is journalled as what changed.
    const patch = before === undefined ? undefined : patchText(before, stored, text.length);
    this.recorder.change(
      patch === undefined
        ? putOp(this.quotedName, quotedId, text)
        : patchOp(this.quotedName, quotedId, patch),
      () => this.set(id, stored),
    );
  }

  delete(id: string): boolean {
    if (!this.documents.has(id)) return false;
    this.recorder.change(deleteOp(this.quotedName, JSON.stringify(id)), () => this.set(id, undefined));
    return true;
  }

  update(id: string, change: (current: T) => T): T {
    const current = this.get(id);
    if (current === undefined) throw new StoreError('not_found', `${this.name}/${id} does not exist`);
    this.put(id, change(current));
    return this.get(id)!;
  }

  keys(): IterableIterator<string> {
    return this.documents.keys();
  }

  values(): IterableIterator<T> {
    return this.documents.values() as IterableIterator<T>;
  }

  entries(): IterableIterator<[string, T]> {
    return this.documents.entries() as IterableIterator<[string, T]>;
  }

  /** Sets or (with undefined) removes a document and returns how to undo that. */
  private set(id: string, value: unknown): () => void {
    const had = this.documents.has(id);
    const before = this.documents.get(id);
    if (value === undefined) this.documents.delete(id);
    else this.documents.set(id, value);
    return () => {
      if (had) this.documents.set(id, before);
      else this.documents.delete(id);
    };
  }
}
