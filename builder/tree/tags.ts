// The strong tag of a stored body, as the build writes it into the manifest: the same value
// `contentTag` (server/etag.ts) gives a computed answer of the same bytes, so a client holds one
// tag for one representation whoever answered. And the hash that names pack and block files.

import { hash } from "node:crypto";

export function bodyTag(body: Uint8Array): string {
  // The one-shot hash: a Hash object per body cost 1.3 s of a latinLit build (640,000 bodies).
  return `"${hash("sha256", body, "hex").slice(0, 24)}"`;
}

/** A short hash of a text (16 hex digits): the names of pack and block files. */
export function contentHash(text: string): string {
  return hash("sha1", text, "hex").slice(0, 16);
}
