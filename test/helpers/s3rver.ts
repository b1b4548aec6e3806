// A real S3-compatible server (s3rver, from npm, in a child process) on loopback over a temporary folder, for the
// deploy suites; and a reader over what a deploy put in it.

import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { s3Store } from "../../deploy/s3-store.js";
import type { ObjectStore } from "../../deploy/store.js";
import { bucketStorage } from "../../server/adapters/bucket-storage.js";
import { openTree } from "../../server/open-tree.js";
import { PROJECT } from "./tree.js";

/** s3rver's fixed credentials: any client must sign with them. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
export const BUCKET = "dts";

export interface RunningS3 {
  endpoint: string;
  /** Keys put (`ObjectCreated`) and removed (`ObjectRemoved`) as s3rver saw them, in order. */
  events: { kind: "put" | "delete"; key: string }[];
  /** A store under `prefix`; `listPage` objects per listing page (S3's default: 1,000). */
  store(prefix: string, listPage?: number): ObjectStore;
  /** Calls `listener` on each event s3rver reports. */
  onEvent(listener: (e: { kind: "put" | "delete"; key: string }) => void): void;
  close(): Promise<void>;
}

export async function startS3(): Promise<RunningS3> {
  // The SDK's notice that its releases of 2027 need Node 22 (the lockfile's run on 20).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const directory = mkdtempSync(join(tmpdir(), "dts-s3rver-"));
  const child = fork(join(PROJECT, "test/helpers/s3rver-child.mjs"), [directory, BUCKET], {
    execArgv: ["--openssl-legacy-provider"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const events: RunningS3["events"] = [];
  const listeners: ((e: RunningS3["events"][number]) => void)[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.on("message", (m: { port?: number; event?: string; key?: string }) => {
      if (m.port) resolve(m.port);
      if (!m.event || !m.key) return;
      const event = { kind: m.event.startsWith("ObjectCreated") ? ("put" as const) : ("delete" as const), key: m.key };
      events.push(event);
      for (const l of listeners) l(event);
    });
    child.on("exit", (code) => reject(new Error(`s3rver exited (${code})`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    events,
    store: (prefix, listPage) =>
      s3Store({ bucket: BUCKET, prefix, endpoint, region: "us-east-1" }, { client: { credentials: S3RVER_CREDENTIALS }, listPage }),
    onEvent: (l) => listeners.push(l),
    close: async () => {
      const exited = new Promise((resolve) => child.on("exit", resolve));
      child.disconnect();
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The reader (as the Worker runs it) over the tree deployed under `store`'s prefix. */
export function bucketApp(store: ObjectStore): Promise<Hono> {
  return openTree(bucketStorage(store.get, store.name), store.name);
}
