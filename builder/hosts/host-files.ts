// After the tree is written: precompressed siblings (`--compress`) and the rules of each host
// asked for (`--target`). Everything is read back from the tree, so the same step serves a full
// build and an in-place one.

import { existsSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Warning } from "../catalog.js";
import { contextIsRelative, type Site } from "../site.js";
import { SIBLING_SUFFIX, splitTreePath } from "../tree/layout.js";
import { DEFAULT_MAX_BODY } from "../wire.js";
import { ApacheRules, HTACCESS } from "./apache.js";
import { CloudflareRules } from "./cloudflare.js";
import { HOSTS, HOSTS_FOLDER, type HostContext, type HostName, type HostResult, type HostRules, type TreeFacts } from "./common.js";
import { NetlifyRules } from "./netlify.js";
import { NginxRules } from "./nginx.js";
import { type CompressReport, precompressTree } from "./precompress.js";

export { HOSTS, type HostName, type HostResult } from "./common.js";

export const DEFAULT_UPSTREAM = "http://127.0.0.1:8080";
/** The host options a tree was built with, kept for the builds that name none. */
export const HOST_OPTIONS_FILE = "_hosts.json";
/** Written by --compress, so that a later build without it removes the siblings. */
const COMPRESSED_MARK = "_compressed.json";

export interface HostOptions {
  hosts?: HostName[];
  compress?: boolean;
  /** The `dts serve` that nginx and Apache send dynamic requests to. */
  upstream?: string;
  /** That server's --max-body, when not the default: the proxy passes bodies up to it. */
  maxBody?: number;
}

export interface HostReport {
  hosts: HostResult[];
  compressed?: CompressReport;
  warnings: Warning[];
}

/** Reads `--target` values: names, repeated or comma-separated, `all`, or `none` (no rules). */
export function parseHosts(values: string[]): HostName[] {
  const out = new Set<HostName>();
  for (const value of values.flatMap((v) => v.split(","))) {
    const name = value.trim().toLowerCase();
    if (name === "none") continue;
    if (name === "all") for (const h of HOSTS) out.add(h);
    else if ((HOSTS as readonly string[]).includes(name)) out.add(name as HostName);
    else throw new Error(`unknown host "${value}": use ${HOSTS.join(", ")}, all or none`);
  }
  return [...out];
}

const MAKERS: Record<HostName, (ctx: HostContext) => HostRules> = {
  nginx: (ctx) => new NginxRules(ctx),
  apache: (ctx) => new ApacheRules(ctx),
  netlify: (ctx) => new NetlifyRules(ctx),
  cloudflare: (ctx) => new CloudflareRules(ctx),
};

/**
 * Writes siblings and host rules into the tree at `root` (the staging folder, or the tree
 * itself for an in-place build); `out` is where the tree will live, for rules that name it.
 */
export async function writeHostFiles(root: string, out: string, site: Site, options: HostOptions): Promise<HostReport> {
  removeHostFiles(root);
  const report: HostReport = { hosts: [], warnings: [] };
  if (options.compress) {
    report.compressed = await precompressTree(root);
    writeFileSync(join(root, COMPRESSED_MARK), JSON.stringify({ suffixes: Object.values(SIBLING_SUFFIX) }));
  } else if (existsSync(join(root, COMPRESSED_MARK))) {
    // Siblings of an earlier build would be older than files rewritten since: remove them all.
    walk(root, (path) => {
      if (Object.values(SIBLING_SUFFIX).some((s) => path.endsWith(s))) unlinkSync(join(root, path));
    });
    unlinkSync(join(root, COMPRESSED_MARK));
  }
  const hosts = options.hosts ?? [];
  if (!hosts.length) return report;
  const ctx: HostContext = {
    root,
    out,
    site,
    upstream: options.upstream ?? DEFAULT_UPSTREAM,
    maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
  };
  for (const host of hosts) {
    const result = MAKERS[host](ctx).finish((include) => treeFacts(root, include));
    report.hosts.push(result);
    report.warnings.push(...result.warnings);
  }
  // nginx and Apache send stored answers as they are: a root-relative context stays so.
  const asStored = hosts.filter((h) => h === "nginx" || h === "apache");
  if (asStored.length && contextIsRelative(site)) {
    report.warnings.push({
      file: out,
      message:
        `${asStored.join(" and ")} will send JSON-LD answers naming their context root-relative (${site.context}), ` +
        "which JSON-LD processors cannot load; build with --site-url <the public URL> (dts serve, the Worker and the Netlify function complete it themselves)",
    });
  }
  return report;
}

/** Removes the host files of an earlier build (an in-place build keeps the tree). */
function removeHostFiles(root: string): void {
  rmSync(join(root, HOSTS_FOLDER), { recursive: true, force: true });
  for (const name of ["_headers", "_redirects", ".assetsignore"]) rmSync(join(root, name), { force: true });
  if (existsSync(join(root, HTACCESS))) {
    walk(root, (path) => {
      if (path === HTACCESS || path.endsWith(`/${HTACCESS}`)) unlinkSync(join(root, path));
    });
  }
}

function walk(root: string, visit: (path: string, size: () => number) => void, folder = ""): void {
  for (const e of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = folder ? `${folder}/${e.name}` : e.name;
    if (e.isDirectory()) walk(root, visit, path);
    else visit(path, () => statSync(join(root, path)).size);
  }
}

/** Counts the files of the tree that `include` keeps (tree-relative paths), its largest file and its fullest folder. */
export function treeFacts(root: string, include: (path: string) => boolean): TreeFacts {
  const facts: TreeFacts = { files: 0, largest: { path: "", bytes: 0 }, fullest: { path: "", files: 0 } };
  const perFolder = new Map<string, number>();
  const count = (folder: string): void => void perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
  // A folder holds its files and its subfolders (what a host counting entries per folder counts).
  const seen = new Set<string>();
  const addFolder = (folder: string): void => {
    if (folder === "" || seen.has(folder)) return;
    seen.add(folder);
    const parent = splitTreePath(folder).folder;
    count(parent);
    addFolder(parent);
  };
  walk(root, (path, size) => {
    if (!include(path)) return;
    facts.files++;
    const { folder } = splitTreePath(path);
    count(folder);
    addFolder(folder);
    const bytes = size();
    if (bytes > facts.largest.bytes) facts.largest = { path, bytes };
  });
  for (const [path, files] of perFolder) if (files > facts.fullest.files) facts.fullest = { path, files };
  return facts;
}
