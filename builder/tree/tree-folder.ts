// Where a build may write its tree. A build replaces its output folder wholesale, so before
// anything is touched it checks that the folder is one an earlier build made (it holds the
// tree record), or is empty, or does not exist yet, and that it neither is, holds, nor lies
// inside the corpus. Anything else is refused with what is there and how to proceed: one
// mistyped `--out` must never cost an edition its files.

import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { DtsError } from "../error.js";
import { readJsonOr } from "../read-files.js";

/** Root record of a tree: the settings and output version it was built with. Its presence marks a folder as a tree. */
export const TREE_RECORD = "_tree.json";

/** A build's output folder was refused: nothing was written or removed. */
export class TreeFolderError extends DtsError {
  constructor(description: string) {
    super(409, description);
  }
}

export interface TreeFolder {
  /** The folder, with symbolic links resolved, so the swap replaces the real folder. */
  path: string;
  state: "tree" | "empty" | "absent";
}

/**
 * Checks that a build may replace `out` (as the user gave it) with a tree of `corpus`.
 * Throws TreeFolderError, before touching anything, when it may not.
 */
export function checkTreeFolder(corpus: string, out: string): TreeFolder {
  const path = realPath(out);
  const source = realPath(corpus);
  if (path === source)
    throw refusal(
      `the output folder ${out} is the corpus folder: building there would replace the TEI sources. Choose another output folder (for example dist).`,
    );
  if (isInside(path, source))
    throw refusal(
      `the output folder ${out} is inside the corpus ${corpus}: the tree would be read as part of the corpus, and building there risks its files. Choose an output folder outside the corpus.`,
    );
  if (isInside(source, path))
    throw refusal(
      `the output folder ${out} contains the corpus ${corpus}: a build replaces its output folder, so the corpus would be deleted. Choose an output folder that does not contain the corpus.`,
    );
  // The staging and set-aside siblings of the tree (`dist.building-…`, `dist.old-…`) are removed too.
  const sibling = relative(dirname(path), source).split(sep)[0];
  if (sibling.startsWith(`${basename(path)}.building-`) || sibling.startsWith(`${basename(path)}.old-`)) {
    throw refusal(
      `the corpus ${corpus} is in a folder named like the temporary folders a build of ${out} creates and removes (${sibling}). Rename the corpus folder or choose another output folder.`,
    );
  }
  if (!existsSync(path)) return { path, state: "absent" };
  if (!statSync(path).isDirectory())
    throw refusal(`the output folder ${out} is a file: a build writes a folder of responses there. Choose another output folder.`);
  const entries = readdirSync(path);
  if (entries.length === 0) return { path, state: "empty" };
  if (isTree(path)) return { path, state: "tree" };
  const shown = entries.slice(0, 5).join(", ") + (entries.length > 5 ? `, and ${entries.length - 5} more` : "");
  throw refusal(
    `the output folder ${out} was not made by dts build (it holds ${shown}; no ${TREE_RECORD}). A build replaces its output folder, so it only writes into an empty folder or a tree an earlier build made. Choose another output folder, or empty ${out} yourself if its files can go.`,
  );
}

/** A folder holding the record a build writes first into every tree it makes. */
export function isTree(folder: string): boolean {
  const record = readJsonOr<{ outputVersion?: unknown }>(join(folder, TREE_RECORD));
  return typeof record?.outputVersion === "number";
}

/**
 * A new, empty staging folder beside `out`, named so that no existing folder is reused (a
 * user's folder that happens to carry the name is never emptied). Stale ones left by a build
 * that was killed are removed when they hold a tree record and their process is gone.
 */
export function makeStaging(out: string): string {
  mkdirSync(dirname(out), { recursive: true });
  removeStaleSiblings(out);
  const staging = `${out}.building-${process.pid}-${randomBytes(4).toString("hex")}`;
  mkdirSync(staging);
  return staging;
}

/** Replaces the tree folder `out` (a tree, an empty folder, or nothing) with `staging`, then removes the old tree. */
export function swapInto(staging: string, out: string): void {
  const old = `${out}.old-${process.pid}-${randomBytes(4).toString("hex")}`;
  // Checked again at the last moment: the folder may have changed while the tree was built.
  if (existsSync(out)) {
    if (!isTree(out) && readdirSync(out).length > 0) {
      throw refusal(`${out} was changed while the tree was built and is no longer a tree or empty: the new tree is left in ${staging}.`);
    }
    renameSync(out, old);
  }
  renameSync(staging, out);
  rmSync(old, { recursive: true, force: true });
}

function removeStaleSiblings(out: string): void {
  const prefix = basename(out);
  for (const name of readdirSync(dirname(out))) {
    const m = new RegExp(`^${escapeRegExp(prefix)}\\.(?:building|old)-(\\d+)(?:-[0-9a-f]+)?$`).exec(name);
    if (!m || isAlive(Number(m[1]))) continue;
    const folder = join(dirname(out), name);
    if (lstatSync(folder).isDirectory() && (isTree(folder) || readdirSync(folder).length === 0))
      rmSync(folder, { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The absolute path with every symbolic link resolved, as far as the path exists. */
function realPath(path: string): string {
  const absolute = resolve(path);
  let existing = absolute;
  const rest: string[] = [];
  while (!existsSync(existing) && dirname(existing) !== existing) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  return join(realpathSync(existing), ...rest);
}

const isInside = (inner: string, outer: string): boolean => inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const refusal = (message: string): TreeFolderError => new TreeFolderError(`refused, nothing was changed: ${message}`);
