// If-Match on writes (optimistic concurrency): a client sends the ETag of what it read, and
// the write goes ahead only if that is still what a GET answers. Compared strongly, against
// every tag a client may hold for that answer (nginx's or this server's, plain or compressed).
// Without If-Match a write goes ahead, as the spec allows.

import { DtsError } from "../../builder/error.js";
import { parseTagList } from "../etag.js";
import type { TreeReader } from "../reader.js";

/** Throws 412 when `header` (If-Match) names no current tag of the GET at `read`. */
export async function checkIfMatch(reader: TreeReader, read: URL, header: string | null, what: string): Promise<void> {
  if (header === null) return;
  const given = parseTagList(header);
  const current = await reader.currentTags(read);
  if (given === "*" ? current.length > 0 : given.some((t) => current.includes(t))) return;
  const now = current.length ? `its ETag is now ${current[0]}` : "it has no text now";
  throw new DtsError(
    412,
    `If-Match does not match ${what}: it changed since it was read (${now}); nothing was written. GET it again, apply your change to what it is now, and send that with the new ETag.`,
    { headers: current.length ? { ETag: current[0] } : {} },
  );
}
