// `dts serve`: the reader over a tree on the local disk, on Node's HTTP server.

import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Site } from "../builder/site.js";
import { diskStorage } from "./disk-storage.js";
import { TreeReader, readerApp } from "./reader.js";

export interface ServeOptions {
  dist: string;
  site: Site;
  port: number;
  host: string;
}

export interface RunningServer {
  url: string;
  reader: TreeReader;
  close(): Promise<void>;
}

export function startServer(options: ServeOptions): Promise<RunningServer> {
  const reader = new TreeReader({ site: options.site, storage: diskStorage(options.dist) });
  const app = readerApp(reader);
  return new Promise((resolvePromise, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, (info: AddressInfo) => {
      const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
      resolvePromise({
        url: `http://${host}:${info.port}`,
        reader,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
    server.on("error", reject);
  });
}
