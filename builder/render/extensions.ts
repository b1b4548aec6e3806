// A node's `extensions` as JSON-LD must write them for their terms to expand to their IRIs:
// each prefix its keys use declared where the processor looks for it.

import type { CatalogNode, DcValue } from "../catalog.js";

type Extended = Pick<CatalogNode, "extensions" | "vocabularies">;

/**
 * Names the answers' contexts already define (terms and prefixes of 1-draft2 and 1.0): a corpus
 * prefix of the same name would redefine them, so keys under it are written as full IRIs.
 */
const RESERVED = new Set(
  (
    "dts dct dc tei hydra lang value id type title description member view first previous next last " +
    "collection collections document documents navigation resource ref start end level parent citeType " +
    "citeStructure citationTrees identifier dublinCore dublincore extensions download mediaTypes dtsVersion " +
    "totalItems totalParents totalChildren maxCiteDepth passage references"
  ).split(" "),
);

/** The node's prefixes that may be declared. */
function declarable(node: Extended): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [prefix, iri] of Object.entries(node.vocabularies ?? {})) if (!RESERVED.has(prefix)) out[prefix] = iri;
  return out;
}

/**
 * 1-draft2: the extensions object with its own `@context` declaring its prefixes (its context
 * maps `extensions` to a node, whose embedded context applies to its keys). `@vocab` is unset
 * there so that no key can pass for a Hydra term.
 */
export function extensionsObject(node: Extended): Record<string, unknown> | undefined {
  const vocabularies = declarable(node);
  const terms = extensionTerms(node, vocabularies);
  return terms && { "@context": { "@vocab": null, ...vocabularies }, ...terms };
}

/**
 * DTS 1.0 nests `extensions` into the node (`@nest`), where an embedded context is not read:
 * the prefixes of every node an answer shows go into the answer's own context, first one wins.
 */
export function answerVocabularies(nodes: Extended[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const node of nodes) {
    for (const [prefix, iri] of Object.entries(declarable(node))) if (!Object.hasOwn(out, prefix)) out[prefix] = iri;
  }
  return out;
}

/** A node's extension terms under the prefixes declared: a key whose prefix is bound otherwise, or not at all, is written in full. */
export function extensionTerms(node: Extended, declared: Record<string, string>): Record<string, DcValue[]> | undefined {
  if (!node.extensions || Object.keys(node.extensions).length === 0) return undefined;
  const out: Record<string, DcValue[]> = {};
  for (const [key, values] of Object.entries(node.extensions)) {
    const colon = key.indexOf(":");
    const prefix = colon > 0 ? key.slice(0, colon) : "";
    const own = Object.hasOwn(node.vocabularies ?? {}, prefix) ? node.vocabularies?.[prefix] : undefined;
    out[own !== undefined && declared[prefix] !== own ? own + key.slice(colon + 1) : key] = values;
  }
  return out;
}
