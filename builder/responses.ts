// Every response the tree stores, as (request, response) pairs. The build writes them; the
// server computes any other request with the same renderers.

import type { Library, UnreadableSource } from "./catalog.js";
import { CitedText } from "./citation/cited-text.js";
import { renderCollection } from "./render/collection.js";
import { renderDocument, withoutText } from "./render/document.js";
import { renderNavigation } from "./render/navigation.js";
import type { DtsResponse } from "./render/response.js";
import { type DocumentMethod, renderContext, renderDocs, renderEntry } from "./render/service.js";
import { renderV1Collection } from "./render/v1/collection.js";
import { chooseTree } from "./render/v1/common.js";
import { renderV1Document } from "./render/v1/document.js";
import { renderV1Entry } from "./render/v1/entry.js";
import { renderV1Navigation } from "./render/v1/navigation.js";
import type { DtsRequest } from "./request.js";
import { type Site, servesApi } from "./site.js";

export interface StoredResponse {
  request: DtsRequest;
  response: DtsResponse;
}

export function* serviceResponses(site: Site, methods: DocumentMethod[]): Generator<StoredResponse> {
  if (servesApi(site, "1.0")) yield { request: { kind: "v1-entry" }, response: renderV1Entry(site) };
  // Every API's JSON errors name it.
  yield { request: { kind: "context" }, response: renderContext(site) };
  if (!servesApi(site, "1-draft2")) return;
  yield { request: { kind: "entry" }, response: renderEntry(site) };
  yield { request: { kind: "docs" }, response: renderDocs(site, methods) };
}

/**
 * Children (every page) and parents of every node (or of the nodes in `only`), and of the
 * root asked for without an id.
 */
export function* collectionResponses(site: Site, library: Library, only?: Set<string>): Generator<StoredResponse> {
  // The nodes of `only` alone, not every node filtered: a build asks for all of them 64 at a time.
  const known = only ? [...only].filter((id) => library.nodes.has(id)) : [...library.nodes.keys()];
  const ids = known.flatMap((id): (string | undefined)[] => (id === library.rootId ? [undefined, id] : [id]));
  for (const id of ids) {
    const node = library.nodes.get(id ?? library.rootId)!;
    for (const nav of ["children", "parents"] as const) {
      const count = nav === "parents" ? node.parents.length : node.kind === "collection" ? node.children.length : 0;
      const pages = Math.max(1, Math.ceil(count / site.pageSize));
      for (let page = 0; page <= pages; page++) {
        if (servesApi(site, "1-draft2")) {
          const request: DtsRequest = { kind: "collection", id, nav, ...(page ? { page } : {}) };
          yield { request, response: renderCollection(site, request, library) };
        }
        if (servesApi(site, "1.0")) {
          const request: DtsRequest = { kind: "v1-collection", id, nav, ...(page ? { page } : {}) };
          yield { request, response: renderV1Collection(site, request, library) };
        }
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
  if (servesApi(site, "1.0")) yield* v1DocumentResponses(site, text);
  yield* draftDocumentResponses(site, text);
}

/**
 * DTS 1.0, for each citation tree: the whole document, every passage, and Navigation from the
 * root and from every unit at each `down` from 1 to the tree's depth (at least 2), -1 (the
 * bottom), and from every unit with no `down` (the unit alone). Not `down=0` (its siblings):
 * the same list for each of N siblings, N x N units for a book of N lines, so it is computed.
 */
function* v1DocumentResponses(site: Site, whole: CitedText): Generator<StoredResponse> {
  const resource = whole.id;
  const trees: [string | undefined, CitedText][] = [];
  for (const tree of [undefined, ...(whole.index.trees ?? []).map((t) => t.identifier)]) {
    const text = chooseTree(whole, tree);
    if (text instanceof CitedText) trees.push([tree, text]);
  }
  // Folder by folder (the writer writes each as the next begins): the documents, then navigation.
  yield { request: { kind: "v1-document", resource }, response: renderV1Document(site, { kind: "v1-document", resource }, whole) };
  for (const [tree, text] of trees) {
    for (const unit of text.units) {
      const request = { kind: "v1-document", resource, tree, ref: unit.ref } as const;
      yield { request, response: renderV1Document(site, request, whole) };
    }
  }
  for (const [tree, text] of trees) {
    const downs = [-1];
    for (let d = 1; d <= Math.max(2, text.index.maxCiteDepth); d++) downs.push(d);
    const nav = (ref: string | undefined, down: number | undefined): StoredResponse => {
      const request = { kind: "v1-navigation", resource, tree, ref, down } as const;
      return { request, response: renderV1Navigation(site, request, whole) };
    };
    for (const down of downs) yield nav(undefined, down);
    for (const unit of text.units) {
      yield nav(unit.ref, undefined);
      for (const down of downs) yield nav(unit.ref, down);
    }
  }
}

function* draftDocumentResponses(site: Site, text: CitedText): Generator<StoredResponse> {
  const id = text.id;
  const doc = (ref?: string): StoredResponse => {
    const request = { kind: "document", id, ref } as const;
    return { request, response: renderDocument(site, request, text) };
  };
  const nav = (ref: string | undefined, down: number | "max"): StoredResponse => {
    const request = { kind: "navigation", id, ref, down } as const;
    return { request, response: renderNavigation(site, request, text) };
  };
  // The whole document is the tree's copy of the source (ranges are cut from it): always stored.
  yield doc();
  if (!servesApi(site, "1-draft2")) return;
  // Folder by folder, as in 1.0: the passages, then navigation.
  for (const unit of text.units) yield doc(unit.ref);
  const depth = text.index.maxCiteDepth;
  for (let down = 1; down <= Math.max(1, depth); down++) yield nav(undefined, down);
  yield nav(undefined, "max");
  for (const unit of text.units) yield nav(unit.ref, 1);
  for (let u = 0; u < text.units.length; u++) {
    const unit = text.units[u];
    if (unit.level >= depth || text.unitsAt(unit.level + 1, u).length === 0) continue;
    for (let down = 2; down <= depth - unit.level; down++) yield nav(unit.ref, down);
    yield nav(unit.ref, "max");
  }
}

/** A record with no text (or a TEI file that cannot be read): the document and its navigation say so. */
export function* textlessResponses(site: Site, id: string, unreadable?: UnreadableSource): Generator<StoredResponse> {
  if (servesApi(site, "1.0")) {
    yield { request: { kind: "v1-document", resource: id }, response: withoutText(site, "document", id, unreadable) };
    yield { request: { kind: "v1-navigation", resource: id, down: 1 }, response: withoutText(site, "navigation", id, unreadable) };
  }
  yield { request: { kind: "document", id }, response: withoutText(site, "document", id, unreadable) };
  yield { request: { kind: "navigation", id, down: 1 }, response: withoutText(site, "navigation", id, unreadable) };
}
