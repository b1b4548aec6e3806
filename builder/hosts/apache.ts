// Apache rules: a config snippet to `Include` in the VirtualHost that serves the API (server
// context: RewriteMap cannot be used in .htaccess), a RewriteMap program, and an example
// VirtualHost. They do not grow with the corpus.
//
// For a GET or HEAD, the rules ask the map program once, with the raw request line: it reads the
// request as `dts serve` does and finds the stored response in its folder's manifest
// (server/adapters/apache-map.ts, through builder/tree/lookup.ts), and answers with the file to
// send and its headers, or NULL. Apache can only send whole files, so only a body alone in its
// file is served from the tree (every body, with `--layout files`); everything else, and every
// write, goes to the upstream `dts serve`. File paths come only from the map's answers, and
// the tree's folder is granted only to them, so no request reaches a file outside the tree,
// nor a data file inside it (`_index.json`, `_catalog.json`, `_manifest.json`).

import { join } from "node:path";
import { PAGE_CSP, PAGE_HTML, PAGE_SCRIPT, PAGE_STYLE } from "../page/html.js";
import { CORS_HEADERS, JSONLD_TYPE, STATIC_CACHE_CONTROL, TEI_TYPE } from "../wire.js";
import {
  HOSTS_FOLDER,
  type HostContext,
  type HostResult,
  type HostRules,
  hostResult,
  packageModule,
  regexLiteral,
  TextSink,
} from "./common.js";

export const APACHE_FOLDER = `${HOSTS_FOLDER}/apache`;
/** The per-folder rules earlier builds wrote: host-files.ts removes those left in a tree. */
export const HTACCESS = ".htaccess";
/** Set on a request answered from the tree: only those get the static headers. */
const STATIC_ENV = "DTS_STATIC";
/** Set on the reader page's files: its Content-Type (the variable's value) and policy. */
const PAGE_ENV = "DTS_PAGE";
const MAP_FILE = "dts-map.mjs";
const SNIPPET_FILE = "dts-apache.conf";
const EXAMPLE_FILE = "apache.conf.example";

/** An Apache config string in double quotes, or null when it cannot be one. */
export function apacheString(text: string): string | null {
  if (/[\x00-\x1f\x7f\\]/.test(text)) return null;
  return `"${text.replace(/"/g, '\\"')}"`;
}

/** A mod_headers value: `%` starts a format tag, so a literal one is `%%`. */
function headerValue(text: string): string {
  const quoted = apacheString(text.replace(/%/g, "%%"));
  if (quoted === null) throw new Error(`apache: a header value holds a control character: ${JSON.stringify(text)}`);
  return quoted;
}

/**
 * A path the rules can name as it is: in a RewriteMap program line (split on spaces), a rewrite
 * substitution (`$`, `%`, `{` expand) and a quoted directive. Anything else is refused.
 */
function plainPath(path: string, what: string): string {
  if (!/^\/[A-Za-z0-9._/+@~,:=-]*$/.test(path)) {
    throw new Error(`apache: ${what} ${path} cannot be written in an Apache config (use a path of letters, digits and . _ / - only)`);
  }
  return path;
}

export class ApacheRules implements HostRules {
  constructor(private readonly ctx: HostContext) {}

  /** Everything left under the base path goes to dts serve, with the path and query as the client sent them. */
  private proxyRule(scope: string): string {
    const upstream = new URL(this.ctx.upstream);
    // The raw path from the request line (an absolute-form target's scheme and host dropped); NE
    // keeps its escapes as they are, and mod_rewrite appends the raw query itself.
    return `RewriteCond %{THE_REQUEST} "^\\S+\\s+(?:[a-zA-Z][a-zA-Z0-9+.-]*://[^/?\\s]*)?(/[^?\\s]*)"
RewriteRule ${scope} ${upstream.protocol}//${upstream.host}%1 [P,NE,END]
`;
  }

  /** The reader page at `/` and its two files, from the tree's root (no other file of it), with its policy. */
  private pageRules(tree: string): string {
    const rule = (pattern: string, file: string, type: string): string =>
      `RewriteCond %{REQUEST_METHOD} ^(GET|HEAD)$\nRewriteRule ${pattern} ${tree}/${file} [E=${PAGE_ENV}:${type},END]\n`;
    return `# The reader page at / and its two files, from the tree's root, with the page's policy.
${rule("^/$", PAGE_HTML, "text/html")}${rule(`^/${regexLiteral(PAGE_SCRIPT)}$`, PAGE_SCRIPT, "text/javascript")}${rule(`^/${regexLiteral(PAGE_STYLE)}$`, PAGE_STYLE, "text/css")}Header set Content-Type "%{${PAGE_ENV}}e; charset=utf-8" env=${PAGE_ENV}
Header set Content-Security-Policy ${headerValue(`${PAGE_CSP}; frame-ancestors 'none'`)} env=${PAGE_ENV}
Header set X-Content-Type-Options "nosniff" env=${PAGE_ENV}
Header set Cache-Control "no-cache" env=${PAGE_ENV}

`;
  }

