/**
 * A small least-recently-used map. Keys are imported once per PEM text and then reused, so that signing
 * and verifying run at native speed; the bound keeps a process that sees many keys from growing forever.
 */
export class BoundedCache<Key, Value> {
  readonly #entries = new Map<Key, Value>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(key: Key): Value | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined && this.#entries.size > 1) {
      // Re-inserting moves the entry to the young end of the Map's insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: Key, value: Value): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, value);
  }

  /** The cached value, or the one `create` makes (which is then cached). `create` may throw; nothing is cached then. */
  getOrCreate(key: Key, create: (key: Key) => Value): Value {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = create(key);
    this.set(key, value);
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
