// A tree built without --site-url names its JSON-LD context root-relative
// (`"@context": "/api/dts/context.json"`), which no JSON-LD processor can load without a base.
// The server completes it with the origin each request came to: the one place that does.

import type { DtsResponse } from "../builder/render/response.js";
import { contextIsRelative, type Site } from "../builder/site.js";
import { JSONLD_TYPE } from "../builder/wire.js";

const encoder = new TextEncoder();

/** The opening every JSON-LD body of the tree has (render/response.ts `json`: the context first). */
const opening = (context: string): string => `{\n  "@context": ${JSON.stringify(context)}`;

/** The encoded openings, by context and origin: a few origins serve a tree, so a small bound keeps it. */
const openings = new Map<string, Uint8Array>();
const MAX_OPENINGS = 32;

function encodedOpening(context: string): Uint8Array {
  let bytes = openings.get(context);
  if (!bytes) {
    if (openings.size >= MAX_OPENINGS) openings.clear();
    bytes = encoder.encode(opening(context));
    openings.set(context, bytes);
  }
  return bytes;
}

function startsWith(body: Uint8Array, prefix: Uint8Array): boolean {
  if (body.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (body[i] !== prefix[i]) return false;
  return true;
}

/** The response with its root-relative `@context` made absolute under `origin`; others as they are. */
export function withContextOrigin(response: DtsResponse, site: Site, origin: string): DtsResponse {
  if (!contextIsRelative(site) || response.type !== JSONLD_TYPE) return response;
  const { body } = response;
  if (typeof body === "string") {
    const relative = opening(site.context);
    return body.startsWith(relative) ? { ...response, body: opening(origin + site.context) + body.slice(relative.length) } : response;
  }
  const relative = encodedOpening(site.context);
  if (!startsWith(body, relative)) return response;
  const absolute = encodedOpening(origin + site.context);
  const out = new Uint8Array(absolute.length + body.length - relative.length);
  out.set(absolute, 0);
  out.set(body.subarray(relative.length), absolute.length);
  return { ...response, body: out };
}
