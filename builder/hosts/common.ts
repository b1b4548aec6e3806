// What every host's rule generator shares: the build's settings, a buffered file writer, and
// the result it reports (files written, rule counts, warnings against the host's limits).

import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Warning } from "../catalog.js";
import type { Site } from "../site.js";
import { JSONLD_TYPE, TEI_TYPE } from "../wire.js";
import type { Limit } from "./limits.js";

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
  /** The largest write body the upstream accepts (its --max-body), which a proxy must pass. */
  maxBody: number;
}

export interface HostResult {
  host: HostName;
  /** Tree-relative paths of the host files written (rules, scripts, configuration). */
  files: string[];
  /** Their size in bytes: what the host reads as configuration. */
  bytes: number;
  /** Rules written that a host's documented limits count (none grows with the corpus). */
  rules: number;
  /** What the host is handed: its files, the largest, the fullest folder (see TreeFacts). */
  deploy: TreeFacts;
  /** The host's documented limits, with the figure each is checked against. */
  limits: LimitCheck[];
  warnings: Warning[];
}

export interface HostRules {
  /** Writes the host's files into the tree; `facts` counts what it will be handed. */
  finish(facts: (include: (path: string) => boolean) => TreeFacts): HostResult;
}

/** Counts of the files a host is handed (everything but what it is told to leave out). */
export interface TreeFacts {
  files: number;
  /** The largest file, in bytes, and its tree-relative path. */
  largest: { path: string; bytes: number };
  /** The folder with the most files (and subfolders), and how many. */
  fullest: { path: string; files: number };
}

/** A documented limit and the figure it is checked against. */
export interface LimitCheck {
  limit: Limit;
  value: number;
}

/** A host's result, its size on disk counted. */
export function hostResult(
  ctx: HostContext,
  host: HostName,
  files: string[],
  rules: number,
  deploy: TreeFacts | null,
  limits: LimitCheck[],
  warnings: Warning[] = [],
): HostResult {
  const bytes = files.reduce((n, f) => n + (statSync(join(ctx.root, f), { throwIfNoEntry: false })?.size ?? 0), 0);
  return {
    host,
    files,
    bytes,
    rules,
    deploy: deploy ?? { files: 0, largest: { path: "", bytes: 0 }, fullest: { path: "", files: 0 } },
    limits,
    warnings,
  };
}

/** The Content-Type a static host infers from a file's extension, matching the manifests. */
export const TYPE_BY_EXTENSION: Record<string, string> = { xml: TEI_TYPE, json: JSONLD_TYPE };

export function extensionOf(path: string): string {
  return path.slice(path.lastIndexOf(".") + 1);
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

/** The folder of this package (where package.json is), from the compiled or the TypeScript sources alike. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * An import specifier for one of this package's compiled modules (`out/server/x.js`), relative
 * to a generated file in `fromFolder` (absolute). Wrangler and Netlify bundle the generated
 * entry, and resolve `hono` from the package's own node_modules.
 */
export function packageModule(fromFolder: string, compiled: string): string {
  const rel = relative(fromFolder, join(packageRoot(), compiled)).split(sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}
