// The 1-draft2 client: URLs from the Entry's endpoints with query parameters; a passage's
// neighbours from its Link header (prev, next, up).

import { type CollectionPage, type DtsApi, get, type Passage, readCollectionPage, type Unit } from "./api.js";
import { parseLinks, placeOfDocumentUrl } from "./links.js";
import { encodeQueryValue, type Place } from "./route.js";

export interface Draft2Entry {
  collection: string;
  document: string;
  navigation: string;
  /** The Hydra API documentation (the entry's apiDocumentation link). */
  docs?: string;
}

const API_DOC_REL = "http://www.w3.org/ns/hydra/core#apiDocumentation";

export async function readDraft2Entry(entryUrl: string, response: Response, json: Record<string, unknown>): Promise<Draft2Entry> {
  const resolve = (key: string): string => new URL(String(json[key] ?? json[`${key}s`]), entryUrl).href;
  const docs = parseLinks(response.headers.get("Link"), entryUrl)[API_DOC_REL];
  return { collection: resolve("collection"), document: resolve("document"), navigation: resolve("navigation"), ...(docs ? { docs } : {}) };
}

/** `base` with the given query parameters, those left undefined out. */
export function withQuery(base: string, params: Record<string, string | number | undefined>): string {
  const pairs = Object.entries(params).filter(([, v]) => v !== undefined);
  if (pairs.length === 0) return base;
  const query = pairs.map(([k, v]) => `${k}=${encodeQueryValue(String(v))}`).join("&");
  return `${base}${base.includes("?") ? "&" : "?"}${query}`;
}

export function documentUrl(entry: Draft2Entry, place: Place, extra: Record<string, string> = {}): string {
  return withQuery(entry.document, { id: place.id, ref: place.ref, start: place.start, end: place.end, ...extra });
}

export function draft2Api(entry: Draft2Entry): DtsApi {
  return {
    version: "1-draft2",
    async collection(id, page): Promise<CollectionPage> {
      const json = (await (await get(withQuery(entry.collection, { id, page }), "application/ld+json")).json()) as Record<string, unknown>;
      return readCollectionPage(json, page);
    },
    async children(id, ref): Promise<Unit[]> {
      const json = (await (await get(withQuery(entry.navigation, { id, ref }), "application/ld+json")).json()) as Record<string, unknown>;
      const depth = Number(json.maxCiteDepth ?? 0);
      const members = Array.isArray(json.member) ? (json.member as Record<string, unknown>[]) : [];
      return members
        .filter((m) => typeof m.ref === "string")
        .map((m) => {
          const level = Number(m.level ?? 1);
          return {
            ref: String(m.ref),
            level,
            ...(typeof m.citeType === "string" ? { citeType: m.citeType } : {}),
            hasChildren: level < depth,
          };
        });
    },
    async passage(place): Promise<Passage> {
      const url = documentUrl(entry, place);
      const response = await get(url, "application/tei+xml");
      const links = parseLinks(response.headers.get("Link"), url);
      const near = (rel: string): Place | undefined => (links[rel] ? placeOfDocumentUrl(links[rel]) : undefined);
      const [prev, next, up] = [near("prev"), near("next"), near("up")];
      return {
        place,
        url,
        xml: await response.text(),
        etag: response.headers.get("ETag"),
        ...(prev ? { prev } : {}),
        ...(next ? { next } : {}),
        ...(up ? { up } : {}),
      };
    },
  };
}
