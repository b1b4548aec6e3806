// The stored responses of a built tree, each with the request it answers, read back from the
// tree itself (catalogue, citation indexes, manifests). Host rules are generated from this
// list, so they name exactly the files `requestToPath` gives and the manifests record.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseOr, readJsonOr, readTextOr } from "../read-files.js";
import type { DtsRequest } from "../request.js";
import { type FolderContents, readFolder } from "../tree/folder-store.js";
import { CATALOG_FILE, documentFolder, INDEX_FILE, MANIFEST, requestToPath, splitTreePath } from "../tree/layout.js";
import type { PackedEntry } from "../tree/packed-folder.js";
import { indexFromJson, libraryFromJson } from "../tree/stored-data.js";

export interface StoredEntry {
  request: DtsRequest;
  /** Tree-relative path, as `requestToPath` gives it. */
  path: string;
  entry: PackedEntry;
}

/**
 * Every stored response of the tree at `root`, one document at a time (a large corpus has
 * hundreds of thousands). Requests are enumerated from the catalogue and the indexes and kept
 * only when the manifest of their folder lists their file, so a request the build did not
 * store is never named (it goes to the dynamic reader instead).
 */
export function* storedEntries(root: string): Generator<StoredEntry> {
  const catalog = readFileSync(join(root, CATALOG_FILE), "utf8");
  const library = libraryFromJson(catalog);
  // A small cache: the requests of one document share two folders.
  const manifests = new Map<string, FolderContents | null>();
  const lookup = (request: DtsRequest): StoredEntry | null => {
    const path = requestToPath(request);
    if (path === null) return null;
    const { folder, name } = splitTreePath(path);
    let manifest = manifests.get(folder);
    if (manifest === undefined) {
      if (manifests.size > 8) manifests.clear();
      manifest = readFolder(root, folder);
      manifests.set(folder, manifest);
    }
    const entry = manifest?.entries[name];
    return entry ? { request, path, entry } : null;
  };
  function* keep(requests: Iterable<DtsRequest>): Generator<StoredEntry> {
    for (const r of requests) {
      const found = lookup(r);
      if (found) yield found;
    }
  }

  yield* keep([{ kind: "entry" }, { kind: "docs" }, { kind: "context" }]);

  for (const id of [undefined, ...library.nodes.keys()]) {
    for (const nav of ["children", "parents"] as const) {
      yield* keep([{ kind: "collection", id, nav }]);
      // Pages run from 1 until the manifest has no more.
      for (let page = 1; ; page++) {
        const found = lookup({ kind: "collection", id, nav, page });
        if (!found) break;
        yield found;
      }
    }
  }

  for (const node of library.nodes.values()) {
    if (node.kind !== "resource") continue;
    const id = node.id;
    yield* keep([{ kind: "document", id }]);
    const index = library.texts.get(id)?.hasText ? readIndex(root, id) : null;
    if (!index) {
      yield* keep([{ kind: "navigation", id, down: 1 }]);
      continue;
    }
    const depth = index.maxCiteDepth;
    const downs = (from: number): (number | "max")[] => [...Array.from({ length: Math.max(1, depth - from) }, (_, i) => i + 1), "max"];
    yield* keep(downs(0).map((down) => ({ kind: "navigation", id, down }) as DtsRequest));
    for (const unit of index.units) yield* keep([{ kind: "document", id, ref: unit.ref }]);
    for (const unit of index.units) {
      yield* keep(downs(unit.level).map((down) => ({ kind: "navigation", id, ref: unit.ref, down }) as DtsRequest));
    }
  }
}

function readIndex(root: string, id: string): ReturnType<typeof indexFromJson> | null {
  return parseOr(readTextOr(join(root, documentFolder(id), INDEX_FILE), ""), indexFromJson);
}
