// Apache's RewriteMap program (`RewriteMap dts "prg:node dts-map.mjs <tree>"`, written by
// `dts build --target apache`): Apache starts it once, writes one key a line (the raw request
// line, %{THE_REQUEST}) and waits for one answer line. The answer names the stored response's
// file and headers, found with the same lookup as `dts serve` (builder/tree/lookup.ts), or is
// NULL: then the rules hand the request to `dts serve`. So Apache's rules do not grow with
// the corpus.
//
// Apache waits for each answer with a lock held for the whole server: a line without an answer,
// or a crash, hangs every request. So every line gets one answer, whatever it holds.

import { readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Site } from "../../builder/site.js";
import { GENERATION_FILE, SITE_FILE, treePath } from "../../builder/tree/layout.js";
import { lookupStored } from "../../builder/tree/lookup.js";
import { isAlone, isPackingFile } from "../../builder/tree/packed-folder.js";
import { JSONLD_TYPE, TEI_TYPE } from "../../builder/wire.js";
import { Lru } from "../lru.js";

/** What mod_rewrite reads as "no value": the rules then send the request to `dts serve`. */
export const NO_ANSWER = "NULL";

/** The longest request line read (Apache's LimitRequestLine is 8190 by default); longer: NULL. */
const MAX_LINE = 64 * 1024;
/** Manifest and block files kept, bounded by their size (a block holds at most 256 entries). */
const CACHE_BYTES = 32 * 1024 * 1024;
/** Answers kept by request line, bounded by their size (a request line may be long). */
const CACHE_ANSWER_BYTES = 16 * 1024 * 1024;
const GENERATION_CHECK_MS = 1000;

/** The tree as the answer needs it: its settings, its files' text, its files' size. */
export interface MapTree {
  site(): Site | null;
  readBytes(path: string): Uint8Array | null;
  fileSize(path: string): number | null;
}

/** The two types the tree stores, by the word the rules match on (each rule sends one literally). */
function typeWord(type: string): "xml" | "json" | null {
  return type === TEI_TYPE ? "xml" : type === JSONLD_TYPE ? "json" : null;
}

/**
 * The answer to one request line: `<xml|json> <tree-relative file> <etag> <link>` (the link
 * last: it holds spaces) when Apache can send the file as it is, else NULL.
 */
export function answerRequestLine(line: string, tree: MapTree): string {
  // Printable ASCII only, as nginx's reader: other bytes are for dts serve to judge.
  if (!/^[\x20-\x7e]*$/.test(line)) return NO_ANSWER;
  const parts = line.split(" ");
  if (parts.length !== 3) return NO_ANSWER;
  const [method, target, version] = parts;
  if ((method !== "GET" && method !== "HEAD") || !/^HTTP\/\d(\.\d)?$/.test(version) || !target.startsWith("/")) return NO_ANSWER;
  const site = tree.site();
  if (site === null) return NO_ANSWER;
  const q = target.indexOf("?");
  const found = lookupStored(q < 0 ? target : target.slice(0, q), q < 0 ? "" : target.slice(q), site, (path) => tree.readBytes(path));
  if (found === null) return NO_ANSWER;
  const { folder, entry } = found;
  const type = typeWord(entry.type);
  // Apache sends whole files with a 200: a body packed with others, or another status, is dts serve's.
  if (entry.status !== 200 || type === null || entry.offset !== 0 || !isPackingFile(entry.file)) return NO_ANSWER;
  const file = treePath(folder, entry.file);
  const size = tree.fileSize(file);
  if (size === null || !isAlone(entry, size)) return NO_ANSWER;
  // The answer is split on spaces and copied into headers: nothing else may hold a space or a control character.
  if (!/^"[\x21\x23-\x7e]*"$/.test(entry.etag) || !/^[\x20-\x7e]+$/.test(entry.link)) return NO_ANSWER;
  return `${type} ${file} ${entry.etag} ${entry.link}`;
}

