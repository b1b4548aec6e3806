// What a DTS 1.0 GET asks for, read from either URL style (urls.ts): query parameters, or the
// path style of the static profile. Plain data and no classes, like builder/request.ts, so it
// runs in every reader down to nginx's JavaScript module.

import { firstValue, queryPairs } from "../query.js";
import type { Refusal } from "../request.js";
import { JSONLD_EXT, TEI_EXT, V1_SEGMENT } from "./urls.js";

export type V1Request =
  | { kind: "v1-entry" }
  | { kind: "v1-collection"; id?: string; nav: "children" | "parents"; page?: number }
  | { kind: "v1-document"; resource: string; ref?: string; start?: string; end?: string; tree?: string; mediaType?: string }
  | {
      kind: "v1-navigation";
      resource: string;
      ref?: string;
      start?: string;
      end?: string;
      /** Levels below the reference point; -1 is the bottom of the tree; absent: none. */
      down?: number;
      tree?: string;
      page?: number;
    };

/**
 * Whether the tree stores the answer to a 1.0 request (packed, or in the static profile as a
 * file): not ranges, media types, pages of Navigation, nor `down=0`, whose siblings list is the
 * same for each of N siblings (N x N units for N lines), so it is computed.
 */
export function isStoredV1(req: V1Request): boolean {
  switch (req.kind) {
    case "v1-document":
      return req.start === undefined && req.mediaType === undefined;
    case "v1-navigation":
      return req.start === undefined && req.page === undefined && req.down !== 0;
    default:
      return true;
  }
}

export type V1Endpoint = "v1-entry" | "v1-collection" | "v1-document" | "v1-navigation";

/** The endpoint a path's first name is (a switch, not an object: `constructor` is no endpoint). */
function endpointNamed(name: string): V1Endpoint | null {
  switch (name) {
    case "collection":
      return "v1-collection";
    case "document":
      return "v1-document";
    case "navigation":
      return "v1-navigation";
    default:
      return null;
  }
}

/** Which 1.0 endpoint a path under the base path names (`rest` starts with /v1), or null. */
export function v1EndpointOf(rest: string): V1Endpoint | null {
  if (rest !== V1_SEGMENT && !rest.startsWith(`${V1_SEGMENT}/`)) return null;
  const tail = rest.slice(V1_SEGMENT.length).replace(/^\/+/, "");
  if (tail === "" || tail === `index${JSONLD_EXT}`) return "v1-entry";
  const name = /^[a-z]+/.exec(tail)?.[0] ?? "";
  const endpoint = endpointNamed(name);
  if (endpoint === null) return null;
  const after = tail.slice(name.length);
  // `collection`, `collection/`, `collection.jsonld`, `collection;nav=...`, `collection/<id>...`
  return after === "" || /^[/;.]/.test(after) ? endpoint : null;
}

const bad = (endpoint: V1Endpoint, description: string, status = 400): Refusal => ({ kind: "bad", endpoint, description, status });

type Params = (name: string) => string | undefined;

/**
 * Reads a 1.0 request. `rest` is the path after the site's base path, still percent-encoded
 * (path-style values are decoded here, segment by segment, so an encoded `/` stays inside its
 * value); `search` is the query string.
 */
export function readV1Request(rest: string, search: string, endpoint: V1Endpoint): V1Request | Refusal {
  if (endpoint === "v1-entry") return { kind: "v1-entry" };
  const tail = rest.slice(V1_SEGMENT.length).replace(/^\/+/, "");
  const name = endpoint.slice(3);
  const pathPart = tail.slice(name.length).replace(/\/+$/, "");
  if (pathPart === "" || pathPart === "/") {
    const pairs = queryPairs(search);
    return fromParams(endpoint, (n) => firstValue(pairs, n) ?? undefined);
  }
  const read = readPathStyle(endpoint, pathPart);
  return read.kind === "bad" ? read : fromParams(endpoint, (n) => read.values[n]);
}

