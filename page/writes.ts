// The write API as the editor uses it (1-draft2's Document endpoint): whether the server
// accepts writes (its Hydra documentation lists them), and PUT, POST, DELETE with the token
// as a Bearer header and the ETag of what was read in If-Match.

import { type Draft2Entry, documentUrl } from "./draft2.js";
import type { Place } from "./route.js";

const TOKEN_KEY = "dts-token";

/** The token, for this tab only: sessionStorage, never a URL. */
export const token = {
  get: (): string => sessionStorage.getItem(TOKEN_KEY) ?? "",
  set: (value: string): void => (value ? sessionStorage.setItem(TOKEN_KEY, value) : sessionStorage.removeItem(TOKEN_KEY)),
};

/** Whether the API documentation lists PUT among the Document endpoint's operations. */
export async function writesEnabled(docsUrl: string | undefined): Promise<boolean> {
  if (!docsUrl) return false;
  try {
    const response = await fetch(docsUrl, { headers: { Accept: "application/ld+json" } });
    if (!response.ok) return false;
    const json = (await response.json()) as { supportedOperations?: { method?: string }[] };
    return (json.supportedOperations ?? []).some((o) => o.method === "PUT");
  } catch {
    return false;
  }
}

export interface WriteClient {
  put(place: Place, body: string, etag: string | null): Promise<Response>;
  insert(id: string, where: { after: string } | { before: string }, body: string, etag: string | null): Promise<Response>;
  remove(place: Place, etag: string | null): Promise<Response>;
  /** The whole document's ETag, which a POST's If-Match names. */
  documentTag(id: string): Promise<string | null>;
}

export function writeClient(entry: Draft2Entry): WriteClient {
  const send = (method: string, url: string, etag: string | null, body?: string): Promise<Response> =>
    fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${token.get()}`,
        ...(body !== undefined ? { "Content-Type": "application/tei+xml" } : {}),
        ...(etag ? { "If-Match": etag } : {}),
      },
      ...(body !== undefined ? { body } : {}),
    });
  return {
    put: (place, body, etag) => send("PUT", documentUrl(entry, place), etag, body),
    insert: (id, where, body, etag) => send("POST", documentUrl(entry, { id }, where as Record<string, string>), etag, body),
    remove: (place, etag) => send("DELETE", documentUrl(entry, place), etag),
    async documentTag(id) {
      const response = await fetch(documentUrl(entry, { id }), { method: "HEAD", cache: "no-store" });
      return response.ok ? response.headers.get("ETag") : null;
    },
  };
}
