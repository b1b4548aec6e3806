// What every DTS 1.0 answer shares: the JSON-LD head, the Resource object with its templates
// and citation trees, and a citable unit as the Navigation endpoint describes it.

import { type TextSummary, textSummary } from "../../catalog.js";
import type { CitedText } from "../../citation/cited-text.js";
import type { CiteStructureJson } from "../../citation/scheme.js";
import { DtsError } from "../../error.js";
import type { Site } from "../../site.js";
import { nodeTemplates } from "../../v1/urls.js";
import { DTS_VERSION, JSONLD_TYPE, V1_CONTEXT } from "../../wire.js";
import type { DtsResponse } from "../response.js";

/**
 * `@context` and `dtsVersion`, first in every top-level object. The prefixes of the answer's
 * extension terms extend DTS's context, as 1.0 asks of implementers that use `extensions`.
 */
export function v1Head(vocabularies: Record<string, string> = {}): Record<string, unknown> {
  const context = Object.keys(vocabularies).length > 0 ? [V1_CONTEXT, vocabularies] : V1_CONTEXT;
  return { "@context": context, dtsVersion: DTS_VERSION };
}

/**
 * JSON without indentation: the static profile stores an answer per unit and `down`, and the
 * Navigation ones repeat the Resource, so spaces would be a third of a tree a file server holds.
 */
export function v1JsonResponse(value: unknown): DtsResponse {
  return { status: 200, type: JSONLD_TYPE, link: "", body: `${JSON.stringify(value)}\n` };
}

function citeStructures(list: CiteStructureJson[]): Record<string, unknown>[] {
  return list.map((s) => ({
    "@type": "CiteStructure",
    citeType: s.citeType,
    ...(s.citeStructure?.length ? { citeStructure: citeStructures(s.citeStructure) } : {}),
  }));
}

/** A text's citation trees, as 1.0 lists them: the default first, with no identifier, then the named ones. */
export function citationTrees(summary: Pick<TextSummary, "citeStructure" | "trees">): Record<string, unknown>[] {
  const tree = (citeStructure: CiteStructureJson[], identifier?: string): Record<string, unknown> => ({
    "@type": "CitationTree",
    ...(identifier !== undefined ? { identifier } : {}),
    citeStructure: citeStructures(citeStructure),
  });
  return [tree(summary.citeStructure), ...(summary.trees ?? []).map((t) => tree(t.citeStructure, t.identifier))];
}

const resources = new WeakMap<CitedText, { site: Site; value: Record<string, unknown> }>();

/**
 * The `resource` of a Navigation answer: what a client needs to go on from it. The same for
 * every answer about a document (a build renders thousands), so it is made once per site.
 */
export function resourceObject(site: Site, text: CitedText): Record<string, unknown> {
  const known = resources.get(text);
  if (known?.site === site) return known.value;
  const t = nodeTemplates(site, text.id);
  const value = {
    "@id": text.id,
    "@type": "Resource",
    collection: t.collection,
    navigation: t.navigation,
    document: t.document,
    citationTrees: citationTrees(textSummary(text.index)),
  };
  resources.set(text, { site, value });
  return value;
}

/** A unit as a CitableUnit object. */
export function citableUnit(text: CitedText, u: number): Record<string, unknown> {
  const unit = text.units[u];
  return {
    identifier: unit.ref,
    "@type": "CitableUnit",
    level: unit.level,
    parent: unit.parent < 0 ? null : text.units[unit.parent].ref,
    citeType: unit.citeType,
  };
}

/** The text as one of its citation trees cites it: the default without `tree`; an error when it has no such tree. */
export function chooseTree(text: CitedText, tree: string | undefined): CitedText | DtsError {
  if (tree === undefined) return text;
  const chosen = text.tree(tree);
  if (chosen) return chosen;
  const names = text.treeIdentifiers().map((t) => `"${t}"`);
  return new DtsError(
    404,
    `The document "${text.id}" has no citation tree "${tree}". ` +
      (names.length
        ? `Its other trees are ${names.join(", ")}; leave tree out for the default.`
        : "It has only its default tree: leave tree out."),
  );
}
