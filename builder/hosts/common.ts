// What every host's rule generator shares: the build's settings, a buffered file writer, and
// the result it reports (files written, rule counts, warnings against the host's limits).

import { closeSync, existsSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Warning } from "../catalog.js";
import type { Site } from "../site.js";
import { JSONLD_TYPE, TEI_TYPE } from "../wire.js";
import type { StoredEntry } from "./stored.js";

export const HOSTS = ["nginx", "apache", "netlify", "cloudflare"] as const;
export type HostName = (typeof HOSTS)[number];

/** Where host files go, inside the tree (the Netlify and Apache files must sit at its root). */
export const HOSTS_FOLDER = "_hosts";

export interface HostContext {
  /** Where the tree is being written now (a staging folder, or the tree itself). */
  root: string;
  /** The absolute path the tree will have when the build is done (rules that name it use this). */
  out: string;
  site: Site;
  /** The `dts serve` that answers what the tree does not hold, for hosts that proxy to it. */
  upstream: string;
  /** True when `.gz` and `.br` siblings were written. */
  compressed: boolean;
  /** The largest write body the upstream accepts (its --max-body), which a proxy must pass. */
  maxBody: number;
}

export interface HostResult {
  host: HostName;
  /** Tree-relative paths of the files written. */
  files: string[];
  /** Stored responses the rules serve statically. */
  served: number;
  /** Rules written (what the host's documented limits count). */
  rules: number;
  warnings: Warning[];
}

export interface HostRules {
  add(entry: StoredEntry): void;
  /** Writes what remains; `tree` describes the finished tree, for hosts with limits. */
  finish(tree: TreeFacts): HostResult;
}

/** Counts of the whole tree, for the hosts whose limits count files and sizes. */
export interface TreeFacts {
  /** Files in the tree (responses, data files, siblings and rules), by top-level name. */
  files: number;
  /** Files that are not host rules nor precompressed siblings (what a CDN host uploads). */
  uploaded: number;
  /** The largest file, in bytes, and its tree-relative path. */
  largest: { path: string; bytes: number };
  /** The folder with the most files, and how many. */
  fullest: { path: string; files: number };
}

/** The Content-Type a static host infers from a file's extension, matching the manifests. */
export const TYPE_BY_EXTENSION: Record<string, string> = { xml: TEI_TYPE, json: JSONLD_TYPE };

export function extensionOf(path: string): string {
  return path.slice(path.lastIndexOf(".") + 1);
}

/** True when a host that types by extension gives the file the type its manifest records. */
export function typedByExtension(entry: StoredEntry): boolean {
  return TYPE_BY_EXTENSION[extensionOf(entry.path)] === entry.entry.type;
}

/** Writes a text file in large chunks, for rule files of hundreds of megabytes. */
export class TextSink {
  private readonly fd: number;
  private chunks: string[] = [];
  private size = 0;
  bytes = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, "w");
  }

  write(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    if (this.size > 1 << 20) this.flush();
  }

  private flush(): void {
    if (!this.chunks.length) return;
    const data = Buffer.from(this.chunks.join(""), "utf8");
    writeSync(this.fd, data);
    this.bytes += data.length;
    this.chunks = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** `text` as a literal inside a regular expression (PCRE, as nginx and Apache use). */
export function regexLiteral(text: string): string {
  return text.replace(/[.^$*+?()[\]{}|\\/]/g, "\\$&");
}

export function warning(file: string, message: string): Warning {
  return { file, message };
}

/**
 * An import specifier for one of this package's compiled modules (`out/server/x.js`), relative
 * to a generated file in `fromFolder` (absolute). Wrangler and Netlify bundle the generated
 * entry, and resolve `hono` from the package's own node_modules.
 */
export function packageModule(fromFolder: string, compiled: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  const rel = relative(fromFolder, join(dir, compiled)).split(sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}
