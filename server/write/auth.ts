// Access control of the write API: one token (DTS_TOKEN), given as the `token` query
// parameter (the spec's) or as `Authorization: Bearer`. Compared in constant time over
// hashes (so the lengths do not leak either); never logged, never echoed in a response.

import { createHash, timingSafeEqual } from "node:crypto";
import { DtsError } from "../../builder/error.js";

const digest = (value: string): Buffer => createHash("sha256").update(value, "utf8").digest();

export const ENABLE_WRITES = "set DTS_TOKEN and start `dts serve --corpus <dir>`";

/**
 * Checks a write request's credentials: null when they are good, else the refusal. `configured` is the server's token (undefined when
 * writes are not enabled). Every token the request carries must match.
 */
export function checkToken(configured: string | undefined, url: URL, headers: Headers): DtsError | null {
  if (!configured) {
    return new DtsError(
      403,
      `Writes are not enabled on this server: to enable POST, PUT and DELETE, ${ENABLE_WRITES}, then send the token as the token query parameter or as Authorization: Bearer.`,
    );
  }
  const given: string[] = [];
  const fromQuery = url.searchParams.getAll("token");
  given.push(...fromQuery);
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) {
      return new DtsError(401, "The Authorization header must be `Bearer <token>`.", {
        headers: { "WWW-Authenticate": 'Bearer realm="dts", error="invalid_request"' },
      });
    }
    given.push(m[1]);
  }
  if (given.length === 0) {
    return new DtsError(401, "This write needs a token: send it as the token query parameter or as Authorization: Bearer <token>.", {
      headers: { "WWW-Authenticate": 'Bearer realm="dts"' },
    });
  }
  const expected = digest(configured);
  let all = true;
  // No early exit: each given token costs the same whether or not an earlier one failed.
  for (const token of given) all = timingSafeEqual(digest(token), expected) && all;
  if (!all) return new DtsError(403, "The token is not valid for writes on this server.");
  return null;
}
