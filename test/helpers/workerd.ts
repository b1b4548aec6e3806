// The Worker `dts build --target cloudflare` writes, bundled as wrangler bundles it (esbuild)
// and run in Cloudflare's local Workers runtime (workerd, through Miniflare from npm) over a
// folder of static assets, as `wrangler deploy` would run it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build as esbuild } from "esbuild";

export interface RunningWorker {
  url: string;
  dispose(): Promise<void>;
}

/** A Worker's module bundled as wrangler bundles it (esbuild, the workerd conditions), as one script. */
export async function bundleWorker(entry: string): Promise<string> {
  const bundle = await esbuild({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    write: false,
    logLevel: "silent",
  });
  return bundle.outputFiles[0].text;
}

/** The generated wrangler.jsonc of a tree, read as wrangler reads it (comments allowed). */
export function wranglerConfig(dist: string): {
  name: string;
  main: string;
  compatibility_date: string;
  assets: Record<string, unknown> & { binding: string; run_worker_first: boolean };
} {
  return JSON.parse(readFileSync(join(dist, "_hosts/cloudflare/wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""));
}

/** Starts the tree's Worker with `assets` (default: the tree itself) as its static assets; a string when Miniflare is missing. */
export async function startWorker(dist: string, assets = dist): Promise<RunningWorker | string> {
  let Miniflare: typeof import("miniflare").Miniflare;
  try {
    ({ Miniflare } = await import("miniflare"));
  } catch (e) {
    return `miniflare is not installed (${(e as Error).message})`;
  }
  const config = wranglerConfig(dist);
  const mf = new Miniflare({
    modules: true,
    script: await bundleWorker(join(dist, "_hosts/cloudflare", config.main)),
    compatibilityDate: config.compatibility_date,
    host: "127.0.0.1",
    port: 0,
    assets: {
      directory: assets,
      binding: config.assets.binding,
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: config.assets.run_worker_first },
    },
  });
  return { url: (await mf.ready).origin, dispose: () => mf.dispose() };
}
