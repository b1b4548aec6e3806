// Collection endpoint: a collection with its members, a Resource with its full metadata,
// or the parents of either; paged by `page`.

import type { CatalogNode, Library } from "../catalog.js";
import { DtsError } from "../error.js";
import type { DtsRequest } from "../request.js";
import type { Site } from "../site.js";
import { collectionUrl, documentUrl, navigationUrl, passageTemplate } from "../urls.js";
import { extensionsObject } from "./extensions.js";
import { paginate } from "./pagination.js";
import { type DtsResponse, jsonError, jsonResponse, renderError } from "./response.js";

type CollectionQuery = Extract<DtsRequest, { kind: "collection" }>;

/** The JSON-LD object of a node; `full` adds what a Resource's own answer and members carry. */
function describe(site: Site, library: Library, node: CatalogNode): Record<string, unknown> {
  const children = node.kind === "collection" ? node.children.length : 0;
  const out: Record<string, unknown> = {
    "@id": node.id,
    "@type": node.kind === "collection" ? "Collection" : "Resource",
    title: node.title,
  };
  if (node.description) out.description = node.description;
  out.totalItems = children;
  out.totalChildren = children;
  out.totalParents = node.parents.length;
  if (node.kind === "resource") {
    const text = library.texts.get(node.id);
    out.maxCiteDepth = text?.maxCiteDepth ?? 0;
    out.passage = passageTemplate(site, node.id);
    if (text?.hasText) {
      out.references = navigationUrl(site, node.id);
      out.download = documentUrl(site, node.id);
      if (text.citeStructure.length) out.citeStructure = text.citeStructure;
    }
  }
  if (node.dublinCore && Object.keys(node.dublinCore).length) out.dublinCore = node.dublinCore;
  const extensions = extensionsObject(node);
  if (extensions) out.extensions = extensions;
  return out;
}

/**
 * The node a Collection request names (the root without an id) and the ids it lists (its
 * children, or with nav=parents its parents); or the 404 that says there is none. Both APIs'
 * Collection renderers start here.
 */
export function requestedNode(
  site: Site,
  q: { id?: string; nav: "children" | "parents" },
  library: Library,
): { id: string; node: CatalogNode; memberIds: string[] } | DtsResponse {
  const id = q.id ?? library.rootId;
  const node = library.nodes.get(id);
  if (!node) return jsonError(site, 404, `There is no collection or resource with the id "${id}".`);
  const memberIds = q.nav === "parents" ? node.parents : node.kind === "collection" ? node.children : [];
  return { id, node, memberIds };
}

export function renderCollection(site: Site, q: CollectionQuery, library: Library): DtsResponse {
  const found = requestedNode(site, q, library);
  if ("status" in found) return found;
  const { id, node, memberIds } = found;
  const body: Record<string, unknown> = { "@context": site.context, ...describe(site, library, node) };
  if (q.nav === "parents") body.totalItems = node.parents.length;

  const paged = paginate(memberIds, {
    pageSize: site.pageSize,
    page: q.page,
    id,
    viewType: "PartialCollectionView",
    pageUrl: (p) => collectionUrl(site, q.id, q.nav === "parents" ? "parents" : undefined, p),
  });
  if (paged instanceof DtsError) return renderError(site, "collection", paged);
  const shown = paged.shown;
  if (paged.view) body.view = paged.view;
  if (node.kind === "collection" || q.nav === "parents") {
    body.member = shown.map((m) => describe(site, library, library.nodes.get(m)!));
  }
  return jsonResponse(site, body);
}
