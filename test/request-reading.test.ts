// The request reading every runtime shares (builder/query.ts, readRequest, encodeName's hash),
// written without URLSearchParams or BigInt so that nginx's JavaScript module runs it: checked
// here against what those built-ins give, on awkward and random input.

import { describe, expect, it } from "vitest";
import { firstValue, queryPairs } from "../builder/query.js";
import { readRequest } from "../builder/request.js";
import { makeSite } from "../builder/site.js";
import { fnv1a64 } from "../builder/tree/layout.js";

const utf8 = new TextEncoder();

/** The hash as first written, with BigInt: the names of existing trees depend on it. */
function fnvWithBigInt(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of utf8.encode(text)) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, "0");
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
}

const ALPHABET = [
  "a",
  "Z",
  "0",
  "%",
  "+",
  "&",
  "=",
  "%2",
  "%zz",
  "%41",
  "%e2%82",
  "%ce%b1",
  "%C3%A9",
  "%ef%bb%bf",
  "%ff",
  " ",
  "α",
  "😀",
  "?",
  "#",
  ";",
  "/",
];

describe("queryPairs", () => {
  it("decodes as URLSearchParams does, on awkward and random queries", () => {
    const fixed = [
      "",
      "?",
      "?a",
      "?a=",
      "?=b",
      "?a=1&a=2",
      "?a=%",
      "?a=%2",
      "?a=%zz",
      "?a+b=c+d",
      "?a=%2B",
      "?%ef%bb%bfa=1",
      "?a=%ff%fe",
      "?&&a=1&&",
      "?a==b",
      "?id=urn%3Acts%3Aa",
    ];
    const next = random(7);
    const randomQueries = Array.from({ length: 3000 }, () => {
      let q = "?";
      const n = Math.floor(next() * 12);
      for (let i = 0; i < n; i++) q += ALPHABET[Math.floor(next() * ALPHABET.length)];
      return q;
    });
    for (const search of [...fixed, ...randomQueries]) {
      // dts serve reads url.search, which the URL parser has already escaped (spaces, non-ASCII).
      const url = new URL(`http://x/${search}`);
      expect(queryPairs(url.search), search).toEqual([...new URLSearchParams(url.search)]);
      for (const name of ["a", "id", "a b", "\ufeffa"]) expect(firstValue(queryPairs(url.search), name)).toBe(url.searchParams.get(name));
    }
  });
});

describe("readRequest", () => {
  it("gives plain data for a refusal (no classes: nginx's module runs this)", () => {
    const refusal = readRequest("/api/dts/collection", "?nav=siblings", makeSite());
    expect(Object.getPrototypeOf(refusal)).toBe(Object.prototype);
    expect(refusal).toMatchObject({ kind: "bad", endpoint: "collection", status: 400 });
  });
});

describe("fnv1a64", () => {
  it("gives the hash the BigInt version gave, for random text", () => {
    const next = random(11);
    for (let i = 0; i < 5000; i++) {
      let s = "";
      const n = Math.floor(next() * 200);
      for (let j = 0; j < n; j++) s += String.fromCharCode(Math.floor(next() * (j % 3 ? 0x80 : 0xd7ff)));
      expect(fnv1a64(s)).toBe(fnvWithBigInt(s));
    }
  });
});
