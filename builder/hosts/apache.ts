// Apache rules: `.htaccess` files (mod_rewrite on %{QUERY_STRING}, mod_headers, mod_proxy for
// what the tree does not hold). Serve the tree at the API's base path (`Alias /api/dts
// /srv/dist`, or the tree copied there) with `AllowOverride All`.
//
// Apache cannot decode a query either, so, as for nginx, the rules list each stored request's
// spellings (queries.ts) and compare them with `=` (exact, case-sensitive): nothing from the
// request is captured into a path, so nothing can escape the tree. To keep each .htaccess
// small (Apache reads it on every request), the root file routes by endpoint and id to the
// id's folder, whose own .htaccess maps the whole query to a file and sets its Link header.
// Everything else, including direct requests for the tree's files, goes to `dts serve`.

import { join } from "node:path";
import type { DtsRequest } from "../request.js";
import { splitTreePath } from "../tree/layout.js";
import { CORS_HEADERS, STATIC_CACHE_CONTROL } from "../wire.js";
import {
  type HostContext,
  type HostResult,
  type HostRules,
  regexLiteral,
  TextSink,
  TYPE_BY_EXTENSION,
  typedByExtension,
} from "./common.js";
import { requestTargets, valueSpellings } from "./queries.js";
import type { StoredEntry } from "./stored.js";

export const HTACCESS = ".htaccess";
/** The name the root file rewrites to inside an id's folder; no file has it. */
const HOP = "_q";
/** Marks a response served from the tree, for the headers only those get. */
const STATIC_ENV = "DTS_STATIC";
/**
 * A per-directory rewrite is an internal redirect, which renames the variable it set (but a
 * rewrite to the same path, `context.json`, is none): either name marks a stored response.
 */
const IF_STATIC = `"expr=-n %{reqenv:REDIRECT_${STATIC_ENV}} || -n %{reqenv:${STATIC_ENV}}"`;

/** An Apache config string in double quotes, or null when it cannot be one. */
export function apacheString(text: string): string | null {
  if (/[\x00-\x1f\x7f\\]/.test(text)) return null;
  return `"${text.replace(/"/g, '\\"')}"`;
}

/** A mod_headers value: `%` starts a format tag, so a literal one is `%%`. */
function headerValue(text: string): string | null {
  return apacheString(text.replace(/%/g, "%%"));
}

const endpointPath = (req: DtsRequest): string =>
  req.kind === "entry" ? "" : req.kind === "docs" ? "docs" : req.kind === "context" ? "context.json" : req.kind;

interface Folder {
  rules: string[];
  files: string[];
}

export class ApacheRules implements HostRules {
  private readonly folders = new Map<string, Folder>();
  private readonly root: string[] = [];
  private readonly routed = new Set<string>();
  private written: string[] = [];
  private served = 0;
  private rules = 0;
  private largest = { path: "", bytes: 0 };

  constructor(private readonly ctx: HostContext) {}