  /** The snippet to include in the VirtualHost. */
  private snippet(tree: string, program: string): string {
    const base = this.ctx.site.basePath;
    const upstream = new URL(this.ctx.upstream);
    const worker = `${upstream.protocol}//${upstream.host}/`;
    // The API's paths (Apache's decoded, normalised path): the base path, alone or followed by `/`.
    const scope = `^${regexLiteral(base)}(/|$)`;
    const serve = (word: string, type: string): string => `RewriteCond %{ENV:DTS_TYPE} =${word}
RewriteCond ${tree}/%{ENV:DTS_FILE} -f
RewriteRule ${scope} ${tree}/%{ENV:DTS_FILE} [T=${type},E=${STATIC_ENV}:1,END]
`;
    const staticHeaders = [
      `Header set ETag "%{DTS_ETAG}e" env=${STATIC_ENV}`,
      `Header set Link "%{DTS_LINK}e" env=${STATIC_ENV}`,
      `Header set Cache-Control ${headerValue(STATIC_CACHE_CONTROL)} env=${STATIC_ENV}`,
      ...Object.entries(CORS_HEADERS).map(([k, v]) => `Header set ${k} ${headerValue(v)} env=${STATIC_ENV}`),
    ];
    return `# Generated by \`dts build --target apache\`: include in the <VirtualHost> that serves the API
# at ${base || "/"}. Needs mod_rewrite, mod_headers, mod_proxy, mod_proxy_http and Node.
# Requests the tree does not hold, and writes, go to dts serve at ${this.ctx.upstream}:
# run \`dts serve --dist ${this.ctx.out} --port ${upstream.port || 80}\`.

# The map program: the reader's own lookup, one answer per request line. Apache starts it as
# the user it was started as (root, usually) unless told: it runs as DTS_MAP_USER, which
# defaults to Debian's www-data (\`Define DTS_MAP_USER user:group\` before the Include to change it).
<IfDefine !DTS_MAP_USER>
    Define DTS_MAP_USER www-data:www-data
</IfDefine>
RewriteMap dts "prg:${process.execPath} ${program} ${tree}" \${DTS_MAP_USER}
RewriteEngine On

${base === "" ? "" : this.pageRules(tree)}# GET and HEAD: ask the map once. Its answer is "<xml|json> <file> <etag> <link>", or NULL.
RewriteCond %{REQUEST_METHOD} ^(GET|HEAD)$
RewriteCond \${dts:%{THE_REQUEST}} "^(xml|json) (\\S+) (\\S+) (.+)$"
RewriteRule ${scope} - [E=DTS_TYPE:%1,E=DTS_FILE:%2,E=DTS_ETAG:%3,E=DTS_LINK:%4]
# The file it names, with the type of its manifest entry (unless a rebuild removed it since).
${serve("xml", TEI_TYPE)}${serve("json", JSONLD_TYPE)}
# Everything else under ${base || "/"} (writes, preflights, what the tree does not hold, direct
# requests for the tree's files): dts serve, which answers them in the API's format.
${this.proxyRule(scope)}# A request line the rule above cannot read (never expected): refused, never a file.
RewriteRule ${scope} - [F]

# The answers from the tree: the headers dts serve sends with them. The ETag is the manifest's,
# the one dts serve sends: it replaces Apache's own (FileETag None would drop this one too).
${staticHeaders.join("\n")}

# The tree's files are reached only as the map's answers: nothing is listed, no direct request is served.
<Directory "${tree}">
    Require env ${STATIC_ENV}
    Require env ${PAGE_ENV}
    Options None
    AllowOverride None
</Directory>

# dts serve as a worker of its own (its connections reused), tried again at once after a restart.
<Proxy "${worker}">
    ProxySet retry=0
</Proxy>
`;
  }

  private example(snippet: string): string {
    const base = this.ctx.site.basePath;
    return `# An example site: copy to /etc/apache2/sites-available/dts.conf, adjust the port and
# ServerName, enable the modules (a2enmod rewrite headers proxy proxy_http), run \`dts serve\`
# for the dynamic requests, then \`a2ensite dts && apachectl configtest && apachectl graceful\`.
<VirtualHost *:80>
    ServerName localhost
    Include "${snippet}"
${
  base === ""
    ? ""
    : `    # Nothing but the API and its reader page on this site: dts serve answers any other path (the API's 404).
    ${this.proxyRule("^").trimEnd().replace(/\n/g, "\n    ")}
`
}</VirtualHost>
`;
  }

  finish(): HostResult {
    const folder = join(this.ctx.out, APACHE_FOLDER);
    const tree = plainPath(this.ctx.out, "the tree's path");
    const program = plainPath(join(folder, MAP_FILE), "the map program's path");
    plainPath(process.execPath, "node's path");
    const files: string[] = [];
    const write = (name: string, text: string): void => {
      const sink = new TextSink(join(this.ctx.root, APACHE_FOLDER, name));
      sink.write(text);
      sink.close();
      files.push(`${APACHE_FOLDER}/${name}`);
    };
    write(
      MAP_FILE,
      `// Generated by \`dts build --target apache\`: Apache's RewriteMap program for the tree named
// by its first argument (see ${SNIPPET_FILE}).
import { runApacheMap } from ${JSON.stringify(packageModule(folder, "out/server/adapters/apache-map.js"))};

runApacheMap(process.argv[2]);
`,
    );
    write(SNIPPET_FILE, this.snippet(tree, program));
    write(EXAMPLE_FILE, this.example(join(folder, SNIPPET_FILE)));
    const warnings =
      this.ctx.site.layout === "files"
        ? []
        : [
            {
              file: join(folder, SNIPPET_FILE),
              message:
                "apache: Apache can only send a body alone in its file, so with the packed layout every request goes to dts serve; build with --layout files",
            },
          ];
    return hostResult(this.ctx, "apache", files, 0, null, [], warnings);
  }
}
