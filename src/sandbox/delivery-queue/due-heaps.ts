/** Which delivery key comes due next, across owners whose clocks differ. */

/** A key due at `at` on its owner's clock, which read `now` when it was looked at. */
export interface Due {
  owner: string | undefined;
  key: string;
  at: number;
  now: number;
}

/**
 * Due keys by owner: owners' clocks differ (each merchant moves its own), so each owner has a heap in its own
 * time, and the next due is the one furthest past its time on its owner's clock.
 */
export class DueHeaps {
  private readonly heaps = new Map<string | undefined, DueHeap>();

  constructor(private readonly now: (owner: string | undefined) => number) {}

  push(owner: string | undefined, key: string, at: number): void {
    let heap = this.heaps.get(owner);
    if (heap === undefined) {
      heap = new DueHeap();
      this.heaps.set(owner, heap);
    }
    heap.push(key, at);
  }

  peek(): Due | undefined {
    let found: Due | undefined;
    for (const [owner, heap] of this.heaps) {
      const top = heap.peek()!;
      const now = this.now(owner);
      if (found === undefined || top.at - now < found.at - found.now)
        found = { owner, key: top.key, at: top.at, now };
    }
    return found;
  }

  peekOf(owner: string): { key: string; at: number } | undefined {
    return this.heaps.get(owner)?.peek();
  }

  pop(owner: string | undefined): void {
    const heap = this.heaps.get(owner);
    heap?.pop();
    // Empty heaps are dropped, so that peek looks only at owners with something due.
    if (heap?.peek() === undefined) this.heaps.delete(owner);
  }
}

/** A binary min-heap of keys by due time; equal times leave in the order they came. */
class DueHeap {
  private readonly items: Array<{ key: string; at: number; order: number }> = [];
  private order = 0;

  peek(): { key: string; at: number } | undefined {
    return this.items[0];
  }

  push(key: string, at: number): void {
    const items = this.items;
    items.push({ key, at, order: this.order++ });
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(index, parent)) break;
      this.swap(index, parent);
      index = parent;
    }
  }

  pop(): { key: string; at: number } | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < items.length && this.before(left, smallest)) smallest = left;
        if (right < items.length && this.before(right, smallest)) smallest = right;
        if (smallest === index) break;
        this.swap(index, smallest);
        index = smallest;
      }
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    const x = this.items[a]!;
    const y = this.items[b]!;
    return x.at < y.at || (x.at === y.at && x.order < y.order);
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    [items[a], items[b]] = [items[b]!, items[a]!];
  }
}
