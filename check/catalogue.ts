// Walks the catalogue from the root collection: every page of every collection (through
// `view.next`), every member's own answer and its `nav=parents` answer, up to a bound.

import { type Ctx, isObject, readJson } from "./answers.js";
import type { Api } from "./api.js";

export interface Catalogue {
  /** Resources read, in the order they were found, with their full answers. */
  resources: Record<string, unknown>[];
  /** Collections and Resources read. */
  nodes: number;
  stoppedEarly: boolean;
}

export async function walkCatalogue(ctx: Ctx, api: Api): Promise<Catalogue> {
  const out: Catalogue = { resources: [], nodes: 0, stoppedEarly: false };
  const seen = new Set<string>();
  // Breadth first, a level of the hierarchy at a time, so a bound keeps the top of a large catalogue.
  let level: (string | undefined)[] = [undefined];
  while (level.length) {
    const next: string[] = [];
    const room = ctx.options.maxResources - out.nodes;
    if (level.length > room) {
      out.stoppedEarly = true;
      level = level.slice(0, room);
    }
    out.nodes += level.length;
    const read = await Promise.all(level.map((id) => readNode(ctx, api, id)));
    for (const node of read) {
      if (!node) continue;
      if (node.self["@type"] === "Resource") out.resources.push(node.self);
      for (const id of node.members) {
        if (!seen.has(id)) {
          seen.add(id);
          next.push(id);
        }
      }
    }
    if (out.stoppedEarly) break;
    level = next;
  }
  if (out.stoppedEarly) {
    ctx.findings.note(
      `stopped after ${out.nodes} collections and resources (--max-resources ${ctx.options.maxResources}); the rest was not read`,
    );
  }
  return out;
}

/** One node: all its pages, its members' keys, its parents. Returns the ids of its members. */
async function readNode(
  ctx: Ctx,
  api: Api,
  id: string | undefined,
): Promise<{ self: Record<string, unknown>; members: string[] } | undefined> {
  const url = api.collectionUrl(id);
  const self = await readJson(ctx, url);
  if (!self) return undefined;
  api.checkNode(ctx, self, url, true);
  const members: string[] = [];
  const pages = new Set<string>([url]);
  for (let page: Record<string, unknown> | undefined = self, at = url; page; ) {
    for (const m of Array.isArray(page.member) ? page.member : []) {
      if (!isObject(m)) continue;
      api.checkNode(ctx, m, at, false);
      if (typeof m["@id"] === "string") members.push(m["@id"]);
    }
    const nextPage = isObject(page.view) && typeof page.view.next === "string" ? new URL(page.view.next, at).href : undefined;
    if (!nextPage || pages.has(nextPage)) break;
    pages.add(nextPage);
    at = nextPage;
    page = await readJson(ctx, nextPage);
  }
  if (typeof self["@id"] === "string") {
    const parentsUrl = api.collectionUrl(self["@id"], "parents");
    const parents = await readJson(ctx, parentsUrl);
    if (parents) api.checkParents(ctx, self, parents, parentsUrl);
  }
  return { self, members };
}
