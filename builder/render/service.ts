// The service's own documents: the entry point, the Hydra API documentation, and a valid
// JSON-LD context with every term the responses use.

import type { Site } from "../site.js";
import { collectionRoute, docsUrl, documentRoute, entryUrl, navigationRoute } from "../urls.js";
import { DTS_NS, JSONLD_TYPE, TEI_NS, TEI_TYPE } from "../wire.js";
import { OPEN_RANGE } from "./messages.js";
import { type DtsResponse, jsonResponse } from "./response.js";

export function renderEntry(site: Site): DtsResponse {
  return jsonResponse(site, {
    "@context": site.context,
    "@id": entryUrl(site),
    "@type": "EntryPoint",
    collection: collectionRoute(site),
    document: documentRoute(site),
    navigation: navigationRoute(site),
    // Aliases read by many existing clients.
    collections: collectionRoute(site),
    documents: documentRoute(site),
  });
}

/** HTTP methods the Document endpoint accepts; writes are listed only when enabled. */
export type DocumentMethod = "GET" | "POST" | "PUT" | "DELETE";

const NO_OPEN_RANGE = "needs both start and end: no open range";

const OPERATIONS: Record<
  DocumentMethod,
  { title: string; description?: string; expects?: string; returns: string; statusCodes: number[] }
> = {
  GET: {
    title: "Read a whole document, one passage (ref) or a range (start, end)",
    description: `A range: ${OPEN_RANGE}.`,
    returns: TEI_TYPE,
    // 409: the document's TEI file is not well-formed XML.
    statusCodes: [200, 400, 404, 409],
  },
  POST: {
    title: "Create a document's first text, or insert passages after or before one (after, before)",
    expects: TEI_TYPE,
    returns: TEI_TYPE,
    statusCodes: [201, 400, 401, 403, 404, 409, 413, 415, 422],
  },
  PUT: {
    title: "Replace one passage (ref)",
    expects: TEI_TYPE,
    returns: TEI_TYPE,
    statusCodes: [200, 400, 401, 403, 404, 409, 413, 415, 422],
  },
  DELETE: {
    title: "Remove one passage (ref) or a range (start, end)",
    description: `A range ${NO_OPEN_RANGE}, so that a deletion never removes more than it names.`,
    returns: TEI_TYPE,
    statusCodes: [200, 400, 401, 403, 404, 409],
  },
};

function operation(method: DocumentMethod, site: Site): Record<string, unknown> {
  const o = OPERATIONS[method];
  const out: Record<string, unknown> = { "@type": "Operation", method, title: o.title };
  if (o.description) out.description = o.description;
  if (o.expects) out.expects = o.expects;
  out.returns = o.returns;
  out.possibleStatus = o.statusCodes.map((statusCode) => ({ "@type": "Status", statusCode }));
  out.target = `${documentRoute(site)}{?id,ref,start,end,after,before,token,format}`;
  return out;
}

export function renderDocs(site: Site, methods: DocumentMethod[] = ["GET"]): DtsResponse {
  const get = (route: string, title: string, description?: string): Record<string, unknown> => ({
    "@type": "Operation",
    method: "GET",
    title,
    ...(description ? { description } : {}),
    returns: JSONLD_TYPE,
    target: route,
  });
  return jsonResponse(site, {
    "@context": site.context,
    "@id": docsUrl(site),
    "@type": "ApiDocumentation",
    title: "Distributed Text Services API (1-draft2)",
    description:
      "Collection, Navigation and Document endpoints of the DTS specification, version 1-draft2. " +
      "The Document endpoint's supported operations are listed under supportedOperations, one per HTTP method.",
    entrypoint: entryUrl(site),
    supportedOperations: methods.map((m) => operation(m, site)),
    supportedClass: [
      {
        "@id": `${DTS_NS}Document`,
        "@type": "Class",
        title: "Document endpoint",
        supportedOperation: methods.map((m) => operation(m, site)),
      },
      {
        "@id": `${DTS_NS}Collection`,
        "@type": "Class",
        title: "Collection endpoint",
        supportedOperation: [get(`${collectionRoute(site)}{?id,page,nav}`, "Read a collection or a resource's metadata")],
      },
      {
        "@id": `${DTS_NS}Navigation`,
        "@type": "Class",
        title: "Navigation endpoint",
        supportedOperation: [
          get(
            `${navigationRoute(site)}{?id,ref,start,end,down,groupBy,max,page}`,
            "List the citable units of a document",
            `A range ${NO_OPEN_RANGE} (unlike the Document endpoint's GET, where ${OPEN_RANGE}).`,
          ),
        ],
      },
    ],
  });
}

/**
 * The tree's JSON-LD context, which every JSON-LD answer of 1-draft2 names (errors and the API
 * documentation too): the terms of the published 1.0.0draft-2 file, valid, and those it lacks,
 * so that expansion keeps every key. Hydra is the default vocabulary, with the https address the
 * drafts use; Dublin Core keys expand under DCMI terms; `extensions` is a node whose own context
 * declares the prefixes of its keys (render/extensions.ts).
 */
export function renderContext(site: Site): DtsResponse {
  const dts = (term: string): string => `dts:${term}`;
  return jsonResponse(site, {
    "@context": {
      "@vocab": "https://www.w3.org/ns/hydra/core#",
      hydra: "https://www.w3.org/ns/hydra/core#",
      dc: "http://purl.org/dc/terms/",
      dct: "http://purl.org/dc/terms/",
      dts: DTS_NS,
      tei: TEI_NS,
      lang: "@language",
      value: "@value",
      dublinCore: { "@id": dts("dublinCore"), "@context": { "@vocab": "http://purl.org/dc/terms/" } },
      dublincore: { "@id": dts("dublincore"), "@context": { "@vocab": "http://purl.org/dc/terms/" } },
      extensions: { "@id": dts("extensions") },
      EntryPoint: dts("EntryPoint"),
      Collection: dts("Collection"),
      Resource: dts("Resource"),
      CitableUnit: dts("CitableUnit"),
      collection: { "@id": dts("collection"), "@type": "@id" },
      collections: { "@id": dts("collection"), "@type": "@id" },
      document: { "@id": dts("document"), "@type": "@id" },
      documents: { "@id": dts("document"), "@type": "@id" },
      navigation: { "@id": dts("navigation"), "@type": "@id" },
      totalParents: dts("totalParents"),
      totalChildren: dts("totalChildren"),
      maxCiteDepth: dts("maxCiteDepth"),
      citeDepth: dts("citeDepth"),
      // Sibling structures have no order that matters, and Draft-era clients (MyCapytain) read a
      // citeStructure as a set of nodes, not as an RDF list.
      citeStructure: dts("citeStructure"),
      citeType: dts("citeType"),
      level: dts("level"),
      ref: dts("ref"),
      start: dts("start"),
      end: dts("end"),
      parent: dts("parent"),
      passage: dts("passage"),
      references: { "@id": dts("references"), "@type": "@id" },
      download: { "@id": dts("download"), "@type": "@id" },
      view: "hydra:view",
      // Page links stay literals, as the draft-2 context (Hydra as @vocab) leaves them: clients
      // of the drafts (MyCapytain) read the page number from the value.
      first: "hydra:first",
      previous: "hydra:previous",
      next: "hydra:next",
      last: "hydra:last",
      PartialCollectionView: "hydra:PartialCollectionView",
      supportedOperations: { "@id": "hydra:supportedOperation", "@container": "@set" },
      entrypoint: { "@id": "hydra:entrypoint", "@type": "@id" },
    },
  });
}
