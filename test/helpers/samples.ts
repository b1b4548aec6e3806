// A sample of a built tree's requests of every kind, read from the tree itself (its catalogue
// and citation indexes): collection pages, whole documents, passages at every level, navigation
// at every depth, and what only `dts serve` computes (ranges, grouped and paged navigation,
// unknown references). Hosts are checked on it against `dts serve`.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DtsRequest } from "../../builder/request.js";
import type { Site } from "../../builder/site.js";
import { CATALOG_FILE, documentFolder, INDEX_FILE } from "../../builder/tree/layout.js";
import { indexFromJson, libraryFromJson } from "../../builder/tree/stored-data.js";
import { requestUrl } from "../../builder/urls.js";

/** Request targets for every `every`-th document of the tree at `dist`, and its collections. */
export function sampleRequests(dist: string, site: Site, every: number): string[] {
  const library = libraryFromJson(readFileSync(join(dist, CATALOG_FILE), "utf8"));
  const requests: DtsRequest[] = [
    { kind: "entry" },
    { kind: "collection", nav: "children" },
    { kind: "collection", nav: "children", page: 1 },
  ];
  const ids = [...library.nodes.keys()];
  ids.forEach((id, i) => {
    const node = library.nodes.get(id)!;
    if (node.kind === "collection" && i % every === 0) {
      requests.push(
        { kind: "collection", id, nav: "children" },
        { kind: "collection", id, nav: "parents" },
        { kind: "collection", id, nav: "children", page: 2 },
      );
    }
  });
  const resources = ids.filter((id) => library.nodes.get(id)!.kind === "resource");
  resources.forEach((id, i) => {
    if (i % every !== 0) return;
    requests.push({ kind: "document", id }, { kind: "navigation", id, down: 1 }, { kind: "navigation", id, down: "max" });
    if (!library.texts.get(id)?.hasText) return;
    const index = indexFromJson(readFileSync(join(dist, documentFolder(id), INDEX_FILE), "utf8"));
    for (let level = 1; level <= index.maxCiteDepth; level++) {
      const units = index.units.filter((u) => u.level === level);
      if (!units.length) continue;
      const picks = [units[0], units[Math.floor(units.length / 2)], units[units.length - 1]];
      for (const u of picks) {
        requests.push({ kind: "document", id, ref: u.ref }, { kind: "navigation", id, ref: u.ref, down: 1 });
        if (level < index.maxCiteDepth) requests.push({ kind: "navigation", id, ref: u.ref, down: "max" });
      }
      // Computed by dts serve: a range, grouped and paged navigation.
      if (units.length > 1) {
        requests.push({ kind: "document", id, start: units[0].ref, end: units[1].ref });
        requests.push({ kind: "navigation", id, start: units[0].ref, end: units[units.length - 1].ref, down: 0 });
      }
    }
    requests.push({ kind: "navigation", id, down: 1, groupBy: 3 }, { kind: "navigation", id, down: 1, max: 2, page: 2 });
    requests.push({ kind: "document", id, ref: "no-such-reference" });
  });
  const targets = requests.map((r) => requestUrl(site, r));
  // The same stored request as hand-written clients spell it.
  for (const id of resources.filter((_, i) => i % (every * 5) === 0))
    targets.push(`${site.basePath}/document?id=${encodeURIComponent(id)}`);
  return targets;
}
