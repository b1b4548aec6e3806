// nginx rules: an `include` for the http block (maps from the raw request to the stored file,
// its Link header and status, and the upstream) and one for a server block (the locations).
//
// nginx cannot decode a query (`$arg_id` and `$request_uri` are raw), so the rules do not
// compute a file name: a `map` lists every stored request under each encoding clients send
// (queries.ts), keyed by the raw `$request_uri`, and gives the file `requestToPath` names.
// Anything else (ranges, paged or grouped navigation, unknown ids, other spellings, writes,
// OPTIONS) goes to the upstream `dts serve`, which answers it as it answers everything. Since
// file paths come only from the map, no request can reach a file outside the tree, nor a data
// file inside it (`_index.json`, `_catalog.json`).
//
// nginx compares map strings case-insensitively, and identifiers are not: the map's value
// carries the key it was listed under, and a request whose `$request_uri` differs from it in
// case goes upstream.

import { join } from "node:path";
import { linkHeader } from "../urls.js";
import { CORS_HEADERS, STATIC_CACHE_CONTROL } from "../wire.js";
import {
  HOSTS_FOLDER,
  type HostContext,
  type HostResult,
  type HostRules,
  regexLiteral,
  TextSink,
  TYPE_BY_EXTENSION,
  typedByExtension,
} from "./common.js";
import { hostErrorBodies, hostErrors } from "./host-errors.js";
import { requestTargets } from "./queries.js";
import type { StoredEntry } from "./stored.js";

export const NGINX_FOLDER = `${HOSTS_FOLDER}/nginx`;
/** The internal location the tree is served from; never reachable from outside. */
const TREE_LOCATION = "/.dts-tree/";
/** The internal location of nginx's own errors, in the API's format (host-errors.ts). */
const ERROR_LOCATION = "/.dts-errors/";
const ERROR_FOLDER = "errors";

