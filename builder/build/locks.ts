// Per-document locks. Writes to one document run one after another (a queue per id); while
// a write commits (source file, rebuilt responses, caches), the document's GETs wait, and a
// commit waits for the GETs already reading, so a reader gets the old responses or the new
// ones, never a mix of a new file and an old manifest or index.

/** A readers-writer lock that lets a waiting writer go before readers that come after it. */
export class RwLock {
  private readers = 0;
  private writing = false;
  private readonly queue: { write: boolean; go: () => void }[] = [];

  async read<T>(fn: () => Promise<T>): Promise<T> {
    if (this.writing || this.queue.length > 0) await new Promise<void>((go) => this.queue.push({ write: false, go }));
    else this.readers++;
    try {
      return await fn();
    } finally {
      this.readers--;
      this.pump();
    }
  }

  async write<T>(fn: () => Promise<T> | T): Promise<T> {
    if (this.writing || this.readers > 0 || this.queue.length > 0) await new Promise<void>((go) => this.queue.push({ write: true, go }));
    else this.writing = true;
    try {
      return await fn();
    } finally {
      this.writing = false;
      this.pump();
    }
  }

  get idle(): boolean {
    return !this.writing && this.readers === 0 && this.queue.length === 0;
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.writing) {
      const next = this.queue[0];
      if (next.write) {
        if (this.readers > 0) return;
        this.queue.shift();
        this.writing = true;
        next.go();
        return;
      }
      this.queue.shift();
      this.readers++;
      next.go();
    }
  }
}

/** Locks by key, created on first use and dropped when idle. */
export class DocumentLocks {
  private readonly rw = new Map<string, RwLock>();
  private readonly queues = new Map<string, Promise<unknown>>();

  /** Runs `fn` while holding the shared (read) lock of `id`. */
  read<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const lock = this.lockOf(id);
    return lock.read(fn).finally(() => this.drop(id, lock));
  }

  /** Runs `fn` while holding the exclusive (commit) lock of `id`. */
  commit<T>(id: string, fn: () => Promise<T> | T): Promise<T> {
    const lock = this.lockOf(id);
    return lock.write(fn).finally(() => this.drop(id, lock));
  }

  /** Runs `fn` after every earlier `serial` call with the same key has finished. */
  serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }

  /** Whether no document is locked or waited for: a read may then answer without taking a lock. */
  get idle(): boolean {
    return this.rw.size === 0;
  }

  private lockOf(id: string): RwLock {
    let lock = this.rw.get(id);
    if (!lock) this.rw.set(id, (lock = new RwLock()));
    return lock;
  }

  private drop(id: string, lock: RwLock): void {
    if (lock.idle && this.rw.get(id) === lock) this.rw.delete(id);
  }
}
