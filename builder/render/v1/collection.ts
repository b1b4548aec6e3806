// DTS 1.0 Collection endpoint: a Collection with its members or a Resource with its templates
// and citation trees, or the parents of either; paged by `page`.

import type { CatalogNode, Library } from "../../catalog.js";
import { DtsError } from "../../error.js";
import type { Site } from "../../site.js";
import type { V1Request } from "../../v1/request.js";
import { nodeTemplates, v1Url } from "../../v1/urls.js";
import { requestedNode } from "../collection.js";
import { answerVocabularies, extensionTerms } from "../extensions.js";
import { paginate } from "../pagination.js";
import { type DtsResponse, renderError } from "../response.js";
import { citationTrees, v1Head, v1JsonResponse } from "./common.js";
import { MEDIA_TYPES } from "./document.js";

type CollectionQuery = Extract<V1Request, { kind: "v1-collection" }>;

function describe(site: Site, library: Library, node: CatalogNode, vocabularies: Record<string, string>): Record<string, unknown> {
  const t = nodeTemplates(site, node.id);
  const out: Record<string, unknown> = {
    "@id": node.id,
    "@type": node.kind === "collection" ? "Collection" : "Resource",
    title: node.title,
  };
  if (node.description) out.description = node.description;
  out.totalParents = node.parents.length;
  out.totalChildren = node.kind === "collection" ? node.children.length : 0;
  if (node.dublinCore && Object.keys(node.dublinCore).length) out.dublinCore = node.dublinCore;
  const extensions = extensionTerms(node, vocabularies);
  if (extensions) out.extensions = extensions;
  out.collection = t.collection;
  if (node.kind === "resource") {
    const text = library.texts.get(node.id);
    out.navigation = t.navigation;
    out.document = t.document;
    out.citationTrees = text?.hasText ? citationTrees(text) : [];
    out.mediaTypes = MEDIA_TYPES;
    if (text?.hasText) out.download = v1Url(site, { kind: "v1-document", resource: node.id });
  }
  return out;
}

export function renderV1Collection(site: Site, q: CollectionQuery, library: Library): DtsResponse {
  const found = requestedNode(site, q, library);
  if ("status" in found) return found;
  const { id, node, memberIds } = found;
  const paged = paginate(memberIds, {
    pageSize: site.pageSize,
    page: q.page,
    id,
    viewType: "Pagination",
    pageUrl: (p) => v1Url(site, { ...q, page: p }),
  });
  if (paged instanceof DtsError) return renderError(site, "v1-collection", paged);
  const members = node.kind === "collection" || q.nav === "parents" ? paged.shown.map((m) => library.nodes.get(m)!) : null;
  const vocabularies = answerVocabularies([node, ...(members ?? [])]);
  const body: Record<string, unknown> = { ...v1Head(vocabularies), ...describe(site, library, node, vocabularies) };
  if (paged.view) body.view = paged.view;
  if (members) body.member = members.map((m) => describe(site, library, m, vocabularies));
  return v1JsonResponse(body);
}
