// The per-document locks on their own (no server): readers share, a commit waits for the
// readers already in and goes before the readers that come after it, failures release the
// lock, and nothing is kept for a document once it is idle.

import { describe, expect, it } from "vitest";
import { DocumentLocks, RwLock } from "../builder/build/locks.js";

/** A promise to settle from outside, to hold a lock for as long as a test needs. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Lets every queued microtask and timer callback run. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe("RwLock", () => {
  it("lets readers in together", async () => {
    const lock = new RwLock();
    const g = gate();
    let inside = 0;
    let most = 0;
    const reader = () =>
      lock.read(async () => {
        most = Math.max(most, ++inside);
        await g.promise;
        inside--;
      });
    const all = Promise.all([reader(), reader(), reader()]);
    await settle();
    expect(most).toBe(3);
    g.open();
    await all;
    expect(lock.idle).toBe(true);
  });

  it("starts a commit only after the readers already in have left", async () => {
    const lock = new RwLock();
    const g = gate();
    const log: string[] = [];
    const read = lock.read(async () => {
      log.push("read in");
      await g.promise;
      log.push("read out");
    });
    const write = lock.write(() => void log.push("write"));
    await settle();
    expect(log).toEqual(["read in"]);
    g.open();
    await Promise.all([read, write]);
    expect(log).toEqual(["read in", "read out", "write"]);
  });

  it("lets a waiting commit go before readers that come after it (a stream of reads cannot starve it)", async () => {
    const lock = new RwLock();
    const g = gate();
    const log: string[] = [];
    const first = lock.read(async () => {
      await g.promise;
      log.push("read 1");
    });
    const write = lock.write(async () => {
      await settle();
      log.push("write");
    });
    const later = [lock.read(async () => void log.push("read 2")), lock.read(async () => void log.push("read 3"))];
    await settle();
    expect(log).toEqual([]);
    g.open();
    await Promise.all([first, write, ...later]);
    expect(log).toEqual(["read 1", "write", "read 2", "read 3"]);
  });

  it("runs commits one at a time, in the order they came", async () => {
    const lock = new RwLock();
    const log: string[] = [];
    let inside = 0;
    const commit = (name: string, ms: number) =>
      lock.write(async () => {
        expect(++inside).toBe(1);
        await new Promise((r) => setTimeout(r, ms));
        log.push(name);
        inside--;
      });
    await Promise.all([commit("a", 20), commit("b", 0), commit("c", 5)]);
    expect(log).toEqual(["a", "b", "c"]);
  });

  it("releases the lock when the function throws, and passes the error on", async () => {
    const lock = new RwLock();
    await expect(lock.write(() => Promise.reject(new Error("commit failed")))).rejects.toThrow("commit failed");
    await expect(lock.read(() => Promise.reject(new Error("read failed")))).rejects.toThrow("read failed");
    expect(lock.idle).toBe(true);
    expect(await lock.write(() => "next")).toBe("next");
  });
});

describe("DocumentLocks", () => {
  it("keeps documents apart: a commit on one does not hold up reads of another", async () => {
    const locks = new DocumentLocks();
    const g = gate();
    const commit = locks.commit("a", () => g.promise);
    expect(await locks.read("b", async () => "b read")).toBe("b read");
    let aRead = false;
    const read = locks.read("a", async () => void (aRead = true));
    await settle();
    expect(aRead).toBe(false);
    g.open();
    await Promise.all([commit, read]);
    expect(aRead).toBe(true);
  });

  it("runs serial calls of one key in order, even after one fails; other keys do not wait", async () => {
    const locks = new DocumentLocks();
    const log: string[] = [];
    const g = gate();
    const first = locks.serial("k", async () => {
      await g.promise;
      log.push("k1");
      throw new Error("k1 failed");
    });
    const second = locks.serial("k", async () => void log.push("k2"));
    await locks.serial("other", async () => void log.push("other"));
    expect(log).toEqual(["other"]);
    g.open();
    await expect(first).rejects.toThrow("k1 failed");
    await second;
    expect(log).toEqual(["other", "k1", "k2"]);
  });

  it("keeps no lock or queue for a document once it is idle (ids from requests cannot grow memory)", async () => {
    const locks = new DocumentLocks();
    for (let i = 0; i < 100; i++) {
      await locks.read(`urn:x:${i}`, async () => undefined);
      await locks.commit(`urn:x:${i}`, () => undefined);
      await locks.serial(`urn:x:${i}`, async () => undefined);
    }
    await expect(locks.commit("urn:x:fails", () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    await settle();
    expect((Reflect.get(locks, "rw") as Map<string, unknown>).size).toBe(0);
    expect((Reflect.get(locks, "queues") as Map<string, unknown>).size).toBe(0);
  });
});
