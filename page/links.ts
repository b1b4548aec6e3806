// The Link header (RFC 8288) as a map of relation to absolute URL, and a Document URL back
// into the passage it names.

import type { Place } from "./route.js";

export function parseLinks(header: string | null, base: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (header ?? "").matchAll(/<([^>]*)>\s*;\s*rel="?([^";,]+)"?/g)) {
    for (const rel of m[2].split(/\s+/)) out[rel] ??= new URL(m[1], base).href;
  }
  return out;
}

/** The passage a 1-draft2 Document URL names (`?id=&ref=` or `&start=&end=`). */
export function placeOfDocumentUrl(url: string): Place | undefined {
  const q = new URL(url).searchParams;
  const id = q.get("id");
  if (id === null) return undefined;
  const place: Place = { id };
  for (const key of ["ref", "start", "end"] as const) {
    const value = q.get(key);
    if (value !== null) place[key] = value;
  }
  return place;
}
