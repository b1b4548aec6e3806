// `dts build --compress`: a `.gz` and a `.br` sibling for each stored response above a size
// threshold that is alone in its file (packed-folder.ts: large bodies are), so readers send
// compressed bytes without compressing on every request. A sibling is kept only when it saves
// space; pack files are never rewritten (a new version gets a new name), so an existing
// sibling is current.

import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { readFolder } from "../tree/folder-store.js";
import { MANIFEST, SIBLING_SUFFIX, treePath } from "../tree/layout.js";
import { isAlone } from "../tree/packed-folder.js";
import { HOSTS_FOLDER } from "./common.js";

/** Smaller responses gain little, and cost a file each. */
export const COMPRESS_THRESHOLD = 1024;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export interface CompressReport {
  /** Responses that got siblings. */
  files: number;
  bytesBefore: number;
  bytesAfter: number;
}

function* manifestFolders(root: string, folder = ""): Generator<string> {
  const entries = readdirSync(join(root, folder), { withFileTypes: true });
  if (entries.some((e) => e.isFile() && e.name === MANIFEST)) yield folder;
  for (const e of entries) {
    if (e.isDirectory() && !(folder === "" && e.name === HOSTS_FOLDER)) yield* manifestFolders(root, treePath(folder, e.name));
  }
}

export async function precompressTree(root: string, threshold = COMPRESS_THRESHOLD): Promise<CompressReport> {
  const report: CompressReport = { files: 0, bytesBefore: 0, bytesAfter: 0 };
  const jobs: string[] = [];
  for (const folder of manifestFolders(root)) {
    for (const entry of Object.values(readFolder(root, folder)?.entries ?? {})) {
      if (entry.offset !== 0 || entry.length < threshold) continue;
      const path = treePath(folder, entry.file);
      if (isAlone(entry, statSync(join(root, path), { throwIfNoEntry: false })?.size ?? -1)) jobs.push(path);
    }
  }
  // zlib's asynchronous calls run on libuv's thread pool: a few at a time use the cores.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const path = join(root, jobs[next++]);
      let info: ReturnType<typeof statSync>;
      try {
        info = statSync(path);
      } catch {
        continue;
      }
      if (info.size < threshold) {
        removeSiblings(path);
        continue;
      }
      if (fresh(path + SIBLING_SUFFIX.gzip, info.mtimeMs) && fresh(path + SIBLING_SUFFIX.br, info.mtimeMs)) continue;
      const body = readFileSync(path);
      const [gz, br] = await Promise.all([
        gzipAsync(body, { level: 9 }),
        brotliAsync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 9,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
      ]);
      let kept = false;
      for (const [suffix, data] of [
        [SIBLING_SUFFIX.gzip, gz],
        [SIBLING_SUFFIX.br, br],
      ] as const) {
        if (data.length < body.length * 0.9) {
          writeFileSync(path + suffix, data);
          kept = true;
          report.bytesAfter += data.length;
        } else {
          removeSiblings(path, suffix);
        }
      }
      if (kept) {
        report.files++;
        report.bytesBefore += body.length;
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return report;
}

function fresh(sibling: string, mtimeMs: number): boolean {
  try {
    return statSync(sibling).mtimeMs >= mtimeMs;
  } catch {
    return false;
  }
}

function removeSiblings(path: string, ...suffixes: string[]): void {
  for (const suffix of suffixes.length ? suffixes : Object.values(SIBLING_SUFFIX)) {
    try {
      unlinkSync(path + suffix);
    } catch {
      // none there
    }
  }
}
