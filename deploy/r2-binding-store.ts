// A store over a Cloudflare R2 bucket binding (a Worker's, or Miniflare's in the tests): the
// same deploy as through R2's S3 API, for code that holds the binding rather than S3 keys.

import { type ObjectStore, prefixer, type RemoteObject } from "./store.js";

/** What the deploy uses of an R2 bucket binding. */
export interface R2BucketLike {
  list(o: { prefix?: string; cursor?: string; limit?: number }): Promise<{
    objects: { key: string; size: number; etag: string }[];
    truncated: boolean;
    cursor?: string;
  }>;
  get(key: string, o?: { range?: { offset: number; length: number } }): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  put(key: string, body: Uint8Array, o: { httpMetadata: { contentType: string; cacheControl: string }; md5: string }): Promise<unknown>;
  delete(keys: string[]): Promise<void>;
}

export function r2BindingStore(bucket: R2BucketLike, name: string, prefix = ""): ObjectStore {
  const keys = prefixer(prefix);
  return {
    name: `r2://${name}/${keys.listPrefix}`,
    async list() {
      const out: RemoteObject[] = [];
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix: keys.listPrefix || undefined, cursor, limit: 1000 });
        for (const o of page.objects) out.push({ key: keys.relative(o.key), size: o.size, etag: o.etag });
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return out;
    },
    async get(key, range) {
      const object = await bucket.get(keys.full(key), range ? { range } : undefined);
      return object ? new Uint8Array(await object.arrayBuffer()) : null;
    },
    async put(key, body, headers) {
      // A view of its own buffer: Node's file buffers share a pool, which a binding's proxy (Miniflare's) refuses.
      await bucket.put(keys.full(key), new Uint8Array(body), {
        httpMetadata: { contentType: headers.contentType, cacheControl: headers.cacheControl },
        md5: headers.md5,
      });
    },
    async delete(list) {
      if (list.length) await bucket.delete(list.map(keys.full));
    },
  };
}
