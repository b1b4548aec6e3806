// The `dts` command line: build a tree from a corpus, serve a tree.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { Command, Option } from "commander";
import { build } from "../builder/build/build.js";
import { checkCorpus } from "../builder/build/check.js";
import { CorpusError } from "../builder/catalog.js";
import { count } from "../builder/count.js";
import { DEFAULT_UPSTREAM, HOSTS, parseHosts } from "../builder/hosts/host-files.js";
import { PAGE_HTML } from "../builder/page/html.js";
import { makeSite, type Site, servesApi } from "../builder/site.js";
import { SITE_FILE } from "../builder/tree/layout.js";
import { v1BasePath } from "../builder/v1/urls.js";
import { DEFAULT_MAX_BODY } from "../builder/wire.js";
import { isServiceUrl, runUrlCheck, seconds, URL_DEFAULTS } from "./check-url.js";
import { registerDeploy } from "./deploy.js";
import { chooseLayout, integer, siteFromOptions, treeOptions } from "./options.js";
import { progressBar } from "./progress.js";
import { printCheck, printHosts, printReport, warningLines, where } from "./report.js";
import { byteSize, registerWatch } from "./watch.js";

/** Prints the error (a corpus error with its file as the user named the corpus) and exits 1. */
function fail(command: string, error: unknown, corpus?: string): never {
  if (error instanceof CorpusError) {
    console.error(`dts ${command}: ${where(error.location!, corpus)}: ${error.description}`);
  } else {
    console.error(`dts ${command}: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.DTS_DEBUG && error instanceof Error) console.error(error.stack);
  }
  process.exit(1);
}

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

const program = new Command();
program
  .name("dts")
  .description("A static-first Distributed Text Services (DTS 1-draft2) server for TEI corpora.")
  .version(version, "-V, --version", "print the version");

treeOptions(program.command("build").description("build every GET response of a corpus into a static tree"))
  .option("--json", "print the report as JSON")
  .option("--full", "rebuild every document, even those whose source did not change")
  .option(
    "--workers <n>",
    "threads rendering and writing documents (default: one per core; 0: all on the main thread)",
    integer("--workers", 0, 64),
  )
  .option(
    "--target <name>",
    `write the rules of a host beside the tree: ${HOSTS.join(", ")}, all, or none (repeatable; left out, those of the last build)`,
    (v: string, all: string[]) => [...all, v],
    [] as string[],
  )
  // The old spelling of --target, kept working; in dts serve --host is the listen address.
  .addOption(
    new Option("--host <name>")
      .hideHelp()
      .argParser((v: string, all: string[]) => [...all, v])
      .default([] as string[]),
  )
  .option("--compress", "write .gz and .br siblings of the larger responses (nginx gzip_static, dts serve)")
  .option("--upstream <url>", "the dts serve that nginx and Apache rules send dynamic requests to", DEFAULT_UPSTREAM)
  .option(
    "--max-body <size>",
    "that dts serve's --max-body: the largest write body the rules pass to it (bytes, or with k or M)",
    byteSize,
    DEFAULT_MAX_BODY,
  )
  .action(async (opts) => {
    try {
      if (opts.host.length)
        console.error("dts build: --host is deprecated here, use --target (the same values); --host stays the listen address of dts serve");
      const targets: string[] = [...opts.target, ...opts.host];
      const layout = chooseLayout(opts.layout, targets, opts.out);
      const site = siteFromOptions(opts, layout);
      const bar = opts.json ? null : progressBar(process.stderr, "documents");
      const report = await build({
        corpus: opts.corpus,
        out: opts.out,
        site,
        full: Boolean(opts.full),
        workers: opts.workers,
        onProgress: bar?.update,
        // No host option: keep the rules the tree was last built with.
        hosts:
          targets.length || opts.compress || opts.upstream !== DEFAULT_UPSTREAM || opts.maxBody !== DEFAULT_MAX_BODY
            ? { hosts: parseHosts(targets), compress: Boolean(opts.compress), upstream: opts.upstream, maxBody: opts.maxBody }
            : undefined,
      });
      bar?.done();
      printReport(report, { json: Boolean(opts.json), corpus: opts.corpus, out: opts.out });
      if (!opts.json) printHosts(report.hostFiles);
    } catch (e) {
      fail("build", e, opts.corpus);
    }
  });

program
  .command("check")
  .argument("[url]", "the entry point of a deployed DTS service (http or https): check it instead of a corpus")
  .description("read a corpus as a build would and report its problems, writing nothing; or, given a URL, check a deployed service")
  .option("--corpus <dir>", "the corpus folder", "corpus")
  .option("--json", "print the report as JSON")
  .option(
    "--max-resources <n>",
    "with a URL: collections and resources read at most",
    integer("--max-resources", 1, 1000000),
    URL_DEFAULTS.maxResources,
  )
  .option(
    "--sample <n>",
    "with a URL: resources whose navigation and passages are read",
    integer("--sample", 0, 100000),
    URL_DEFAULTS.sample,
  )
  .option("--concurrency <n>", "with a URL: requests in flight at most", integer("--concurrency", 1, 256), URL_DEFAULTS.concurrency)
  .option("--timeout <seconds>", "with a URL: the longest wait for one answer", seconds, URL_DEFAULTS.timeoutMs / 1000)
  .option("--offline", "with a URL: fetch no JSON-LD context from another host (their answers are warnings, not checked)")
  .addHelpText(
    "after",
    "\nExit status: a corpus: 0 when there is nothing to report, 2 when there are warnings, 1 when the corpus cannot be read.\n" +
      "A URL: 0 when every check passed (warnings allowed), 1 when one failed, 2 for a wrong option.",
  )
  .action(async (url: string | undefined, opts) => {
    if (url !== undefined && !isServiceUrl(url)) {
      console.error(`dts check: "${url}" is not an http(s) URL; to check a corpus folder, use --corpus ${url}`);
      process.exit(2);
    }
    if (url !== undefined) {
      try {
        process.exitCode = await runUrlCheck(url, opts);
      } catch (e) {
        fail("check", e);
      }
      return;
    }
    try {
      const report = await checkCorpus(opts.corpus);
      printCheck(report, { json: Boolean(opts.json), corpus: opts.corpus });
      process.exitCode = report.warnings.length ? 2 : 0;
    } catch (e) {
      fail("check", e, opts.corpus);
    }
  });

program
  .command("serve")
  .description("serve a built tree over HTTP")
  .option("--dist <dir>", "the built tree", "dist")
  .option("--corpus <dir>", "the corpus the tree was built from (for writes)")
  .option("--port <n>", "port (0 picks a free one)", integer("--port", 0, 65535), 8080)
  .option("--host <host>", "address to listen on", "127.0.0.1")
  .option("--max-body <size>", "largest write body accepted (bytes, or with k or M)", byteSize, DEFAULT_MAX_BODY)
  .option("--schema <file.rng>", "validate every written document against this RELAX NG schema")
  .option("--no-xml-model", "do not validate against a document's own local xml-model schema")
  .option(
    "--schema-dir <dir>",
    "a folder (besides the corpus) xml-model schemas may come from; repeatable",
    (v: string, all: string[]) => [...all, v],
    [] as string[],
  )
  .option("--put-lowest-only", "accept PUT only on passages of the lowest citation level")
  .option("--watch", "with --corpus, also rebuild on changes made to the corpus by others")
  .option(
    "--cors-origin <origin>",
    "an origin whose pages may write cross-origin (repeatable, or a comma list); reads are open to all",
    (v: string, all: string[]) => [...all, v],
    [] as string[],
  )
  .addHelpText(
    "after",
    "\nWrites (POST, PUT, DELETE of passages on the Document endpoint) are enabled with --corpus and a token\n" +
      "in the environment variable DTS_TOKEN (at least 16 characters), which every write must carry:\n" +
      '  DTS_TOKEN="$(openssl rand -hex 24)" dts serve --corpus corpus',
  )
  .action(async (opts) => {
    try {
      // A long-running server: V8 grows its heap up to 4x what is live when allocation is fast,
      // and a server allocates fast; 1.5x kept it at 270 MB under a mixed load (issue 14) instead
      // of some 400 MB, at the same speed. Read at each collection, so it holds set at run time.
      setFlagsFromString("--heap-growing-percent=50");
      // With a corpus the tree is built (or brought up to date) first, so it may not exist yet.
      const site = opts.corpus ? readSiteOr(opts.dist, makeSite()) : readSite(opts.dist);
      const token = process.env.DTS_TOKEN || undefined;
      // Loaded by the command that runs it: `dts build` does not carry the server (30 MB).
      const { startServer } = await import("../server/serve.js");
      const server = await startServer({
        dist: opts.dist,
        site,
        port: opts.port,
        host: opts.host,
        corpus: opts.corpus,
        token,
        maxBody: opts.maxBody,
        schema: opts.schema,
        xmlModel: opts.xmlModel,
        schemaDirs: opts.schemaDir,
        putLowestOnly: Boolean(opts.putLowestOnly),
        watch: Boolean(opts.watch),
        corsOrigins: opts.corsOrigin,
        log: (line) => console.log(line),
      });
      // The build run at start, as `dts build` reports it: its warnings say which documents cannot be served.
      if (server.report?.warnings.length) {
        console.log(`dts serve: ${count(server.report.warnings.length, "warning")} building ${opts.dist} from ${opts.corpus}:`);
        console.log(warningLines(server.report.warnings, [opts.corpus, opts.dist]).join("\n"));
      }
      console.log(`dts serve: ${server.url}${site.basePath || "/"} (tree ${opts.dist})`);
      if (site.basePath && existsSync(join(opts.dist, PAGE_HTML))) console.log(`dts serve: the reader at ${server.url}/`);
      if (servesApi(site, "1.0")) {
        const entry = site.staticPaths ? "index.jsonld" : "";
        console.log(
          `dts serve: DTS 1.0 at ${server.url}${v1BasePath(site)}/${entry}${site.siteUrl ? ` (its templates name ${site.siteUrl})` : ""}`,
        );
      }
      if (opts.corpus) {
        console.log(
          server.writes.enabled
            ? `dts serve: writes enabled on ${opts.corpus} (POST, PUT, DELETE with the DTS_TOKEN token)${opts.schema ? `, validated against ${opts.schema}` : ""}`
            : `dts serve: writes disabled: set DTS_TOKEN to enable them on ${opts.corpus}`,
        );
      }
      if (server.watcher) console.log(`dts serve: watching ${opts.corpus} (Ctrl-C to stop)`);
      const stop = (): void => void server.close().then(() => process.exit(0));
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    } catch (e) {
      fail("serve", e, opts.corpus);
    }
  });

/** One line per host written, and the precompression. */
function readSiteOr(dist: string, fallback: Site): Site {
  try {
    return readSite(dist);
  } catch {
    return fallback;
  }
}

/** The settings the tree was built with, so the server answers with the same addresses. */
function readSite(dist: string): Site {
  let text: string;
  try {
    text = readFileSync(join(dist, SITE_FILE), "utf8");
  } catch {
    throw new Error(`${dist} is not a built tree (no ${SITE_FILE}); run \`dts build --out ${dist}\` first`);
  }
  return JSON.parse(text) as Site;
}

registerWatch(program, fail);
registerDeploy(program, fail);

// `dts` alone asks what the command can do: the help is the answer, not an error.
if (process.argv.length <= 2) program.help();
program.parseAsync(process.argv).catch((e) => fail(program.args[0] ?? "", e));
