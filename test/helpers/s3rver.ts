// A real S3-compatible server (s3rver, from npm) on loopback over a temporary folder, for the
// deploy suites; and a reader over what a deploy put in it.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import S3rver from "s3rver";
import { s3Store } from "../../deploy/s3-store.js";
import type { ObjectStore } from "../../deploy/store.js";
import { bucketStorage } from "../../server/adapters/bucket-storage.js";
import { openTree } from "../../server/open-tree.js";

/** s3rver's fixed credentials: any client must sign with them. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
export const BUCKET = "dts";

export interface RunningS3 {
  endpoint: string;
  /** Keys put (`ObjectCreated`) and removed (`ObjectRemoved`) as s3rver saw them, in order. */
  events: { kind: "put" | "delete"; key: string }[];
  store(prefix: string): ObjectStore;
  /** Calls `listener` on each event s3rver reports. */
  onEvent(listener: (e: { kind: "put" | "delete"; key: string }) => void): void;
  close(): Promise<void>;
}

export async function startS3(): Promise<RunningS3> {
  // The SDK's notice that its releases of 2027 need Node 22 (the lockfile's run on 20).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const directory = mkdtempSync(join(tmpdir(), "dts-s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const events: RunningS3["events"] = [];
  const listeners: ((e: RunningS3["events"][number]) => void)[] = [];
  server.on("event", (e) => {
    for (const r of e.Records) {
      const event = { kind: r.eventName.startsWith("ObjectCreated") ? ("put" as const) : ("delete" as const), key: r.s3.object.key };
      events.push(event);
      for (const l of listeners) l(event);
    }
  });
  return {
    endpoint,
    events,
    store: (prefix) => s3Store({ bucket: BUCKET, prefix, endpoint, region: "us-east-1" }, { credentials: S3RVER_CREDENTIALS }),
    onEvent: (l) => listeners.push(l),
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The reader (as the Worker runs it) over the tree deployed under `store`'s prefix. */
export function bucketApp(store: ObjectStore): Promise<Hono> {
  return openTree(bucketStorage(store.get, store.name), store.name);
}
