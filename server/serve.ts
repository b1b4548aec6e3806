// `dts serve`: the reader over a tree on the local disk, on Node's HTTP server; with a corpus,
// the write API too (POST, PUT, DELETE applied to the corpus, then an incremental rebuild).

import { readdir, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import type { BuildReport } from "../builder/build/build.js";
import { DocumentLocks } from "../builder/build/locks.js";
import { CorpusWatcher, type WatchReport } from "../builder/build/watcher.js";
import { Workspace } from "../builder/build/workspace.js";
import { isTemporary } from "../builder/metadata/walk.js";
import type { Site } from "../builder/site.js";
import { DEFAULT_MAX_BODY } from "../builder/wire.js";
import { diskStorage } from "./adapters/disk-storage.js";
import { createApp } from "./app.js";
import { answerParserRefusals } from "./client-error.js";
import { parseOrigins } from "./cors.js";
import { continueOnlyIfAdmitted } from "./expect-continue.js";
import { memoryListener } from "./fast-path.js";
import { TreeReader } from "./reader.js";
import { tokenProblem } from "./write/admission.js";
import { writesPagePath } from "./write/docs-page.js";
import { forgetStale } from "./write/forget.js";
import { SchemaValidators } from "./write/schema.js";
import { WriteService } from "./write/service.js";

export interface ServeOptions {
  dist: string;
  site: Site;
  port: number;
  host: string;
  /** The corpus the tree is built from: enables writes (with `token`), after an incremental build. */
  corpus?: string;
  /** The token writes must carry (DTS_TOKEN). */
  token?: string;
  /** Largest accepted write body in bytes (default 4 MiB). */
  maxBody?: number;
  /** Accept PUT only on passages of the lowest citation level. */
  putLowestOnly?: boolean;
  /** A RELAX NG schema every written document must be valid against. */
  schema?: string;
  /** Validate against a document's own local xml-model schema when no `schema` is given (default true). */
  xmlModel?: boolean;
  /** Folders besides the corpus that xml-model schemas may come from. */
  schemaDirs?: string[];
  /** Wait for the schema to be compiled before listening (default: compile in the background). */
  waitForSchema?: boolean;
  /** Also rebuild on changes made to the corpus by others (editors, git). */
  watch?: boolean;
  /** Lines about writes and rebuilds (never a token). */
  log?: (line: string) => void;
  /** Origins whose pages may write cross-origin (`--cors-origin`); reads are open to all. */
  corsOrigins?: string[];
}

export interface RunningServer {
  url: string;
  reader: TreeReader;
  workspace?: Workspace;
  /** The incremental build run at start, with a corpus. */
  report?: BuildReport;
  writes: WriteService;
  schemas?: SchemaValidators;
  watcher?: CorpusWatcher;
  /** How many requests the fast path answered from memory (server/fast-path.ts). */
  memoryAnswers(): number;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { site } = options;
  // A token enables writes only with a corpus; then it must not be guessable.
  const tooShort = options.corpus && options.token ? tokenProblem(options.token) : null;
  if (tooShort) throw new Error(tooShort);
  const origins = parseOrigins(options.corsOrigins ?? []);
  let workspace: Workspace | undefined;
  let report: BuildReport | undefined;
  let locks: DocumentLocks | undefined;
  let schemas: SchemaValidators | undefined;
  if (options.corpus) {
    await removeTemporaryFiles(options.corpus);
    // The tree is brought up to date with the corpus first: after a crash mid-write, this is
    // what rebuilds the document whose source was written but whose responses were not.
    ({ workspace, report } = await Workspace.open({ corpus: options.corpus, dist: options.dist, site }));
    locks = new DocumentLocks();
    schemas = new SchemaValidators({
      schema: options.schema,
      xmlModel: options.xmlModel,
      folders: [options.corpus, ...(options.schemaDirs ?? [])],
    });
    const ready = schemas.ready();
    if (options.waitForSchema) await ready;
    else ready.catch((e) => options.log?.(`dts serve: ${e instanceof Error ? e.message : String(e)}`));
  }
  // Where the tree changes under the server, a client must not keep a response for minutes:
  // it revalidates (If-None-Match, a 304 when nothing changed).
  const storage = diskStorage(options.dist);
  const reader = new TreeReader({ site, storage, ...(workspace ? { cacheControl: "no-cache" } : {}) });
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const writes = new WriteService({
    site,
    reader,
    workspace,
    locks: locks ?? new DocumentLocks(),
    token: options.token || undefined,
    maxBody,
    putLowestOnly: options.putLowestOnly,
    schemas,
    docsPage: writesPagePath(site),
    log: options.log,
    origins,
  });
  let watcher: CorpusWatcher | undefined;
  if (workspace && options.watch) {
    watcher = await CorpusWatcher.start({
      workspace,
      locks,
      invalidate: (stale) => forgetStale(reader, stale),
      onRebuilt: (r: WatchReport) =>
        options.log?.(`dts serve: corpus changed (${r.paths.length} file(s)); rebuilt in ${r.seconds.toFixed(2)} s`),
      onError: (e) => options.log?.(`dts serve: watch: ${e instanceof Error ? e.message : String(e)}`),
    });
  }
  const app = createApp({
    reader,
    writes,
    locks,
    origins,
    pageFiles: storage,
    page: {
      enabled: writes.enabled,
      maxBody,
      putLowestOnly: Boolean(options.putLowestOnly),
      schema: schemas?.schema,
      xmlModel: options.xmlModel !== false,
    },
  });
  return new Promise((resolvePromise, reject) => {
    const fast = memoryListener(reader, locks, getRequestListener(app.fetch, { hostname: options.host }));
    const server = createServer(fast.listener);
    server.listen(options.port, options.host, () => {
      const info = server.address() as AddressInfo;
      const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolvePromise({
        url: `http://${host}:${info.port}`,
        reader,
        workspace,
        report,
        writes,
        schemas,
        watcher,
        memoryAnswers: fast.answered,
        close: async () => {
          await watcher?.close();
          await new Promise<void>((done) => {
            server.close(() => done());
            // Idle keep-alive connections would hold close() open; requests under way (a write) finish.
            (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
          });
          await schemas?.close();
        },
      });
    });
    server.on("error", reject);
    continueOnlyIfAdmitted(server, writes);
    answerParserRefusals(server, site);
  });
}

/** Temporary files a crash mid-write may have left in the corpus (the file they were to replace is intact). */
async function removeTemporaryFiles(corpus: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(corpus, { recursive: true });
  } catch {
    return;
  }
  await Promise.all(names.filter((n) => isTemporary(n)).map((n) => rm(join(corpus, n), { force: true })));
}
