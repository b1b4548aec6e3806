// DTS 1.0 as the crawl sees it: addresses from the Entry's URI templates (RFC 6570, expanded
// as clients do), the keys the 1.0 tables require, the `wrapper` element.

import { parseTemplate } from "url-template";
import { V1_WRAPPER_NS } from "../builder/wire.js";
import { type Ctx, checkNodeKeys, missingKeys } from "./answers.js";
import type { Api, Selection, Unit } from "./api.js";
import { UNKNOWN_ID } from "./checks-draft2.js";

type Vars = Record<string, string | undefined>;

/** Deepest Navigation level asked for when a Resource declares no citeStructure. */
const DEPTH_BOUND = 8;

/** A template's expansion with the defined variables, resolved against the Entry's URL. */
function expand(template: string, vars: Vars, base: string): string {
  const defined: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) defined[k] = v;
  return new URL(parseTemplate(template).expand(defined), base).href;
}

/** Levels of the deepest branch of a citeStructure list. */
function structureDepth(list: unknown): number {
  if (!Array.isArray(list) || list.length === 0) return 0;
  return 1 + Math.max(...list.map((s) => structureDepth((s as Record<string, unknown>).citeStructure)));
}

/** The 1.0 API behind an Entry read at `entryUrl`; undefined when its templates are missing. */
export function v1Api(entryUrl: string, entry: Record<string, unknown>): Api | undefined {
  const { collection, navigation, document } = entry;
  if (typeof collection !== "string" || typeof navigation !== "string" || typeof document !== "string") return undefined;

  return {
    version: "1.0",
    wrapper: { ns: V1_WRAPPER_NS, local: "wrapper" },
    collectionUrl: (id, nav) => expand(collection, { id, nav }, entryUrl),
    checkNode(ctx: Ctx, node, url, top) {
      const keys: Record<string, "string" | "number" | "array"> = {
        "@id": "string",
        "@type": "string",
        title: "string",
        totalParents: "number",
        collection: "string",
      };
      if (top) Object.assign(keys, { "@context": "string", dtsVersion: "string" });
      if (node["@type"] === "Collection") keys.totalChildren = "number";
      if (node["@type"] === "Resource") Object.assign(keys, { navigation: "string", document: "string" });
      if (top && node["@type"] === "Resource") keys.citationTrees = "array";
      checkNodeKeys(ctx, node, keys, url, top);
      if (top && node.view !== undefined) {
        const view = node.view as Record<string, unknown>;
        const bad = missingKeys(view, { "@id": "string", first: "string", last: "string" });
        if (view["@type"] !== "Pagination") bad.push(`@type (${JSON.stringify(view["@type"])})`);
        ctx.findings.expect(bad.length === 0, "collection-view", url, {
          expected: "a Pagination view: @id, @type, first, last",
          got: bad.join(", "),
        });
      }
    },
    checkParents(ctx, node, parents, url) {
      const members = Array.isArray(parents.member) ? parents.member.length : 0;
      ctx.findings.expect(members === node.totalParents, "nav-parents", url, {
        expected: `as many members as the node's totalParents (${node.totalParents})`,
        got: `${members} members`,
      });
    },
    readable: (resource) => {
      const trees = resource.citationTrees;
      return Array.isArray(trees) && structureDepth((trees[0] as Record<string, unknown> | undefined)?.citeStructure) > 0;
    },
    depth: (resource) =>
      structureDepth((resource.citationTrees as Record<string, unknown>[] | undefined)?.[0]?.citeStructure) || DEPTH_BOUND,
    navigationUrl: (id, down, parent) => expand(navigation, { resource: id, ref: parent, down: String(down) }, entryUrl),
    checkNavigation(ctx, json, url) {
      const wrong = missingKeys(json, {
        "@context": "string",
        "@id": "string",
        "@type": "string",
        dtsVersion: "string",
        resource: "object",
      });
      if (json["@type"] !== "Navigation") wrong.push(`@type (${JSON.stringify(json["@type"])})`);
      const badUnits = ((json.member ?? []) as Record<string, unknown>[]).filter(
        (m) => missingKeys(m, { identifier: "string", "@type": "string", level: "number" }).length > 0 || m.parent === undefined,
      );
      if (badUnits.length) wrong.push(`${badUnits.length} CitableUnits without identifier, @type, level or parent`);
      ctx.findings.expect(wrong.length === 0, "navigation-keys", url, {
        expected: "@context, @id, @type Navigation, dtsVersion, resource; members with identifier, @type, level, parent",
        got: wrong.join(", "),
      });
    },
    units: (json, level) =>
      ((json.member ?? []) as Record<string, unknown>[])
        .filter((m) => typeof m.identifier === "string" && m.level === level)
        .map((m): Unit => ({ ref: m.identifier as string, level })),
    documentUrl: (id, selection?: Selection) => expand(document, { resource: id, ...selection }, entryUrl),
    errorProbes: () => [
      { endpoint: "collection", url: expand(collection, { id: UNKNOWN_ID }, entryUrl) },
      { endpoint: "navigation", url: expand(navigation, { resource: UNKNOWN_ID, down: "1" }, entryUrl) },
      { endpoint: "document", url: expand(document, { resource: UNKNOWN_ID }, entryUrl) },
    ],
    strictErrors: false,
    passageLinks: ["collection"],
  };
}
