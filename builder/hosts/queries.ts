// The addresses a client may send for a stored request. A static host compares the raw
// request (nginx's `$request_uri`, Apache's `%{QUERY_STRING}`) with strings, and cannot decode
// percent-escapes, so the rules list each stored request in the encodings clients use. Every
// address is checked with `parseRequest` and `requestToPath`: it names the same file the
// server would read. Other spellings are not lost: they go to the dynamic reader, which
// answers them the same way.

import { type DtsRequest, parseRequest } from "../request.js";
import type { Site } from "../site.js";
import { requestToPath } from "../tree/layout.js";
import { encodeQueryValue, requestUrl } from "../urls.js";

/** How a client may write a query value. */
const ENCODERS: ((value: string) => string)[] = [
  // The links this service emits.
  encodeQueryValue,
  // `encodeURIComponent`, as most hand-written clients do.
  encodeURIComponent,
  // application/x-www-form-urlencoded, as URLSearchParams, HTML forms and Python's urlencode
  // write it: `+` for a space, and `!'()~` escaped.
  (v) =>
    encodeURIComponent(v)
      .replace(/%20/g, "+")
      .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  // Unencoded, as people type it (curl, a browser's address bar), when nothing in the value
  // needs escaping; non-ASCII stays as its UTF-8 bytes.
  (v) => (/^[A-Za-z0-9\-._~:/@!*'(),;=\u0080-\uffff]*$/.test(v) ? v : encodeQueryValue(v)),
];

/** A value as each encoding writes it, deduplicated. */
export function valueSpellings(value: string): string[] {
  return [...new Set(ENCODERS.map((encode) => encode(value)))];
}

/**
 * The raw request targets (path and query) that mean `req`, deduplicated: the canonical one
 * first, then every combination of the values' spellings, with the defaults written out
 * (`nav=children`) and the entry point with a trailing slash.
 */
export function requestTargets(site: Site, req: DtsRequest): string[] {
  const canonical = requestUrl(site, req);
  const q = canonical.indexOf("?");
  const path = q < 0 ? canonical : canonical.slice(0, q);
  const params = [...new URLSearchParams(q < 0 ? "" : canonical.slice(q + 1))];
  const variants: [string, string][][] = [params];
  if (req.kind === "collection" && req.nav === "children") variants.push(withParam(params, "nav", "children", req.id ? 1 : 0));
  // (`down=1` written out is not listed: navigation is most of a large tree, and the upstream
  // answers that spelling the same.)
  const paths = req.kind === "entry" ? [path, path === "/" ? "/" : `${path}/`] : [path];
  const out = new Set<string>();
  for (const p of paths) {
    for (const list of variants) {
      // Each value in each of its spellings: a client may escape the id and not the ref.
      let queries = [""];
      for (const [k, v] of list) {
        queries = queries.flatMap((q) => valueSpellings(v).map((s) => `${q}${q ? "&" : ""}${k}=${s}`));
      }
      for (const q of queries) out.add(q ? `${p}?${q}` : p);
    }
  }
  const want = requestToPath(req);
  for (const target of out) {
    // The one request-to-file function decides: an address that does not read back as the
    // same file is a bug here, and must not reach a host's rules.
    const back = parseRequest(new URL(target, "http://host"), site);
    if (!back || back.kind === "bad" || requestToPath(back) !== want) {
      throw new Error(`host rules: ${target} does not read back as ${want}`);
    }
  }
  return [...out];
}

function withParam(params: [string, string][], name: string, value: string, at: number): [string, string][] {
  const copy = [...params];
  copy.splice(at, 0, [name, value]);
  return copy;
}
