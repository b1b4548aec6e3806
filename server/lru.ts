// The one bounded cache of the server: least recently used entries go first once the entries'
// total cost passes the bound. A cost of 1 bounds the number of entries (parsed documents,
// manifests); a byte cost bounds memory (stored responses).

export class Lru<V> {
  private readonly map = new Map<string, V>();
  private total = 0;
  /** Bumped by clear(): a read that began before a clear must not fill the cache after it. */
  epoch = 0;

  constructor(
    private readonly bound: number,
    private readonly cost: (key: string, value: V) => number = () => 1,
    /** The costliest entry kept at all (a larger one would push out many others). */
    private readonly largest = bound,
  ) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    const cost = this.cost(key, value);
    this.delete(key);
    // Too costly to keep: not kept, and no older value stays in its place.
    if (cost > this.largest) return;
    this.map.set(key, value);
    this.total += cost;
    for (const [k, v] of this.map) {
      if (this.total <= this.bound) break;
      this.map.delete(k);
      this.total -= this.cost(k, v);
    }
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (old === undefined) return;
    this.map.delete(key);
    this.total -= this.cost(key, old);
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
    this.epoch++;
  }

  /** Entries and the cost the bound counts, for tests and operators. */
  get stats(): { entries: number; cost: number } {
    return { entries: this.map.size, cost: this.total };
  }
}
