// What a reader needs from wherever the tree is kept. Each runtime (local disk, Worker
// static assets, an edge function) supplies only this.

export interface StoredFile {
  body: Uint8Array;
  /** A validator for conditional requests, when the storage can give one cheaply. */
  etag?: string;
}

/** A path no storage reads: empty, absolute, or with a `.` or `..` segment (tree paths have none). */
export function outsideTree(path: string): boolean {
  return path.split("/").some((part) => part === ".." || part === "." || part === "");
}

export interface TreeStorage {
  /** The file at a tree-relative path (`document/x/_.xml`), or null when there is none. */
  read(path: string): Promise<StoredFile | null>;
  /** `length` bytes of a file from `offset` (a packed body), when the storage can read a part. */
  readRange?(path: string, offset: number, length: number): Promise<Uint8Array | null>;
}

/** Bytes of a file: through readRange when the storage has it, else cut from the whole file. */
export async function readRange(storage: TreeStorage, path: string, offset: number, length: number): Promise<Uint8Array | null> {
  if (outsideTree(path) || offset < 0 || length < 0) return null;
  const part = storage.readRange ? await storage.readRange(path, offset, length) : null;
  if (part) return part.length === length ? part : null;
  if (storage.readRange) return null;
  const whole = await storage.read(path);
  return whole && whole.body.length >= offset + length ? whole.body.subarray(offset, offset + length) : null;
}
