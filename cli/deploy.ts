// `dts deploy`: the built tree to an S3-compatible store or R2, by content hash (deploy/).

import type { Command } from "commander";
import { SWITCH_KEY } from "../builder/tree/bucket-layout.js";
import type { DeployReport } from "../deploy/deploy.js";
import { integer } from "./options.js";
import { progressBar } from "./progress.js";
import { bytes } from "./report.js";

/** Hugo's default cap: enough for a few documents gone, far below an emptied site. */
export const DEFAULT_MAX_DELETES = 256;

const n = (x: number): string => x.toLocaleString("en");

export function deployLines(r: DeployReport): string[] {
  const lines: string[] = [];
  if (r.dryRun) {
    for (const key of [...r.uploads, ...r.records]) lines.push(`+ ${key}`);
    for (const key of r.deletes) lines.push(`- ${key}`);
  }
  const would = r.dryRun ? "would upload" : "uploaded";
  const switched = r.dryRun
    ? r.records.includes(SWITCH_KEY)
      ? `would switch ${r.previous ?? "(nothing)"} -> ${r.version}`
      : `serves ${r.version} already`
    : r.switched
      ? `switched ${r.previous ?? "(nothing)"} -> ${r.version}`
      : `served ${r.version} already`;
  lines.push(
    `dts deploy: ${r.target}: ${would} ${n(r.uploaded)} (${bytes(r.uploadedBytes)}), ${n(r.unchanged)} unchanged (${bytes(r.unchangedBytes)}), ` +
      `${r.dryRun ? "would delete" : "deleted"} ${n(r.deleted)}; ${switched}; ${r.seconds.toFixed(1)} s`,
  );
  if (r.refused) lines.push(`dts deploy: a deploy would refuse: ${r.refused}`);
  return lines;
}

export function registerDeploy(program: Command, fail: (command: string, error: unknown) => never): void {
  program
    .command("deploy")
    .description("upload a built tree to S3-compatible object storage or R2, by content hash, switching versions atomically")
    .requiredOption("--to <url>", "s3://bucket[/prefix] or r2://bucket[/prefix]")
    .option("--dist <dir>", "the built tree", "dist")
    .option("--endpoint <url>", "the store's S3 endpoint (R2, GCS, MinIO, a university store); left out: AWS")
    .option("--region <region>", "the bucket's region (default: AWS_REGION, else us-east-1; R2: auto)")
    .option(
      "--max-deletes <n>",
      "most objects deleted; a deploy that would delete more is refused before writing anything",
      integer("--max-deletes", 0, 100000000),
      DEFAULT_MAX_DELETES,
    )
    .option("--force-deletes", "delete whatever the new tree does not name, beyond --max-deletes")
    .option("--dry-run", "print what would be uploaded and deleted, writing nothing")
    .option("--concurrency <n>", "uploads in flight at most", integer("--concurrency", 1, 256), 16)
    .option("--static-only", "only the DTS 1.0 static profile's files (--static-paths), for a bucket served as a website")
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      "\nCredentials come from the AWS SDK's usual places: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and\n" +
        "AWS_SESSION_TOKEN), AWS_PROFILE and ~/.aws, or a CI's web identity. For r2://, CLOUDFLARE_ACCOUNT_ID\n" +
        "(or --endpoint) names the account, and the keys are an R2 API token's.\n" +
        "Exit status: 0 deployed (or nothing to do), 1 failed or refused (the previous version is still served).",
    )
    .action(async (opts) => {
      try {
        // The SDK warns on every run that its releases of 2027 will need Node 22 (the lockfile's do not).
        process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
        // Loaded here only: the SDK takes 0.2 s and 25 MB, which no other command should pay.
        const [{ parseTarget, s3Store }, { deploy }] = await Promise.all([import("../deploy/s3-store.js"), import("../deploy/deploy.js")]);
        const store = s3Store(parseTarget(opts.to, { endpoint: opts.endpoint, region: opts.region }));
        const bar = opts.json ? null : progressBar(process.stderr, "objects");
        const report = await deploy({
          dist: opts.dist,
          store,
          maxDeletes: opts.maxDeletes,
          forceDeletes: Boolean(opts.forceDeletes),
          dryRun: Boolean(opts.dryRun),
          concurrency: opts.concurrency,
          staticOnly: Boolean(opts.staticOnly),
          onProgress: bar?.update,
        });
        bar?.done();
        if (opts.json) console.log(JSON.stringify(report, null, 2));
        else console.log(deployLines(report).join("\n"));
      } catch (e) {
        fail("deploy", e);
      }
    });
}