/** The parameters of a path-style URL: `/<value>` segments and `;name=value` pairs, decoded. */
function readPathStyle(endpoint: V1Endpoint, pathPart: string): { kind: "path"; values: Record<string, string> } | Refusal {
  const ext = endpoint === "v1-document" ? TEI_EXT : JSONLD_EXT;
  if (!pathPart.endsWith(ext)) {
    return bad(endpoint, `a path-style ${endpoint.slice(3)} URL ends with ${ext}, as its template says`, 404);
  }
  const body = pathPart.slice(0, -ext.length);
  // No prototype: a `;constructor=...` pair is a parameter like any other, and ignored.
  const out: Record<string, string> = Object.create(null);
  const decode = (raw: string): string | null => {
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  };
  // `/<id>;name=value;.../<ref>` or, for the root collection, `;name=value...`.
  const segments = body.startsWith("/") ? body.slice(1).split("/") : [body];
  const parts = segments[0].split(";");
  for (const pair of parts.slice(1)) {
    const eq = pair.indexOf("=");
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = decode(eq < 0 ? "" : pair.slice(eq + 1));
    if (value === null) return bad(endpoint, `the value of ${key} is not valid percent-encoded UTF-8`);
    if (!(key in out)) out[key] = value;
  }
  const decoded: string[] = [];
  for (const raw of parts[0] === "" && !body.startsWith("/") ? segments.slice(1) : [parts[0], ...segments.slice(1)]) {
    const value = decode(raw);
    if (value === null) return bad(endpoint, "a path segment is not valid percent-encoded UTF-8");
    decoded.push(value);
  }
  if (decoded.length > 0) out[endpoint === "v1-collection" ? "id" : "resource"] = decoded[0];
  const passage = decoded.slice(1);
  if (passage.length > 0 && endpoint === "v1-collection") return bad(endpoint, "a collection URL names one id", 404);
  if (passage.length === 1) out.ref = passage[0];
  else if (passage.length === 2) {
    out.start = passage[0];
    out.end = passage[1];
  } else if (passage.length > 2) return bad(endpoint, "a path-style URL names one ref, or a start and an end", 404);
  return { kind: "path", values: out };
}

function positiveInteger(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  return /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : null;
}

function fromParams(endpoint: V1Endpoint, get: Params): V1Request | Refusal {
  if (endpoint === "v1-collection") {
    const nav = get("nav") ?? "children";
    if (nav !== "children" && nav !== "parents") return bad(endpoint, `nav must be "children" or "parents", not "${nav}"`);
    const page = positiveInteger(get("page"));
    if (page === null) return bad(endpoint, `page must be a whole number from 1, not "${get("page")}"`);
    const id = get("id");
    return { kind: "v1-collection", id: id === "" ? undefined : id, nav, page };
  }
  const resource = get("resource");
  if (resource === undefined || resource === "") return bad(endpoint, "the required parameter resource is missing");
  const ref = get("ref");
  const start = get("start");
  const end = get("end");
  const tree = get("tree");
  if (ref !== undefined && (start !== undefined || end !== undefined)) {
    return bad(endpoint, "ref cannot be combined with start or end: ask for one passage (ref) or one range (start and end)");
  }
  if ((start === undefined) !== (end === undefined)) {
    return bad(endpoint, `a range needs both start and end; only ${start !== undefined ? "start" : "end"} was given`);
  }
  if (endpoint === "v1-document") {
    return { kind: "v1-document", resource, ref, start, end, tree, mediaType: get("mediaType") };
  }
  const rawDown = get("down");
  let down: number | undefined;
  if (rawDown !== undefined) {
    if (!/^(-1|[0-9]{1,3})$/.test(rawDown))
      return bad(endpoint, `down must be -1 (the bottom of the tree) or a whole number from 0, not "${rawDown}"`);
    down = Number(rawDown);
  }
  if (ref === undefined && start === undefined) {
    if (down === undefined)
      return bad(endpoint, "Navigation needs down, a ref, or a start and an end: the whole Resource is not a citable unit");
    if (down === 0) return bad(endpoint, "down=0 needs a ref: it lists the siblings of that citable unit");
  }
  if (start !== undefined && down === 0)
    return bad(endpoint, "down=0 cannot be used with a range (start and end): it lists the siblings of one ref");
  const page = positiveInteger(get("page"));
  if (page === null) return bad(endpoint, `page must be a whole number from 1, not "${get("page")}"`);
  return { kind: "v1-navigation", resource, ref, start, end, down, tree, page };
}
