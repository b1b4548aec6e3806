// Wrong tokens per client address: after `perWindow` failures within one window, that
// address's writes are refused (429) until the window ends. The table is bounded: expired
// windows are dropped first, then the oldest entries, so a flood of addresses cannot grow it.

export interface FailureLimiterOptions {
  perWindow?: number;
  windowMs?: number;
  maxClients?: number;
}

export class FailureLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly perWindow: number;
  private readonly windowMs: number;
  private readonly maxClients: number;

  constructor(
    options: FailureLimiterOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.perWindow = options.perWindow ?? 10;
    this.windowMs = options.windowMs ?? 1000;
    this.maxClients = options.maxClients ?? 10_000;
  }

  /** Whole seconds until `client` may try again, or 0 when it may now. */
  retryAfter(client: string): number {
    const w = this.windows.get(client);
    const now = this.now();
    if (!w || now - w.start >= this.windowMs || w.count < this.perWindow) return 0;
    return Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
  }

  /** Counts one failure of `client`. */
  fail(client: string): void {
    const now = this.now();
    const w = this.windows.get(client);
    if (w && now - w.start < this.windowMs) {
      w.count++;
      return;
    }
    this.windows.delete(client);
    if (this.windows.size >= this.maxClients) this.prune(now);
    this.windows.set(client, { start: now, count: 1 });
  }

  get size(): number {
    return this.windows.size;
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    // Insertion order is age order: the oldest windows go first.
    for (const k of this.windows.keys()) {
      if (this.windows.size < this.maxClients) break;
      this.windows.delete(k);
    }
  }
}
