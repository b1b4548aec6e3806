// Every response the tree stores, as (request, response) pairs. The build writes them; the
// server computes any other request with the same renderers.

import type { Library, UnreadableSource } from "./catalog.js";
import type { CitedText } from "./citation/cited-text.js";
import { renderCollection } from "./render/collection.js";
import { renderDocument, withoutText } from "./render/document.js";
import { renderNavigation } from "./render/navigation.js";
import type { DtsResponse } from "./render/response.js";
import { type DocumentMethod, renderContext, renderDocs, renderEntry } from "./render/service.js";
import type { DtsRequest } from "./request.js";
import type { Site } from "./site.js";

export interface StoredResponse {
  request: DtsRequest;
  response: DtsResponse;
}

export function* serviceResponses(site: Site, methods: DocumentMethod[]): Generator<StoredResponse> {
  yield { request: { kind: "entry" }, response: renderEntry(site) };
  yield { request: { kind: "docs" }, response: renderDocs(site, methods) };
  yield { request: { kind: "context" }, response: renderContext(site) };
}

/**
 * Children (every page) and parents of every node (or of the nodes in `only`), and of the
 * root asked for without an id.
 */
export function* collectionResponses(site: Site, library: Library, only?: Set<string>): Generator<StoredResponse> {
  const ids: (string | undefined)[] = [undefined, ...library.nodes.keys()];
  for (const id of ids) {
    if (only && !only.has(id ?? library.rootId)) continue;
    const node = library.nodes.get(id ?? library.rootId)!;
    for (const nav of ["children", "parents"] as const) {
      const count = nav === "parents" ? node.parents.length : node.kind === "collection" ? node.children.length : 0;
      const request: DtsRequest = { kind: "collection", id, nav };
      yield { request, response: renderCollection(site, request, library) };
      const pages = Math.max(1, Math.ceil(count / site.pageSize));
      for (let page = 1; page <= pages; page++) {
        const paged: DtsRequest = { kind: "collection", id, nav, page };
        yield { request: paged, response: renderCollection(site, paged, library) };
      }
    }
  }
}

/**
 * The whole document, every passage, and navigation: the whole document at each `down`
 * and `max`, every unit with the default `down`, and every unit with children at each
 * deeper `down` and `max`.
 */
export function* documentResponses(site: Site, text: CitedText): Generator<StoredResponse> {
  const id = text.id;
  const doc = (ref?: string): StoredResponse => {
    const request = { kind: "document", id, ref } as const;
    return { request, response: renderDocument(site, request, text) };
  };
  const nav = (ref: string | undefined, down: number | "max"): StoredResponse => {
    const request = { kind: "navigation", id, ref, down } as const;
    return { request, response: renderNavigation(site, request, text) };
  };
  yield doc();
  const depth = text.index.maxCiteDepth;
  for (let down = 1; down <= Math.max(1, depth); down++) yield nav(undefined, down);
  yield nav(undefined, "max");
  for (const unit of text.units) {
    yield doc(unit.ref);
    yield nav(unit.ref, 1);
  }
  for (let u = 0; u < text.units.length; u++) {
    const unit = text.units[u];
    if (unit.level >= depth || text.unitsAt(unit.level + 1, u).length === 0) continue;
    for (let down = 2; down <= depth - unit.level; down++) yield nav(unit.ref, down);
    yield nav(unit.ref, "max");
  }
}

/** A record with no text (or a TEI file that cannot be read): the document and its navigation say so. */
export function* textlessResponses(site: Site, id: string, unreadable?: UnreadableSource): Generator<StoredResponse> {
  yield { request: { kind: "document", id }, response: withoutText(site, "document", id, unreadable) };
  yield { request: { kind: "navigation", id, down: 1 }, response: withoutText(site, "navigation", id, unreadable) };
}