  add(stored: StoredEntry): void {
    if (stored.entry.status !== 200 || !typedByExtension(stored)) return;
    const link = headerValue(stored.entry.link);
    if (link === null) return;
    const { folder, name } = splitTreePath(stored.path);
    const req = stored.request;
    const queries = requestTargets(this.ctx.site, req).map((t) => {
      const q = t.indexOf("?");
      return q < 0 ? "" : t.slice(q + 1);
    });
    const conds = [...new Set(queries)].filter((q) => !/[\s"\\]/.test(q));
    if (!conds.length) return;
    const fileBlock = `<Files "${name}">\n    Header set Link ${link} ${IF_STATIC}\n</Files>\n`;
    if (folder === "") {
      // The entry point, the documentation and the context: no query.
      // Matched on the URL path: the tree's root without a slash reaches the rules as a file path.
      const url = `${this.ctx.site.basePath}/${endpointPath(req)}`;
      const pattern = req.kind === "entry" ? `^${regexLiteral(this.ctx.site.basePath)}/?$` : `^${regexLiteral(url)}$`;
      this.root.push(
        `RewriteCond %{REQUEST_URI} ${pattern}\nRewriteCond %{QUERY_STRING} ^$\nRewriteRule ^ ${name} [END,E=${STATIC_ENV}:1]\n${fileBlock}`,
      );
      this.rules++;
    } else {
      let f = this.folders.get(folder);
      if (!f) this.folders.set(folder, (f = { rules: [], files: [] }));
      for (const q of conds) {
        f.rules.push(`RewriteCond %{QUERY_STRING} ${q ? `=${q}` : "^$"}\nRewriteRule ^${HOP}$ ${name} [END,E=${STATIC_ENV}:1]\n`);
        this.rules++;
      }
      f.files.push(fileBlock);
      this.route(req, folder);
      this.flushFolders(folder);
    }
    this.served++;
  }

  /** The root rule that sends an endpoint and id to the id's folder. */
  private route(req: DtsRequest, folder: string): void {
    const endpoint = endpointPath(req);
    const key = `${endpoint} ${folder}`;
    if (this.routed.has(key)) return;
    this.routed.add(key);
    const id = "id" in req ? req.id : undefined;
    if (id === undefined) {
      // The root collection: a query without id.
      this.root.push(`RewriteCond %{QUERY_STRING} !(^|&)id(=|&|$)\nRewriteRule ^${endpoint}$ ${folder}/${HOP} [L]\n`);
      this.rules++;
      return;
    }
    for (const spelled of valueSpellings(id)) {
      if (/[\s"\\]/.test(spelled)) continue;
      this.root.push(`RewriteCond %{QUERY_STRING} ^id=${regexLiteral(spelled)}(&|$)\nRewriteRule ^${endpoint}$ ${folder}/${HOP} [L]\n`);
      this.rules++;
    }
  }

  /** Folders are filled one document at a time: write those of earlier documents. */
  private flushFolders(current: string): void {
    if (this.folders.size < 16) return;
    for (const folder of [...this.folders.keys()]) if (folder !== current) this.writeFolder(folder);
  }

  private proxyRule(): string {
    const upstream = new URL(this.ctx.upstream);
    // The path as the client sent it (from the request line; the query, raw, follows on its own), to dts serve.
    return `RewriteCond %{THE_REQUEST} "^\\S+\\s+([^?\\s]*)"\nRewriteRule ^ ${upstream.protocol}//${upstream.host}%1 [P,NE,END]\n`;
  }

  private writeFolder(folder: string): void {
    const f = this.folders.get(folder)!;
    this.folders.delete(folder);
    const path = `${folder}/${HTACCESS}`;
    const sink = new TextSink(join(this.ctx.root, path));
    sink.write(`# Generated by \`dts build --target apache\`.
RewriteEngine On
RewriteBase ${this.ctx.site.basePath}/${folder}/
# Only the root .htaccess sends requests here; a direct request for a file goes to dts serve.
RewriteCond %{ENV:REDIRECT_STATUS} ^$ [OR]
RewriteCond %{REQUEST_URI} !/${HOP}$
RewriteRule ^ - [E=DTS_DIRECT:1]
RewriteCond %{ENV:DTS_DIRECT} =1
${this.proxyRule()}
${f.rules.join("")}
# Not a stored response: dts serve answers it.
${this.proxyRule()}
${f.files.join("")}`);
    sink.close();
    this.written.push(path);
    if (sink.bytes > this.largest.bytes) this.largest = { path, bytes: sink.bytes };
  }

  finish(): HostResult {
    for (const folder of [...this.folders.keys()]) this.writeFolder(folder);
    const sink = new TextSink(join(this.ctx.root, HTACCESS));
    sink.write(`# Generated by \`dts build --target apache\`: the tree's root, served at ${this.ctx.site.basePath || "/"}.
# Needs mod_rewrite, mod_headers, mod_mime, mod_proxy and mod_proxy_http, and AllowOverride All.
# Requests the tree does not hold go to dts serve at ${this.ctx.upstream}.
Options -Indexes -MultiViews
DirectorySlash Off
DirectoryIndex disabled
${Object.entries(TYPE_BY_EXTENSION)
  .map(([ext, type]) => `AddType ${type} .${ext}`)
  .join("\n")}
${Object.entries(CORS_HEADERS)
  .map(([k, v]) => `Header set ${k} ${headerValue(v)}`)
  .join("\n")}
Header set Cache-Control ${headerValue(STATIC_CACHE_CONTROL)} ${IF_STATIC}

RewriteEngine On
# The endpoints are folders of the tree too (collection/, document/): rewrite them without a slash.
RewriteOptions AllowNoSlash
RewriteBase ${this.ctx.site.basePath}/
# Writes, preflights and HEAD-less methods: dts serve.
RewriteCond %{REQUEST_METHOD} !^(GET|HEAD)$
${this.proxyRule()}
${this.root.join("")}
# Anything else: dts serve.
${this.proxyRule()}`);
    sink.close();
    this.written.push(HTACCESS);
    const warnings = [];
    if (this.largest.bytes > 1 << 20) {
      warnings.push({
        file: join(this.ctx.out, this.largest.path),
        message: `apache: ${this.largest.path} is ${(this.largest.bytes / 1e6).toFixed(1)} MB, and Apache reads a .htaccess on every request; for a corpus this size prefer nginx`,
      });
    }
    return { host: "apache", files: this.written, served: this.served, rules: this.rules, warnings };
  }
}
