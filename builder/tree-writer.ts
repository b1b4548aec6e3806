// Writes responses into the static tree, each at the path the one request-to-path function
// gives, and a manifest of statuses and headers per folder.

import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { DtsResponse } from "./render/response.js";
import { MANIFEST, requestToPath } from "./request.js";
import type { Stored } from "./responses.js";

export interface ManifestEntry {
  status: number;
  type: string;
  link: string;
}

export type Manifest = Record<string, ManifestEntry>;

export class TreeWriter {
  private readonly manifests = new Map<string, Manifest>();
  private readonly made = new Set<string>();
  files = 0;
  bytes = 0;

  constructor(readonly root: string) {}

  write(stored: Stored): void {
    const path = requestToPath(stored.request);
    if (path === null) throw new Error(`request ${JSON.stringify(stored.request)} is not stored`);
    this.writeFile(path, stored.response);
  }

  writeFile(path: string, response: DtsResponse): void {
    const folder = dirname(path);
    const full = join(this.root, path);
    if (!this.made.has(folder)) {
      mkdirSync(join(this.root, folder), { recursive: true });
      this.made.add(folder);
    }
    const body = response.body;
    writeFileSync(full, body);
    this.files++;
    this.bytes += typeof body === "string" ? Buffer.byteLength(body) : body.length;
    let manifest = this.manifests.get(folder);
    if (!manifest) this.manifests.set(folder, (manifest = {}));
    manifest[basename(path)] = { status: response.status, type: response.type, link: response.link };
  }

  /** Writes a file that is not a response (an index, the catalogue): no manifest entry. */
  writeData(path: string, data: string | Uint8Array): void {
    const folder = dirname(path);
    if (!this.made.has(folder)) {
      mkdirSync(join(this.root, folder), { recursive: true });
      this.made.add(folder);
    }
    writeFileSync(join(this.root, path), data);
    this.files++;
    this.bytes += typeof data === "string" ? Buffer.byteLength(data) : data.length;
  }

  /** Writes the manifests of the folders written so far, and forgets them. */
  flush(): void {
    for (const [folder, manifest] of this.manifests) {
      const path = folder === "." ? MANIFEST : `${folder}/${MANIFEST}`;
      this.writeData(path, JSON.stringify(manifest));
    }
    this.manifests.clear();
  }
}
