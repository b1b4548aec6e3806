// Document GET reads an open range (start without end, end without start); Navigation and
// DELETE do not: their 400s say why, and the Hydra documentation says which does what.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATULLUS, CATULLUS_FILE, doc, nav } from "./helpers/embedded.js";
import { EMBEDDED } from "./helpers/tree.js";
import { errorOf, type WriteTree, writeTree } from "./helpers/write-server.js";

let t: WriteTree;
beforeAll(async () => {
  t = await writeTree();
});
afterAll(async () => {
  await t?.close();
});

describe("open ranges", () => {
  it("Document GET reads start without end, to the last unit of the level", async () => {
    const r = await t.fetch(doc(CATULLUS, "&start=12"));
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('n="13"');
  });

  it("Navigation answers 400 saying it takes no open range, and that the Document endpoint does", async () => {
    const r = await t.fetch(nav(CATULLUS, "&start=1"));
    expect(r.status).toBe(400);
    const { description } = await r.json();
    expect(description).toMatch(
      /only start was given\. Navigation takes no open range; the Document endpoint does \(start without end is an open range/,
    );
  });

  it("DELETE answers 400 saying it takes no open range, and why; the file is untouched", async () => {
    const r = await t.write("DELETE", doc(CATULLUS, "&end=2"));
    expect(r.status).toBe(400);
    expect((await errorOf(r)).description).toMatch(
      /only end was given\. DELETE takes no open range \(GET does\), so that it never removes more than it names/,
    );
    expect(t.file(CATULLUS_FILE)).toBe(readFileSync(join(EMBEDDED, CATULLUS_FILE), "utf8"));
  });

  it("the Hydra documentation says so for Document GET, DELETE and Navigation", async () => {
    const docs = await (await t.fetch("/api/dts/docs")).json();
    const ops = docs.supportedOperations as { method: string; description?: string }[];
    expect(ops.find((o) => o.method === "GET")!.description).toMatch(/start without end is an open range/);
    expect(ops.find((o) => o.method === "DELETE")!.description).toMatch(/needs both start and end: no open range/);
    const nav = docs.supportedClass.find((c: { title: string }) => c.title === "Navigation endpoint");
    expect(nav.supportedOperation[0].description).toMatch(/needs both start and end: no open range \(unlike the Document endpoint's GET/);
  });
});
