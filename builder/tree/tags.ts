// The strong tag of a stored body, as the build writes it into the manifest: the same value
// `contentTag` (server/etag.ts) gives a computed answer of the same bytes, so a client holds one
// tag for one representation whoever answered. And the hash that names pack and block files.

import { createHash } from "node:crypto";

export function bodyTag(body: Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("hex").slice(0, 24)}"`;
}

/** A short hash of a text (16 hex digits): the names of pack and block files. */
export function contentHash(text: string): string {
  return createHash("sha1").update(text).digest("hex").slice(0, 16);
}
