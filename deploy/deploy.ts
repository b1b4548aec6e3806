// `dts deploy`: the tree to an object store, by content. New objects first (in parallel,
// retried), then the listing and the switch (the one write that makes the new version the
// served one), then the deletions, capped: a deploy that stops anywhere before the switch
// leaves the previous version served whole, and one run again uploads only what is missing.

import { createHash } from "node:crypto";
import { parseSwitch, SWITCH_KEY } from "../builder/tree/bucket-layout.js";
import { type LocalObject, localObjects, readLocal, readSite } from "./local-tree.js";
import { planDeploy } from "./plan.js";
import { runPool } from "./pool.js";
import { RETRY_DEFAULTS, type RetryOptions, withRetries } from "./retry.js";
import type { ObjectStore } from "./store.js";

export interface DeployOptions {
  dist: string;
  store: ObjectStore;
  /** Most objects deleted without `forceDeletes`: a broken build must not empty a site. */
  maxDeletes: number;
  forceDeletes?: boolean;
  /** Plans and reports, writing nothing. */
  dryRun?: boolean;
  /** Uploads in flight at most. */
  concurrency?: number;
  /** Only the DTS 1.0 static profile's files, for a bucket served as a website. */
  staticOnly?: boolean;
  retry?: RetryOptions;
  onProgress?(done: number, total: number): void;
}

export interface DeployReport {
  target: string;
  version: string;
  /** The version the store served before, if any. */
  previous: string | null;
  dryRun: boolean;
  /** Whether the switch was written (false: the store served this version already). */
  switched: boolean;
  uploaded: number;
  uploadedBytes: number;
  unchanged: number;
  unchangedBytes: number;
  deleted: number;
  seconds: number;
  /** Keys of the tree's objects uploaded (or, in a dry run, to upload). */
  uploads: string[];
  /** The deploy's own records written after them: the listing, then the switch (when not held already). */
  records: string[];
  /** Keys deleted (or to delete). */
  deletes: string[];
  /** Set in a dry run whose deletions a real deploy would refuse. */
  refused?: string;
}

const DELETE_BATCH = 1000;
const text = new TextDecoder();

const sum = (objects: LocalObject[]): number => objects.reduce((n, o) => n + o.size, 0);

function refusal(o: DeployOptions, count: number): string | undefined {
  if (o.forceDeletes || count <= o.maxDeletes) return undefined;
  return (
    `${o.store.name} holds ${count.toLocaleString("en")} ${count === 1 ? "object" : "objects"} the new tree does not name, more than --max-deletes ${o.maxDeletes}: ` +
    "refusing to deploy, nothing written (a build that lost documents would empty the site). " +
    "Check the tree, then run again with --force-deletes or a larger --max-deletes"
  );
}

export async function deploy(o: DeployOptions): Promise<DeployReport> {
  const started = performance.now();
  const retry = o.retry ?? RETRY_DEFAULTS;
  const site = await readSite(o.dist);
  const local = await localObjects(o.dist, site, { staticOnly: o.staticOnly });
  const [remote, current] = await Promise.all([
    withRetries(() => o.store.list(), retry),
    withRetries(() => o.store.get(SWITCH_KEY), retry),
  ]);
  const served = current ? parseSwitch(text.decode(current)) : null;
  const previous = served?.version ?? null;
  const plan = planDeploy(local, remote, served);
  const refused = refusal(o, plan.deletes.length);
  if (refused && !o.dryRun) throw new Error(refused);

  const written = [plan.listing, plan.switch].filter((w) => w !== null);
  const report: DeployReport = {
    target: o.store.name,
    version: plan.version,
    previous,
    dryRun: Boolean(o.dryRun),
    switched: false,
    uploaded: plan.uploads.length,
    uploadedBytes: sum(plan.uploads),
    unchanged: plan.unchanged.length,
    unchangedBytes: sum(plan.unchanged),
    deleted: plan.deletes.length,
    seconds: 0,
    uploads: plan.uploads.map((u) => u.key),
    records: written.map((w) => w.key),
    deletes: plan.deletes.map((d) => d.key),
    ...(refused ? { refused } : {}),
  };
  if (o.dryRun) {
    report.seconds = (performance.now() - started) / 1000;
    return report;
  }

  let done = 0;
  const total = report.uploaded + written.length + plan.deletes.length;
  await runPool(plan.uploads, o.concurrency ?? 16, async (object) => {
    const body = await readLocal(o.dist, object);
    // The bytes sent are the bytes hashed: a build writing the tree meanwhile stops the deploy.
    if (createHash("md5").update(body).digest("hex") !== object.headers.md5) {
      throw new Error(`${object.path} changed during the deploy (a build running?): nothing switched, run again`);
    }
    await withRetries(() => o.store.put(object.key, body, object.headers), retry);
    o.onProgress?.(++done, total);
  });
  // The listing before the switch that names it; the switch last: from here the new version is served.
  for (const w of written) {
    await withRetries(() => o.store.put(w.key, w.body, w.headers), retry);
    o.onProgress?.(++done, total);
  }
  report.switched = plan.switch !== null;
  for (let i = 0; i < plan.deletes.length; i += DELETE_BATCH) {
    const batch = report.deletes.slice(i, i + DELETE_BATCH);
    await withRetries(() => o.store.delete(batch), retry);
    done += batch.length;
    o.onProgress?.(done, total);
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}
