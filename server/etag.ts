// One ETag policy for every reader and host, strong on every response that has one (the
// write API's If-Match compares strongly). A stored response's tag is the one its manifest
// entry holds, a hash of its bytes (builder/tree/tags.ts), which every host sends (dts serve,
// the Worker, the edge function, nginx's njs, Apache's map); a computed response is tagged by
// the same hash of its bytes, so one representation has one tag whoever answered. A
// precompressed sibling (another representation) is tagged by its file's identity as nginx
// computes it, `"<mtime in seconds, hex>-<size, hex>"`, or by a hash of its bytes where the host
// gives no strong tag. Web Crypto only: the Worker and edge readers use this too.

/** The tag nginx (and `dts serve`) sends for a file of this modification time and size. */
export function fileTag(mtimeMs: number, size: number): string {
  return `"${Math.floor(mtimeMs / 1000).toString(16)}-${size.toString(16)}"`;
}

/** A strong tag derived from the bytes of a response. */
export async function contentTag(body: string | Uint8Array): Promise<string> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const b of digest.subarray(0, 12)) hex += b.toString(16).padStart(2, "0");
  return `"${hex}"`;
}

/** The host's own tag when it is strong, else one derived from the bytes. */
export async function strongTag(given: string | undefined, body: string | Uint8Array): Promise<string> {
  return given?.startsWith('"') ? given : contentTag(body);
}

/** The tags of an If-Match or If-None-Match header: "*", or the list (weak ones kept as sent). */
export function parseTagList(header: string): "*" | string[] {
  if (header.trim() === "*") return "*";
  return header.match(/(?:W\/)?"[^"]*"/g) ?? [];
}
