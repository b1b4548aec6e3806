// One recursive listing of the corpus, so the loaders can check file existence with a Set lookup
// instead of one fs.stat per record (latinLit has hundreds of records).
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";

export const CTS_FILE = "__cts__.xml";
export const CAPITAINS_FILE = "__capitains__.xml";
/** How many files the loaders read at once. */
export const OPEN_FILES = 64;

/** Folders never part of a corpus: tooling and version-control folders. */
function skippedFolder(name: string): boolean {
  return name === "node_modules" || name.startsWith(".");
}

/**
 * A file, or a link to one: a corpus may link in texts kept elsewhere. Linked folders are not
 * followed, so a link to an ancestor cannot make a walk loop.
 */
export async function isCorpusFile(entry: Dirent, path: string): Promise<boolean> {
  if (!entry.isSymbolicLink()) return entry.isFile();
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/** Absolute paths of every file under `dir`, sorted, skipping node_modules and dot-folders. */
export async function listCorpusFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  await walk(dir, out);
  return out.sort();
}

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  const subdirs: Promise<void>[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedFolder(entry.name)) subdirs.push(walk(path, out));
    } else if (await isCorpusFile(entry, path)) {
      out.push(path);
    }
  }
  await Promise.all(subdirs);
}

/** True when the file is a CapiTainS metadata file (either format). */
export function isMetadataFile(path: string): boolean {
  const name = basename(path);
  return name === CTS_FILE || name === CAPITAINS_FILE;
}

/**
 * Maps `fn` over `items` with at most `limit` calls in flight, keeping the order of results.
 * Reading thousands of files at once would run out of file descriptors (EMFILE).
 */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The temporary file an atomic write of a corpus file uses (hidden, so loaders and watchers skip it). */
export function temporaryName(name: string, unique: string): string {
  return `.${name}.dts-${unique}.tmp`;
}

/** True for a temporary file of an atomic write, which a crash may have left. */
export function isTemporary(file: string): boolean {
  return /^\..*\.dts-[0-9a-f]+\.tmp$/.test(basename(file));
}
