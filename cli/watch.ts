// `dts watch`: builds the corpus (incrementally), then rebuilds on every change made to it by
// an editor or `git pull`, debounced, printing what it rebuilt. Also the `serve` options of
// the write API, kept here so the serve command stays short.

import { type Command, InvalidArgumentError } from "commander";
import { count } from "../builder/count.js";
import { chooseLayout, siteFromOptions, treeOptions } from "./options.js";

/** `--max-body 4MiB`, `--max-body 500k`, `--max-body 1048576`. */
export function byteSize(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib)?$/i.exec(value.trim());
  if (!m) throw new InvalidArgumentError("a size in bytes, or with k or M (e.g. 4M, 500k)");
  const unit = (m[2] ?? "b").toLowerCase();
  const factor = unit.startsWith("k") ? 1024 : unit.startsWith("m") ? 1024 * 1024 : 1;
  const n = Math.floor(Number(m[1]) * factor);
  if (n < 1) throw new InvalidArgumentError("must be at least 1 byte");
  return n;
}

export function registerWatch(program: Command, fail: (command: string, error: unknown, corpus?: string) => never): void {
  treeOptions(program.command("watch").description("build a corpus, then rebuild what changes whenever its files change (debounced)"))
    .option(
      "--debounce <ms>",
      "quiet time after the last change before rebuilding",
      (v: string) => {
        if (!/^\d+$/.test(v)) throw new InvalidArgumentError("--debounce must be a whole number of milliseconds");
        return Number(v);
      },
      200,
    )
    .option("--polling", "poll the files instead of using file system events (network folders)")
    .action(async (opts) => {
      try {
        const layout = chooseLayout(opts.layout, [], opts.out);
        const site = siteFromOptions(opts, layout);
        // Loaded by the command that runs them: the watcher brings chokidar.
        const [{ CorpusWatcher, describeRebuild }, { Workspace }] = await Promise.all([
          import("../builder/build/watcher.js"),
          import("../builder/build/workspace.js"),
        ]);
        const { workspace, report } = await Workspace.open({ corpus: opts.corpus, dist: opts.out, site });
        console.log(
          `dts watch: built ${opts.out} from ${opts.corpus}: ${count(report.documents, "document")}, ${report.documents - report.reused} rebuilt, ${count(report.files, "file")} written in ${report.seconds.toFixed(2)} s`,
        );
        const watcher = await CorpusWatcher.start({
          workspace,
          debounce: opts.debounce,
          polling: Boolean(opts.polling),
          onRebuilt: (r) => {
            for (const line of describeRebuild(r, opts.corpus)) console.log(`dts watch: ${line}`);
          },
          onError: (e) => console.error(`dts watch: ${e instanceof Error ? e.message : String(e)}`),
        });
        console.log(`dts watch: watching ${opts.corpus} (Ctrl-C to stop)`);
        const stop = (): void => void watcher.close().then(() => process.exit(0));
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      } catch (e) {
        fail("watch", e, opts.corpus);
      }
    });
}