/** A double-quoted nginx string, or null when nginx cannot hold it literally (`$` would be a variable). */
export function nginxString(text: string): string | null {
  if (/[\x00-\x1f\x7f$]/.test(text)) return null;
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

export class NginxRules implements HostRules {
  private readonly folder: string;
  private readonly requests: TextSink;
  private readonly links: TextSink;
  private readonly statuses: TextSink;
  private readonly defaultLink: string;
  private readonly statusCodes = new Set<number>();
  private served = 0;
  private keys = 0;
  private longestKey = 0;
  private keyBytes = 0;
  private skipped = 0;

  constructor(private readonly ctx: HostContext) {
    this.folder = join(ctx.root, NGINX_FOLDER);
    this.requests = new TextSink(join(this.folder, "dts-requests.map"));
    this.links = new TextSink(join(this.folder, "dts-links.map"));
    this.statuses = new TextSink(join(this.folder, "dts-statuses.map"));
    this.defaultLink = linkHeader(ctx.site);
  }

  /**
   * nginx rejects map keys that differ only in case ("conflicting parameter"), and identifiers
   * and references may (`8.1a`, `8.1A`). Only the first is listed: a request for the other
   * matches it ignoring case, fails the exact check and goes upstream. Keys of one group
   * (the collections, or one document) are compared; ids across documents by their own set.
   */
  private group = "";
  private groupKeys = new Set<string>();
  private readonly ids = new Map<string, string>();

  private caseClash(stored: StoredEntry, target: string): boolean {
    const req = stored.request;
    const group = req.kind === "document" || req.kind === "navigation" ? `doc ${req.id}` : req.kind;
    if (group !== this.group) {
      this.group = group;
      this.groupKeys = new Set();
    }
    if ("id" in req && req.id !== undefined) {
      const first = this.ids.get(req.id.toLowerCase());
      if (first === undefined) this.ids.set(req.id.toLowerCase(), req.id);
      else if (first !== req.id) return true;
    }
    const folded = target.toLowerCase();
    if (this.groupKeys.has(folded)) return true;
    this.groupKeys.add(folded);
    return false;
  }

  add(stored: StoredEntry): void {
    const { status, link } = stored.entry;
    // Statuses nginx can send with a file body: 200, and errors through error_page.
    if (!typedByExtension(stored) || !(status === 200 || (status >= 400 && status <= 599))) {
      this.skip();
      return;
    }
    const linkValue = nginxString(link);
    const file = nginxString(stored.path);
    if (linkValue === null || file === null) {
      this.skip();
      return;
    }
    let listed = 0;
    for (const target of requestTargets(this.ctx.site, stored.request)) {
      const key = nginxString(target);
      // The value is "<file> <key>": keys hold no space (spaces are always escaped).
      const value = nginxString(`${stored.path} ${target}`);
      if (key === null || value === null || target.includes(" ") || this.caseClash(stored, target)) continue;
      this.requests.write(`${key} ${value};\n`);
      const bytes = Buffer.byteLength(target);
      this.longestKey = Math.max(this.longestKey, bytes);
      this.keyBytes += bytes;
      listed++;
    }
    if (!listed) {
      this.skip();
      return;
    }
    this.keys += listed;
    this.served++;
    if (link !== this.defaultLink) this.links.write(`${file} ${linkValue};\n`);
    if (status !== 200) {
      this.statuses.write(`${file} ${status};\n`);
      this.statusCodes.add(status);
    }
  }

  private skip(): void {
    this.skipped++;
  }

  /**
   * Writes nginx's own errors as the API's (both formats), and returns the `error_page` lines
   * that send them. Without `=`, the status stays the error's; 494 is nginx's name for headers
   * too large, sent as 431 as `dts serve` does.
   */
  private writeErrors(write: (name: string, text: string) => void): string[] {
    const lines: string[] = [];
    for (const e of hostErrors(this.ctx.site, this.ctx.maxBody)) {
      const bodies = hostErrorBodies(this.ctx.site, e);
      write(`${ERROR_FOLDER}/${e.status}.xml`, String(bodies.xml.body));
      write(`${ERROR_FOLDER}/${e.status}.json`, String(bodies.json.body));
      if (e.status === 404) continue;
      const codes = e.status === 431 ? "494 =431" : String(e.status);
      lines.push(`error_page ${codes} ${ERROR_LOCATION}${e.status}.$dts_error_format;`);
    }
    return lines;
  }

  finish(): HostResult {
    this.requests.close();
    this.links.close();
    this.statuses.close();
    const files = ["dts-requests.map", "dts-links.map", "dts-statuses.map"];
    const abs = (name: string): string => nginxString(join(this.ctx.out, NGINX_FOLDER, name))!;
    const write = (name: string, text: string): void => {
      const sink = new TextSink(join(this.folder, name));
      sink.write(text);
      sink.close();
      files.push(name);
    };
    // A bucket must hold the longest key, and a few average ones so that nginx finds a table
    // size quickly; it searches sizes up to the maximum.
    const pow2 = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, n)));
    const documentPattern = nginxString(`~^${regexLiteral(this.ctx.site.basePath)}/document/*(\\?|\\z)`);
    const average = this.keys ? this.keyBytes / this.keys : 0;
    const bucket = Math.max(64, pow2(this.longestKey + 32), pow2(average * 4 + 32));
    const maxSize = Math.max(2048, pow2(this.keys * 2));
    write(
      "dts-http.conf",
      `# Generated by \`dts build --target nginx\`: include in the http block, once.
# ${this.served} stored responses under ${this.keys} request spellings.
map_hash_max_size ${maxSize};
map_hash_bucket_size ${bucket};

# The raw request -> "<file> <request>". Values are listed under every common encoding;
# nginx compares them ignoring case, so the request is checked again below.
map $request_uri $dts_hit {
    default "";
    include ${abs("dts-requests.map")};
}
map $dts_hit $dts_file {
    "~^(?<dts_hit_file>[^ ]+) " $dts_hit_file;
    default "";
}
map $dts_hit $dts_key {
    "~^[^ ]+ (?<dts_hit_key>.+)$" $dts_hit_key;
    default "";
}
# The Link header and status of each file, from the manifests.
map $dts_file $dts_link {
    default ${nginxString(this.defaultLink)};
    include ${abs("dts-links.map")};
}
map $dts_file $dts_status {
    default 200;
    include ${abs("dts-statuses.map")};
}
# nginx's own errors answer in the format of the endpoint asked: XML for Document, else JSON.
map $request_uri $dts_error_format {
    default json;
${documentPattern ? `    ${documentPattern} xml;\n` : ""}}
`,
    );
    const errorPages = this.writeErrors(write);
    const upstream = new URL(this.ctx.upstream);
    write(
      "dts-upstream.conf",
      `# Generated by \`dts build --target nginx\`: include in the http block, once.
# The \`dts serve\` that answers what the tree does not hold (ranges, paged or grouped
# navigation, errors for unknown ids, writes): run \`dts serve --dist ${this.ctx.out} --port ${upstream.port || 80}\`.
upstream dts_dynamic {
    server ${upstream.hostname}:${upstream.port || 80};
    keepalive 16;
}
`,
    );
    const errors = [...this.statusCodes].sort();
    // A location with error_page lines of its own inherits none: each lists nginx's errors again,
    // after its own (the first line naming a status wins).
    const ownErrors = (indent: string, except: number[] = []): string =>
      errorPages
        .filter((line) => !except.some((s) => line.startsWith(`error_page ${s} `)))
        .map((line) => `${indent}${line}\n`)
        .join("");
    const bodyLimit = `client_max_body_size ${this.ctx.maxBody};`;
    const base = this.ctx.site.basePath || "/";
    const cors = Object.entries(CORS_HEADERS).map(([k, v]) => `add_header ${k} ${nginxString(v)} always;`);
    const headers = [...cors, `add_header Link $dts_link always;`, `add_header Cache-Control ${nginxString(STATIC_CACHE_CONTROL)} always;`];
    const errorHeaders = [
      ...cors,
      `add_header Link ${nginxString(this.defaultLink)} always;`,
      `add_header Cache-Control "no-store" always;`,
    ];
    write(
      "dts-locations.conf",
      `# Generated by \`dts build --target nginx\`: include in the server block that serves the API.

# nginx's own errors (a request it cannot read, a body over the limit, dts serve down) in the
# API's format, with CORS headers. Server-wide: a request nginx cannot read reaches no location.
${ownErrors("")}
location ^~ ${base} {
    # The body limit of the dts serve behind (its --max-body): a larger write is refused here.
    ${bodyLimit}
    # Errors met after the hand-over to dts serve (502 when it is down) still get their page.
    recursive_error_pages on;
    # Anything the tree does not hold goes to dts serve, with the request as it came.
    error_page 418 = @dts_dynamic;
    if ($request_method !~ ^(GET|HEAD)$) { return 418; }
    if ($dts_file = "") { return 418; }
    if ($request_uri != $dts_key) { return 418; }
${errors.length ? `    # Stored error responses: the status, with the stored body.\n    error_page ${errors.join(" ")} ${TREE_LOCATION}$dts_file;\n` : ""}${errors
  .map((s) => `    if ($dts_status = ${s}) { return ${s}; }\n`)
  .join("")}${ownErrors("    ", errors)}    rewrite ^ ${TREE_LOCATION}$dts_file? last;
}

