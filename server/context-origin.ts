// A tree built without --site-url names its JSON-LD context root-relative
// (`"@context": "/api/dts/context.json"`), which no JSON-LD processor can load without a base.
// The server completes it with the origin each request came to: the one place that does.

import type { DtsResponse } from "../builder/render/response.js";
import { contextIsRelative, type Site } from "../builder/site.js";
import { JSONLD_TYPE } from "../builder/wire.js";

const encoder = new TextEncoder();

/** The opening every JSON-LD body of the tree has (render/response.ts `json`: the context first). */
const opening = (context: string): string => `{\n  "@context": ${JSON.stringify(context)}`;

/** Whether `body` starts with the bytes of `prefix` (ASCII or not, compared as UTF-8). */
function startsWith(body: Uint8Array | string, prefix: string): boolean {
  if (typeof body === "string") return body.startsWith(prefix);
  const bytes = encoder.encode(prefix);
  if (body.length < bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (body[i] !== bytes[i]) return false;
  return true;
}

/** The response with its root-relative `@context` made absolute under `origin`; others as they are. */
export function withContextOrigin(response: DtsResponse, site: Site, origin: string): DtsResponse {
  if (!contextIsRelative(site) || response.type !== JSONLD_TYPE) return response;
  const relative = opening(site.context);
  const { body } = response;
  if (!startsWith(body, relative)) return response;
  const absolute = opening(origin + site.context);
  if (typeof body === "string") return { ...response, body: absolute + body.slice(relative.length) };
  const head = encoder.encode(absolute);
  const skip = encoder.encode(relative).length;
  const out = new Uint8Array(head.length + body.length - skip);
  out.set(head, 0);
  out.set(body.subarray(skip), head.length);
  return { ...response, body: out };
}
