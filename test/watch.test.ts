// `dts watch`, as users run it (the compiled CLI): edits made to the corpus by any program
// are rebuilt into the tree, debounced, with a line saying what was rebuilt.

import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentFolder, encodeName } from "../builder/tree/layout.js";
import { CATULLUS, CATULLUS_FILE } from "./helpers/embedded.js";
import { EMBEDDED, PROJECT, storedText } from "./helpers/tree.js";

const DTS = join(PROJECT, "bin/dts.js");

let work: string;
let corpus: string;
let dist: string;
let child: ChildProcess;
let output = "";

/** Waits until the output (from `from` on) matches. */
async function waitFor(pattern: RegExp, from = 0, ms = 30_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const m = pattern.exec(output.slice(from));
    if (m) return m[0];
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${pattern}; output:\n${output}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "dts-watch-"));
  corpus = join(work, "corpus");
  dist = join(work, "dist");
  cpSync(EMBEDDED, corpus, { recursive: true });
  child = spawn(process.execPath, [DTS, "watch", "--corpus", corpus, "--out", dist, "--debounce", "150"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  await waitFor(/dts watch: watching/);
});

afterAll(async () => {
  child?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
});

describe("dts watch", () => {
  it("builds the corpus first and says so", () => {
    expect(output).toMatch(/dts watch: built .* 6 documents/);
  });

  it("rebuilds a document edited with plain writeFileSync, and prints what it rebuilt", async () => {
    const from = output.length;
    const file = join(corpus, CATULLUS_FILE);
    writeFileSync(file, readFileSync(file, "utf8").replace(`<l n="1">Vivamus`, `<l n="1">VIVAMUS`));
    const line = await waitFor(new RegExp(`dts watch: rebuilt ${CATULLUS.replace(/\./g, "\\.")}: .*`), from);
    expect(line).toMatch(/\d+ files? written \(changed passages only\)/);
    expect(storedText(dist, `${documentFolder(CATULLUS)}/r.1.xml`), output).toContain("VIVAMUS");
  });

  it("debounces a burst of saves into one rebuild", async () => {
    const from = output.length;
    const file = join(corpus, CATULLUS_FILE);
    for (let k = 0; k < 5; k++) {
      writeFileSync(file, readFileSync(file, "utf8").replace(/<l n="2">[^<]*<\/l>/, `<l n="2">burst ${k}</l>`));
      await new Promise((r) => setTimeout(r, 20));
    }
    await waitFor(/rebuilt urn:cts:latinLit:phi0472/, from);
    await new Promise((r) => setTimeout(r, 600));
    expect(output.slice(from).match(/rebuilt urn:cts:latinLit:phi0472/g)).toHaveLength(1);
    expect(storedText(dist, `${documentFolder(CATULLUS)}/r.2.xml`)).toContain("burst 4");
  });

  it("rebuilds the catalogue when a metadata file changes", async () => {
    const from = output.length;
    const file = join(corpus, "latin/collection.json");
    const meta = JSON.parse(readFileSync(file, "utf8"));
    meta.title = "Latin texts, renamed";
    writeFileSync(file, JSON.stringify(meta, null, 2));
    await waitFor(/dts watch: rebuilt the corpus \(latin\/collection\.json changed\)/, from);
    const children = JSON.parse(storedText(dist, "collection/urn_3adts_3asample_3alatin/children.json")!);
    expect(children.title).toBe("Latin texts, renamed");
  });

  it("reloads the catalogue when a document's teiHeader changes", async () => {
    const from = output.length;
    const file = join(corpus, CATULLUS_FILE);
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        '<title xml:lang="lat">Carmen V (Vivamus, mea Lesbia)</title>',
        '<title xml:lang="lat">Carmen quintum</title>',
      ),
    );
    await waitFor(/teiHeader changed in urn:cts:latinLit:phi0472\.phi005\.sample-lat1: reloading the catalogue/, from);
    await waitFor(/dts watch: rebuilt the corpus/, from);
    const record = JSON.parse(storedText(dist, `collection/${encodeName(CATULLUS)}/children.json`)!);
    expect(record.title).toBe("Carmen quintum");
  });

  it("picks up a new document", async () => {
    const from = output.length;
    writeFileSync(
      join(corpus, "latin/new-poem.xml"),
      `<?xml version="1.0" encoding="UTF-8"?>\n<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>Novum</title></titleStmt><publicationStmt><p>x</p></publicationStmt><sourceDesc><p>x</p></sourceDesc></fileDesc></teiHeader>\n<text><body><l n="1">unus</l></body></text></TEI>\n`,
    );
    await waitFor(/dts watch: rebuilt the corpus \(latin\/new-poem\.xml changed\)/, from);
    expect(storedText(dist, `${documentFolder("latin/new-poem")}/r.1.xml`)).toContain("unus");
  });
});