location ^~ ${TREE_LOCATION} {
    internal;
    alias ${nginxString(this.ctx.out + "/")};
    types {
${Object.entries(TYPE_BY_EXTENSION)
  .map(([ext, type]) => `        ${type} ${ext};`)
  .join("\n")}
    }
    default_type application/octet-stream;
    charset off;
${this.ctx.compressed ? "    # The .gz siblings `dts build --compress` wrote (brotli_static too, with ngx_brotli).\n    gzip_static on;\n    gzip_vary on;\n    # brotli_static on;\n" : ""}    ${headers.join("\n    ")}
    # A file missing from the tree (changed since the rules were made): let dts serve answer.
    recursive_error_pages on;
    error_page 404 = @dts_dynamic;
${ownErrors("    ", [404])}}

location ^~ ${ERROR_LOCATION} {
    internal;
    alias ${nginxString(join(this.ctx.out, NGINX_FOLDER, ERROR_FOLDER) + "/")};
    types {
${Object.entries(TYPE_BY_EXTENSION)
  .map(([ext, type]) => `        ${type} ${ext};`)
  .join("\n")}
    }
    charset off;
    ${errorHeaders.join("\n    ")}
}

location @dts_dynamic {
    ${bodyLimit}
    proxy_pass http://dts_dynamic;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
}
`,
    );
    write(
      "nginx.conf.example",
      `# An example site: copy to /etc/nginx/conf.d/dts.conf (http context), adjust listen and
# server_name, run \`dts serve\` for the dynamic requests, then \`nginx -t && nginx -s reload\`.
include ${abs("dts-upstream.conf")};
include ${abs("dts-http.conf")};

server {
    listen 80;
    server_name _;
    include ${abs("dts-locations.conf")};
${
  base === "/"
    ? ""
    : `    # Nothing but the API on this site: any other path gets the API's 404 (and no root is needed).
    location / {
        error_page 404 ${ERROR_LOCATION}404.$dts_error_format;
        return 404;
    }
`
}}
`,
    );
    return {
      host: "nginx",
      files: files.map((f) => `${NGINX_FOLDER}/${f}`),
      served: this.served,
      rules: this.keys,
      warnings: this.skipped
        ? [
            {
              file: join(this.ctx.out, NGINX_FOLDER, "dts-http.conf"),
              message: `nginx: ${this.skipped} stored responses are left to dts serve (a status or value nginx cannot send literally)`,
            },
          ]
        : [],
    };
  }
}
