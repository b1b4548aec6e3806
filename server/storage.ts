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
}
