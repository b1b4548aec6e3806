// A tree deployed to an object store by `dts deploy` (builder/tree/bucket-layout.ts): an R2
// binding in a Worker, or any bucket a runtime can get objects from. Each tree path is read
// through the listing the switch names; the tree's generation is the switch's version, so the
// reader, which looks at its generation once a second, sees a new deploy whole and drops its caches.

import { type DeployListing, objectKey, parseListing, parseSwitch, SWITCH_KEY } from "../../builder/tree/bucket-layout.js";
import { GENERATION_FILE } from "../../builder/tree/layout.js";
import { outsideTree, type StoredFile, type TreeStorage } from "../storage.js";

/** An object's bytes (or `length` bytes of it from `offset`), or null when there is none. */
export type GetObject = (key: string, range?: { offset: number; length: number }) => Promise<Uint8Array | null>;

const text = new TextDecoder();

/** Gunzips with the web's own stream (Workers, Node and edge runtimes all have it). */
async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function bucketStorage(get: GetObject, where = "the bucket"): TreeStorage {
  let current: Promise<DeployListing> | null = null;

  /** Reads the switch; loads its listing when it names another version than the one held. */
  async function refresh(): Promise<DeployListing> {
    const held = current ? await current.catch(() => null) : null;
    const bytes = await get(SWITCH_KEY);
    const sw = bytes ? parseSwitch(text.decode(bytes)) : null;
    if (!sw) throw new Error(`${where} holds no tree deployed by \`dts deploy\` (no readable ${SWITCH_KEY})`);
    if (held?.version === sw.version) return held;
    const listing = await get(sw.listing);
    const parsed = listing ? parseListing(text.decode(await gunzip(listing))) : null;
    if (!parsed) throw new Error(`${where}: ${sw.listing}, named by ${SWITCH_KEY}, is missing or unreadable`);
    return parsed;
  }

  function reload(): Promise<DeployListing> {
    const next = refresh();
    current = next;
    // A failed read is not kept: the next request tries again.
    next.catch(() => {
      if (current === next) current = null;
    });
    return next;
  }

  /** Reads a tree path's object; a miss after a newer deploy removed it is read again through the new switch. */
  async function readObject(path: string, range?: { offset: number; length: number }): Promise<Uint8Array | null> {
    if (outsideTree(path)) return null;
    let files = (await (current ?? reload())).files;
    for (let attempt = 0; ; attempt++) {
      if (!Object.hasOwn(files, path)) return null;
      const body = await get(objectKey(path, files[path]), range);
      if (body || attempt) return body;
      files = (await reload()).files;
    }
  }

  return {
    async read(path: string): Promise<StoredFile | null> {
      if (path === GENERATION_FILE) return { body: new TextEncoder().encode((await reload()).version) };
      const body = await readObject(path);
      return body ? { body } : null;
    },
    async readRange(path: string, offset: number, length: number): Promise<Uint8Array | null> {
      if (length === 0) return new Uint8Array(0);
      return readObject(path, { offset, length });
    },
  };
}
