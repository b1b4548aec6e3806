// Writes on a tree that serves DTS 1.0 too: a PUT, a DELETE and a POST through the 1-draft2
// write API change the 1.0 answers (stored, static-profile files, computed) at once, and the
// static files of passages that went away go with them.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSite } from "../builder/site.js";
import { CATULLUS, doc } from "./helpers/embedded.js";
import { fragment, type WriteTree, writeTree } from "./helpers/write-server.js";

const v1doc = (ref: string): string => `/api/dts/v1/document?resource=${encodeURIComponent(CATULLUS)}&ref=${encodeURIComponent(ref)}`;
const v1nav = (query: string): string => `/api/dts/v1/navigation?resource=${encodeURIComponent(CATULLUS)}&${query}`;
/** The static profile's file of a passage, and of its Navigation with down=1. */
const passageFile = (t: WriteTree, ref: string): string => join(t.dist, `api/dts/v1/document/${CATULLUS}/${ref}.tei`);
const navFile = (t: WriteTree, ref: string): string => join(t.dist, `api/dts/v1/navigation/${CATULLUS};down=1/${ref}.jsonld`);

describe("writes on a tree with DTS 1.0 and its static profile", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree({ site: makeSite({ apis: ["1-draft2", "1.0"], staticPaths: true }) });
  });
  afterAll(() => t.close());

  it("a PUT changes the 1.0 passage on dts serve and in its static file", async () => {
    const line = `<l n="2">rumoresque senum SEVERIORUM</l>`;
    expect((await t.write("PUT", doc(CATULLUS, "&ref=2"), fragment(line))).status).toBe(200);
    expect(await (await t.fetch(v1doc("2"))).text()).toContain(`<dts:wrapper xmlns:dts="https://w3id.org/api/dts#">${line}</dts:wrapper>`);
    expect(readFileSync(passageFile(t, "2"), "utf8")).toContain(line);
  });

  it("a DELETE removes the passage's static files and its unit from Navigation", async () => {
    expect(existsSync(passageFile(t, "13"))).toBe(true);
    expect(existsSync(navFile(t, "13"))).toBe(true);
    expect((await t.write("DELETE", doc(CATULLUS, "&ref=13"))).status).toBe(200);
    expect(existsSync(passageFile(t, "13"))).toBe(false);
    expect(existsSync(navFile(t, "13"))).toBe(false);
    expect((await t.fetch(v1doc("13"))).status).toBe(404);
    const all = (await (await t.fetch(v1nav("down=-1"))).json()).member.map((u: { identifier: string }) => u.identifier);
    expect(all).not.toContain("13");
    expect(all).toContain("12");
  });

  it("a POST adds the passage's static files", async () => {
    const line = `<l n="13">cum tantum sciat esse basiorum.</l>`;
    expect((await t.write("POST", doc(CATULLUS, "&after=12"), fragment(line))).status).toBe(201);
    expect(readFileSync(passageFile(t, "13"), "utf8")).toContain(line);
    expect(JSON.parse(readFileSync(navFile(t, "13"), "utf8")).member.map((u: { identifier: string }) => u.identifier)).toEqual(["13"]);
  });
});
