// The write-only baseline of the build benchmark: the cheapest honest Node program that writes a
// given tree, i.e. the same folders and the same files with the same sizes, with plain
// mkdirSync/writeFileSync and no other work.
//
//   node out/bench/write-baseline.js list --tree <built tree> --list <file>   (not timed)
//   node out/bench/write-baseline.js write --list <file> --out <new folder>   (timed by the caller)
//
// The list is a text file: a first line `M <largest size>`, then in pre-order `D <folder>` lines
// (relative to the root, "" for the root) each followed by its `F <size> <name>` lines.

import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export interface TreeListing {
  dirs: number;
  files: number;
  bytes: number;
  largest: number;
}

/** Walks `tree` and writes its listing to `listFile`. */
export function listTree(tree: string, listFile: string): TreeListing {
  const root = resolve(tree);
  const stats: TreeListing = { dirs: 0, files: 0, bytes: 0, largest: 0 };
  const tmp = `${listFile}.body`;
  const fd = openSync(tmp, "w");
  let chunk: string[] = [];
  let chunkLength = 0;
  const emit = (line: string): void => {
    chunk.push(line);
    chunkLength += line.length;
    if (chunkLength > 1 << 20) flush();
  };
  const flush = (): void => {
    writeSync(fd, chunk.join(""));
    chunk = [];
    chunkLength = 0;
  };
  const walk = (rel: string): void => {
    const dir = rel ? join(root, rel) : root;
    stats.dirs++;
    emit(`D ${rel}\n`);
    const subdirs: string[] = [];
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) subdirs.push(entry.name);
      else if (entry.isFile()) {
        const size = statSync(join(dir, entry.name)).size;
        stats.files++;
        stats.bytes += size;
        if (size > stats.largest) stats.largest = size;
        emit(`F ${size} ${entry.name}\n`);
      }
    }
    for (const name of subdirs) walk(rel ? `${rel}/${name}` : name);
  };
  walk("");
  flush();
  closeSync(fd);
  // The largest size goes first, so the writer allocates its one buffer before writing.
  const body = readFileSync(tmp);
  const out = openSync(listFile, "w");
  writeSync(out, `M ${stats.largest}\n`);
  writeSync(out, body);
  closeSync(out);
  unlinkSync(tmp);
  return stats;
}

export interface WriteResult {
  dirs: number;
  files: number;
  bytes: number;
  /** Seconds spent in the write loop alone (the process also starts Node and reads the list). */
  seconds: number;
}

/** Writes the tree the listing describes under `out` (which must not exist). */
export function writeFromList(listFile: string, out: string): WriteResult {
  const list = readFileSync(listFile);
  const started = performance.now();
  const result: WriteResult = { dirs: 0, files: 0, bytes: 0, seconds: 0 };
  let pos = list.indexOf(10);
  const largest = Number(list.toString("latin1", 2, pos));
  const content = Buffer.alloc(largest, 0x78);
  const root = resolve(out);
  let dir = root;
  pos++;
  while (pos < list.length) {
    const end = list.indexOf(10, pos);
    const kind = list[pos];
    if (kind === 0x44 /* D */) {
      const rel = list.toString("utf8", pos + 2, end);
      dir = rel ? join(root, rel) : root;
      mkdirSync(dir);
      result.dirs++;
    } else {
      const space = list.indexOf(32, pos + 2);
      const size = Number(list.toString("latin1", pos + 2, space));
      writeFileSync(join(dir, list.toString("utf8", space + 1, end)), content.subarray(0, size));
      result.files++;
      result.bytes += size;
    }
    pos = end + 1;
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [command, ...rest] = process.argv.slice(2);
  const arg = (name: string): string => {
    const i = rest.indexOf(name);
    if (i < 0 || i + 1 >= rest.length) {
      console.error(`write-baseline ${command}: ${name} is required`);
      process.exit(2);
    }
    return rest[i + 1];
  };
  if (command === "list") console.log(JSON.stringify(listTree(arg("--tree"), arg("--list"))));
  else if (command === "write") console.log(JSON.stringify(writeFromList(arg("--list"), arg("--out"))));
  else {
    console.error("usage: write-baseline list --tree <dir> --list <file> | write --list <file> --out <dir>");
    process.exit(2);
  }
}
