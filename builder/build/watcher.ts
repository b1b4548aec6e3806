// Watching the corpus (chokidar): edits made by any editor or by `git pull` are rebuilt into
// the tree, debounced so that a burst of changes (a pull touching many files, an editor's
// save in several steps) is one rebuild. A changed TEI file rebuilds that document; a changed
// metadata file, or a file added or removed, rebuilds the catalogue and whatever changed.

import { basename, resolve, sep } from "node:path";
import { type FSWatcher, watch } from "chokidar";
import { count } from "../count.js";
import { isTemporary } from "../metadata/walk.js";
import type { BuildReport } from "./build.js";
import type { DocumentLocks } from "./locks.js";
import { type DocumentRebuild, type Stale, staleAfter, type Workspace } from "./workspace.js";

export interface WatchReport {
  /** "documents": only TEI files of known documents changed; "corpus": the catalogue was reloaded. */
  kind: "documents" | "corpus";
  /** The files that changed (absolute paths). */
  paths: string[];
  documents: DocumentRebuild[];
  build?: BuildReport;
  seconds: number;
}

export interface WatchOptions {
  workspace: Workspace;
  /** Quiet time after the last change before rebuilding, in ms (default 200). */
  debounce?: number;
  /** Shared with a write server: rebuilds take the same locks as writes. */
  locks?: DocumentLocks;
  /** After each rebuild (to print it, or to drop a reader's caches). */
  onRebuilt?: (report: WatchReport) => void;
  /** Called while the rebuilt document is still locked: drop cached reads of it ("all": of everything). */
  invalidate?: (stale: Stale) => void;
  onError?: (error: unknown) => void;
  /** Poll instead of using file system events (network folders, some containers). */
  polling?: boolean;
}

const METADATA = new Set(["__cts__.xml", "__capitains__.xml"]);

export class CorpusWatcher {
  private readonly pending = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly options: WatchOptions,
    private readonly watcher: FSWatcher,
  ) {}

  /** Starts watching; resolves once the initial scan is done and changes are being reported. */
  static async start(options: WatchOptions): Promise<CorpusWatcher> {
    const root = resolve(options.workspace.options.corpus);
    const dist = resolve(options.workspace.options.dist);
    const watcher = watch(root, {
      ignoreInitial: true,
      usePolling: options.polling ?? false,
      interval: 100,
      ignored: (path: string) => {
        const full = resolve(path);
        if (full === root) return false;
        const name = basename(full);
        // Hidden files (editors' swap files, our own temporary files), and the tree if it lives inside the corpus.
        return name.startsWith(".") || name === "node_modules" || full === dist || full.startsWith(dist + sep) || isTemporary(full);
      },
    });
    const self = new CorpusWatcher(options, watcher);
    watcher.on("all", (event, path) => self.changed(event, resolve(path)));
    watcher.on("error", (e) => options.onError?.(e));
    await new Promise<void>((ready) => watcher.once("ready", () => ready()));
    return self;
  }

  private changed(event: string, path: string): void {
    if (this.closed) return;
    if (!path.endsWith(".xml") && !path.endsWith(".json") && event !== "addDir" && event !== "unlinkDir") return;
    // A file added then changed is still an addition.
    if (!this.pending.has(path) || event !== "change") this.pending.set(path, event);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.running.then(() => this.rebuild()).catch((e) => this.options.onError?.(e));
    }, this.options.debounce ?? 200);
  }

  /** Waits until the changes seen so far are rebuilt. */
  async idle(): Promise<void> {
    while (this.timer) await new Promise((r) => setTimeout(r, 20));
    await this.running;
  }

  private async rebuild(): Promise<void> {
    const changes = new Map(this.pending);
    this.pending.clear();
    if (changes.size === 0) return;
    const started = performance.now();
    const { workspace, locks } = this.options;
    const paths = [...changes.keys()];
    const documents: string[] = [];
    let corpus = false;
    for (const [path, event] of changes) {
      const id = path.endsWith(".xml") ? workspace.resourceByFile(path) : undefined;
      // Metadata, or a file or folder added or removed: the catalogue may have changed.
      if (METADATA.has(basename(path)) || path.endsWith(".json") || event !== "change") corpus = true;
      else if (id) documents.push(id);
      // Otherwise a TEI file no metadata lists, changed in place: nothing to rebuild.
    }
    const invalidate = this.options.invalidate;
    const guard = <T>(fn: () => Promise<T>): Promise<T> => (locks ? locks.serial("#tree", fn) : fn());
    if (corpus) {
      const build = await guard(async () => {
        const report = await workspace.rebuildAll();
        invalidate?.("all");
        return report;
      });
      this.options.onRebuilt?.({ kind: "corpus", paths, documents: [], build, seconds: (performance.now() - started) / 1000 });
      return;
    }
    const rebuilt: DocumentRebuild[] = [];
    for (const id of documents) {
      const one = async (): Promise<DocumentRebuild> => {
        const r = workspace.rebuildDocument(id);
        invalidate?.(staleAfter(r));
        return r;
      };
      rebuilt.push(await guard(() => (locks ? locks.commit(id, one) : one())));
    }
    // A teiHeader that says something else now: the catalogue is read again.
    const headers = rebuilt.filter((r) => r.headerChanged);
    if (headers.length > 0) {
      const build = await guard(async () => {
        const report = await workspace.rebuildAll();
        invalidate?.("all");
        return report;
      });
      this.options.onRebuilt?.({ kind: "corpus", paths, documents: rebuilt, build, seconds: (performance.now() - started) / 1000 });
      return;
    }
    this.options.onRebuilt?.({ kind: "documents", paths, documents: rebuilt, seconds: (performance.now() - started) / 1000 });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.watcher.close();
    await this.running;
  }
}

/** One line per rebuild, as `dts watch` prints it. */
export function describeRebuild(report: WatchReport, corpusDir: string): string[] {
  const rel = (p: string): string => (p.startsWith(resolve(corpusDir) + sep) ? p.slice(resolve(corpusDir).length + 1) : p);
  if (report.kind === "corpus") {
    const b = report.build!;
    const rebuilt = b.documents - b.reused;
    const headers = report.documents.filter((d) => d.headerChanged).map((d) => d.id);
    return [
      ...(headers.length ? [`teiHeader changed in ${headers.join(", ")}: reloading the catalogue`] : []),
      `rebuilt the corpus (${report.paths.map(rel).slice(0, 3).join(", ")}${report.paths.length > 3 ? ", ..." : ""} changed): ` +
        `${count(rebuilt, "document")} rebuilt, ${b.reused} unchanged, ${count(b.files, "file")} written in ${report.seconds.toFixed(2)} s` +
        (b.warnings.length ? `, ${count(b.warnings.length, "warning")}` : ""),
    ];
  }
  return report.documents.map(
    (d) =>
      `rebuilt ${d.id}: ${d.plan.mode === "unchanged" ? "unchanged" : `${count(d.files, "file")} written (${d.plan.mode === "passages" ? "changed passages only" : d.plan.reason})`}` +
      `${d.collectionsChanged ? ", collections updated" : ""} in ${(d.seconds * 1000).toFixed(0)} ms` +
      (d.result.warnings.length ? `, ${count(d.result.warnings.length, "warning")}` : ""),
  );
}
