// What a deploy needs from an object store (S3 and its kin, an R2 binding): list, get, put,
// delete, with keys relative to the deploy's prefix. Each store supplies only this.

export interface RemoteObject {
  key: string;
  size: number;
  /** The store's ETag without quotes: the MD5 of the bytes for a single-part upload (S3, R2, GCS). */
  etag?: string;
}

export interface ObjectHeaders {
  contentType: string;
  cacheControl: string;
  /** The bytes' MD5 in hex: the store checks the upload against it. */
  md5: string;
}

export interface ObjectStore {
  /** The target as the user named it (`s3://bucket/prefix`), for messages. */
  readonly name: string;
  /** Every object under the prefix. */
  list(): Promise<RemoteObject[]>;
  get(key: string, range?: { offset: number; length: number }): Promise<Uint8Array | null>;
  put(key: string, body: Uint8Array, headers: ObjectHeaders): Promise<void>;
  /** Removes the objects (at most 1,000 at once, as S3's DeleteObjects). */
  delete(keys: string[]): Promise<void>;
}

/** Keys joined to a prefix (`a/b` + `k` = `a/b/k`), and back. */
export function prefixer(prefix: string): { full(key: string): string; relative(full: string): string; listPrefix: string } {
  const base = prefix.replace(/^\/+|\/+$/g, "");
  const listPrefix = base ? `${base}/` : "";
  return { full: (key) => listPrefix + key, relative: (full) => full.slice(listPrefix.length), listPrefix };
}
