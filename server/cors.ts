// What each resource accepts, and who may write cross-origin. Reads are open to every origin
// (`*`); writes from a browser page on another origin only from the origins the operator
// listed (`dts serve --cors-origin`). The preflight and a 405's Allow come from one list.

import type { Endpoint } from "../builder/request.js";

const READS = ["GET", "HEAD", "OPTIONS"];
const WRITES = ["POST", "PUT", "DELETE"];

export interface MethodPolicy {
  /** Whether the Document endpoint accepts writes (a corpus and a token). */
  writes: boolean;
  /** Origins (`https://editor.example`) whose pages may write; `*` for any. */
  origins: readonly string[];
}

export const READ_ONLY: MethodPolicy = { writes: false, origins: [] };

/** The methods a resource accepts, as its Allow header lists them. */
export function allowedMethods(endpoint: Endpoint | null, policy: MethodPolicy): string[] {
  return endpoint === "document" && policy.writes ? [...READS, ...WRITES] : READS;
}

/** `--cors-origin` values (repeated or comma-separated), each checked to be an origin. */
export function parseOrigins(values: readonly string[]): string[] {
  const origins = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const o of origins) {
    if (o === "*") continue;
    let url: URL | null = null;
    try {
      url = new URL(o);
    } catch {
      // reported below
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== o) {
      throw new Error(
        `--cors-origin ${JSON.stringify(o)} is not an origin: give scheme, host and port only, as a browser sends it (https://editor.example.org, http://localhost:5173), or *`,
      );
    }
  }
  return origins;
}

/** Whether a request comes from a page of another origin (a browser says so in Origin). */
function crossOrigin(headers: Headers): string | null {
  const origin = headers.get("origin");
  if (origin === null) return null;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    // "null" (a sandboxed page, a file) or garbage: another origin.
  }
  return host !== null && host === headers.get("host") ? null : origin;
}

function listed(policy: MethodPolicy, origin: string): boolean {
  return policy.origins.includes("*") || policy.origins.includes(origin);
}

/** Why a write from this request's origin is refused, or null when it may write. */
export function crossOriginRefusal(policy: MethodPolicy, headers: Headers): string | null {
  const origin = crossOrigin(headers);
  if (origin === null || listed(policy, origin)) return null;
  return `Writes from pages of another origin (${origin.slice(0, 200)}) are not allowed on this server: start dts serve with --cors-origin ${/^https?:\/\/[^\s/]+$/.test(origin) ? origin : "<origin>"} to allow them.`;
}

/** The headers of a CORS preflight answer for `endpoint`. */
export function preflightHeaders(endpoint: Endpoint | null, policy: MethodPolicy, request: Headers): Record<string, string> {
  const origin = crossOrigin(request);
  const writes = origin === null || listed(policy, origin);
  const methods = writes ? allowedMethods(endpoint, policy) : READS;
  return {
    "Access-Control-Allow-Methods": methods.join(", "),
    "Access-Control-Allow-Headers": "Authorization, Content-Type, If-None-Match, If-Match",
    "Access-Control-Max-Age": "86400",
    // The methods depend on the origin: a cache must not give one origin's answer to another.
    Vary: "Origin",
  };
}