/**
 * The answers for the tree at `root`, kept in memory with the manifests they read (both
 * bounded) until the tree's generation changes (a build or a write: looked at once a second,
 * as `dts serve` does). A kept answer is not checked again: its file is named by a hash of its
 * content and never rewritten, and the rules look that it is still there before sending it.
 */
export function diskMapAnswers(root: string): { site(): Site | null; answer(line: string): string } {
  const files = new Lru<{ bytes: Uint8Array | null }>(CACHE_BYTES, (key, v) => key.length * 2 + (v.bytes?.length ?? 0) + 64);
  const answers = new Lru<string>(CACHE_ANSWER_BYTES, (key, v) => (key.length + v.length) * 2 + 64);
  let site: Site | null | undefined;
  let generation: string | null = null;
  let checkedAt = 0;
  const read = (path: string): Buffer | null => {
    try {
      return readFileSync(join(root, path));
    } catch {
      return null;
    }
  };
  const refresh = (): void => {
    const now = Date.now();
    if (now - checkedAt < GENERATION_CHECK_MS) return;
    checkedAt = now;
    const current = read(GENERATION_FILE)?.toString("utf8") ?? null;
    if (current !== generation) {
      files.clear();
      answers.clear();
      site = undefined;
    }
    generation = current;
  };
  const tree: MapTree = {
    site(): Site | null {
      refresh();
      if (site === undefined) site = parseSite(read(SITE_FILE)?.toString("utf8") ?? null);
      return site;
    },
    readBytes(path: string): Uint8Array | null {
      let cached = files.get(path);
      if (cached === undefined) files.set(path, (cached = { bytes: read(path) }));
      return cached.bytes;
    },
    fileSize(path: string): number | null {
      try {
        const info = statSync(join(root, path));
        return info.isFile() ? info.size : null;
      } catch {
        return null;
      }
    },
  };
  return {
    site: () => tree.site(),
    answer(line: string): string {
      refresh();
      let answer = answers.get(line);
      if (answer === undefined) answers.set(line, (answer = answerRequestLine(line, tree)));
      return answer;
    },
  };
}

function parseSite(text: string | null): Site | null {
  try {
    const site = JSON.parse(text ?? "") as Partial<Site> | null;
    return site && typeof site.basePath === "string" ? (site as Site) : null;
  } catch {
    return null;
  }
}

/** Writes a whole line to stdout now (Apache reads it before it writes the next key). */
function reply(line: string): void {
  const bytes = Buffer.from(`${line}\n`, "latin1");
  let done = 0;
  while (done < bytes.length) {
    try {
      done += writeSync(1, bytes, done);
    } catch (e) {
      // Apache gone (EPIPE): nothing is waiting any more.
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") process.exit(0);
    }
  }
}

/** Reads keys from stdin and answers each on stdout, in order, until Apache closes the pipe. */
export function runApacheMap(root: string | undefined): void {
  const tree = root ? diskMapAnswers(root) : null;
  if (tree === null || tree.site() === null) {
    process.stderr.write(`dts apache map: no ${SITE_FILE} in ${root ?? "(no tree given)"}: every request goes to dts serve\n`);
  }
  let pending = "";
  let overlong = false;
  process.stdin.on("data", (chunk: Buffer) => {
    // latin1: one character a byte, so a non-ASCII byte stays one the answer can refuse.
    pending += chunk.toString("latin1");
    for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
      const line = pending.slice(0, nl).replace(/\r$/, "");
      pending = pending.slice(nl + 1);
      let answer = NO_ANSWER;
      try {
        if (!overlong && tree !== null) answer = tree.answer(line);
      } catch {
        answer = NO_ANSWER;
      }
      overlong = false;
      reply(answer);
    }
    if (pending.length > MAX_LINE) {
      pending = "";
      overlong = true;
    }
  });
  process.stdin.on("end", () => process.exit(0));
  process.stdin.on("error", () => process.exit(0));
}
