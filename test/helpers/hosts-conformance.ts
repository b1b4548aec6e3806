// The HTTP conformance suite for hosts: the same requests sent to `dts serve` (the reference)
// and to a host serving the built tree with generated rules, and the answers compared field by
// field. The request list covers every endpoint, stored and computed answers, errors, the
// spellings of one query, identifiers that need escaping, and attempts to leave the tree.

import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { expect } from "vitest";
// Queries as written (not `doc()`/`nav()`, which encode the id): the spellings are what these lists test.
import { CAESAR, CATULLUS, coll, documentPath as doc, EDGE, GEORGICS, LIVY, navigationPath as nav } from "./embedded.js";

const enc = encodeURIComponent;
/** URLSearchParams' spelling: `+` for a space, `:` and `/` escaped. */
const form = (v: string): string => new URLSearchParams({ v }).toString().slice(2);

/** Requests whose answers the tree stores (a static host must serve them from files). */
export const STORED_REQUESTS: string[] = [
  "/api/dts",
  "/api/dts/",
  "/api/dts/docs",
  "/api/dts/context.json",
  coll(),
  coll("?nav=parents"),
  coll("?page=1"),
  coll("?id=urn:dts:sample:latin"),
  coll(`?id=${enc("urn:dts:sample:latin")}`),
  coll("?id=urn:dts:sample:latin&nav=children"),
  coll(`?id=${enc(CAESAR)}&nav=parents`),
  coll(`?id=${form(EDGE)}`),
  doc(`id=${GEORGICS}`),
  doc(`id=${enc(GEORGICS)}`),
  doc(`id=${form(GEORGICS)}`),
  doc(`id=${GEORGICS}&ref=1.4`),
  doc(`id=${enc(GEORGICS)}&ref=1.4`),
  doc(`id=${CAESAR}&ref=1.2`),
  doc(`id=${enc(EDGE)}&ref=${enc("1.a b")}`),
  doc(`id=${form(EDGE)}&ref=${form("1.a b")}`),
  doc(`id=${enc(EDGE)}&ref=${enc("2.α")}`),
  doc(`id=${enc(EDGE)}&ref=${enc("2.x;y")}`),
  doc(`id=urn:dts:sample:edge:odd%20refs&ref=2.x%3By`),
  doc(`id=${enc(EDGE)}&ref=${enc("2.1/2")}`),
  doc(`id=${enc(EDGE)}&ref=2.1/2`),
  doc(`id=${LIVY}`),
  nav(`id=${CAESAR}`),
  nav(`id=${enc(CAESAR)}`),
  nav(`id=${CAESAR}&down=2`),
  nav(`id=${CAESAR}&down=max`),
  nav(`id=${CAESAR}&ref=1.2`),
  nav(`id=${CAESAR}&ref=1&down=2`),
  nav(`id=${enc(EDGE)}&down=2`),
  nav(`id=${LIVY}`),
];

/** Requests the tree does not hold: computed answers, errors, other spellings, writes. */
export const COMPUTED_REQUESTS: string[] = [
  "/api/dts/nothing",
  "/api/dts/docs/",
  coll("?id=urn:nothing"),
  coll("?nav=siblings"),
  coll("?page=0"),
  coll("?page=2"),
  coll("?id=URN:DTS:SAMPLE:LATIN"),
  coll("?id=urn%3adts%3asample%3alatin"),
  coll("?ID=urn:dts:sample:latin"),
  coll("?nav=parents&id=urn:dts:sample:latin"),
  doc(`id=${GEORGICS.toUpperCase()}`),
  doc(`id=${GEORGICS}&ref=1.1&start=1.2`),
  doc(""),
  "/api/dts/document",
  doc(`id=urn:nothing`),
  doc(`id=${GEORGICS}&ref=9.9`),
  doc(`id=${GEORGICS}&ref=1.1.1`),
  doc(`id=${GEORGICS}&start=1.11&end=2.2`),
  doc(`id=${GEORGICS}&start=1.5&end=1.2`),
  doc(`id=${CATULLUS}&start=11`),
  doc(`id=${CATULLUS}&end=2`),
  doc(`id=${CATULLUS}&start=4&end=6`),
  doc(`id=${GEORGICS}&ref=1.1&format=tei`),
  doc(`id=${GEORGICS}&ref=1.1&format=html`),
  doc(`id=${GEORGICS}&ref=1.4&extra=1`),
  doc(`ref=1.4&id=${GEORGICS}`),
  nav(`id=${CAESAR}&down=1`),
  nav(`id=${CAESAR}&ref=1.1&down=0`),
  nav(`id=${CATULLUS}&start=3&end=5&down=0`),
  nav(`id=${GEORGICS}&down=2&groupBy=5`),
  nav(`id=${CATULLUS}&max=5&page=2`),
  nav(`id=${CATULLUS}&max=5&page=4`),
  nav(`id=${CAESAR}&down=x`),
  nav(`id=${CAESAR}&start=1`),
  nav(`id=${CAESAR}&ref=9`),
  nav(`id=urn:nothing`),
  "/api/dts/navigation",
];

/** Attempts to read outside the tree, or the tree's own data files, through the API. */
export const ESCAPE_REQUESTS: string[] = [
  doc("id=../../etc/passwd"),
  doc("id=..%2F..%2F..%2Fetc%2Fpasswd"),
  doc("id=%2e%2e%2f%2e%2e%2fetc%2fpasswd"),
  doc(`id=${GEORGICS}&ref=../../../../etc/passwd`),
  nav("id=../../_catalog"),
  coll("?id=../../../etc/passwd"),
  "/api/dts/../../etc/passwd",
  "/api/dts/%2e%2e/%2e%2e/etc/passwd",
  "/api/dts/_catalog.json",
  "/api/dts/_site.json",
  "/api/dts/document/urn_3acts_3alatin_4cit_3aphi0690.phi003.sample-lat1/_index.json",
  "/api/dts/document/urn_3acts_3alatin_4cit_3aphi0690.phi003.sample-lat1/_.xml",
  "/.dts-tree/_catalog.json",
  "/.dts-tree/../../../etc/passwd",
];

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request sent exactly as written (fetch would normalise `..` and re-encode the query). */
export function rawRequest(
  base: string,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: init.method ?? "GET", path, headers: { Connection: "close", ...init.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The headers a client of the API relies on, compared between hosts. */
export const COMPARED_HEADERS = [
  "content-type",
  "link",
  "access-control-allow-origin",
  "access-control-expose-headers",
  "cache-control",
  "allow",
  "location",
];

/** Sends `path` to both and expects the same status, headers and body bytes. */
export async function expectSameAnswer(reference: string, candidate: string, path: string, method = "GET"): Promise<void> {
  const [a, b] = await Promise.all([rawRequest(reference, path, { method }), rawRequest(candidate, path, { method })]);
  expect(b.status, `${method} ${path}: status`).toBe(a.status);
  for (const h of COMPARED_HEADERS) {
    if (method === "OPTIONS" && h === "content-type") continue;
    expect(b.headers[h], `${method} ${path}: ${h}`).toEqual(a.headers[h]);
  }
  expect(b.body.toString("utf8"), `${method} ${path}: body`).toBe(a.body.toString("utf8"));
}

/** A port nothing listens on now (for servers that cannot be told to pick one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}
