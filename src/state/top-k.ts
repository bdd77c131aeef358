// The k smallest items of a stream under a comparison, in O(n log k) time and O(k) memory:
// a sorted page needs only its first offset + limit items, so sorting the whole table (an
// unbroken 30-60 ms of work at 40k rows, which cannot yield) is replaced by a bounded max-heap fed one item
// at a time inside the scan's yielding loop.

export class TopK<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  offer(item: T): void {
    if (this.k <= 0) return;
    const h = this.heap;
    if (h.length < this.k) {
      h.push(item);
      this.up(h.length - 1);
    } else if (this.compare(item, h[0]!) < 0) {
      h[0] = item;
      this.down(0);
    }
  }

  /** The kept items in ascending order. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  // A max-heap: the root is the largest kept item, the first to leave when a smaller one arrives.
  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(h[i]!, h[parent]!) <= 0) return;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < h.length && this.compare(h[l]!, h[top]!) > 0) top = l;
      if (r < h.length && this.compare(h[r]!, h[top]!) > 0) top = r;
      if (top === i) return;
      [h[i], h[top]] = [h[top]!, h[i]!];
      i = top;
    }
  }
}
