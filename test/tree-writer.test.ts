// The tree writer, folder by folder (what a document's build uses so that its answers are not
// all held at once): the same files as a writer that holds every folder until the end, and a
// folder whose answers come in two runs refused rather than written twice (the second write
// would lose the first's entries).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DtsResponse } from "../builder/render/response.js";
import { TreeWriter } from "../builder/tree/tree-writer.js";
import { storedResponses, treeFiles } from "./helpers/tree.js";

const answer = (body: string): DtsResponse => ({ status: 200, type: "application/tei+xml", link: "", body });

/** Passages of two documents' folders, 600 each (more than a block holds). */
const ANSWERS: [string, string][] = ["document/a", "document/b"].flatMap((folder) =>
  Array.from({ length: 600 }, (_, i): [string, string] => [`${folder}/r.${i}.xml`, `<l n="${i}">${folder} ${"verse ".repeat(i % 40)}</l>`]),
);

describe("TreeWriter folder by folder", () => {
  const dirs: string[] = [];
  const fresh = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "dts-writer-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("writes the same files as a writer that holds every folder to the end", () => {
    const held = fresh();
    const byFolder = fresh();
    const all = new TreeWriter(held);
    // Interleaved: the plain writer does not mind the order.
    const interleaved = [...ANSWERS].sort((x, y) => (x[0].split("/").pop()! < y[0].split("/").pop()! ? -1 : 1));
    for (const [path, body] of interleaved) all.writeResponse(path, answer(body));
    all.flush();
    const streaming = new TreeWriter(byFolder, { folderByFolder: true });
    for (const [path, body] of ANSWERS) streaming.writeResponse(path, answer(body));
    const written = streaming.flush();
    expect([...written].sort()).toEqual(["document/a", "document/b"]);
    const a = treeFiles(held);
    const b = treeFiles(byFolder);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [name, bytes] of a) expect(Buffer.from(b.get(name)!).equals(Buffer.from(bytes)), name).toBe(true);
    expect(storedResponses(byFolder, "document/a").size).toBe(600);
  });

  it("refuses a folder whose answers come in two runs", () => {
    const writer = new TreeWriter(fresh(), { folderByFolder: true });
    writer.writeResponse("document/a/r.1.xml", answer("<l/>"));
    writer.writeResponse("document/b/r.1.xml", answer("<l/>"));
    expect(() => writer.writeResponse("document/a/r.2.xml", answer("<l/>"))).toThrow(/document\/a: its responses came in two runs/);
  });
});
