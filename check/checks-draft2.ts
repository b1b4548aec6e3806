// The 1-draft2 API as the crawl sees it: routes from the EntryPoint with query parameters
// (id, ref, start, end, down, nav), the keys SPEC.md requires, the `fragment` wrapper.

import { DTS_NS } from "../builder/wire.js";
import { type Ctx, checkNodeKeys, missingKeys } from "./answers.js";
import type { Api, Selection, Unit } from "./api.js";

/** An id no service holds, for the error probes. */
export const UNKNOWN_ID = "urn:dts-check:no-such-id";

/** SPEC.md rule 1: what every member carries; the answer for a node adds `@context`. */
const MEMBER_KEYS = {
  "@id": "string",
  "@type": "string",
  title: "string",
  totalItems: "number",
  totalParents: "number",
  totalChildren: "number",
} as const;

/** The 1-draft2 API behind an EntryPoint answer read at `entryUrl`; undefined when it names no routes. */
export function draft2Api(entryUrl: string, entry: Record<string, unknown>): Api | undefined {
  const route = (key: string): string | undefined =>
    typeof entry[key] === "string" ? new URL(entry[key] as string, entryUrl).href : undefined;
  const collection = route("collection");
  const navigation = route("navigation");
  const document = route("document");
  if (!collection || !navigation || !document) return undefined;
  const withQuery = (base: string, params: Record<string, string | undefined>): string => {
    const url = new URL(base);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    return url.href;
  };

  return {
    version: "1-draft2",
    wrapper: { ns: DTS_NS, local: "fragment" },
    collectionUrl: (id, nav) => withQuery(collection, { id, nav }),
    checkNode(ctx: Ctx, node, url, top) {
      const keys: Record<string, "string" | "number"> = { ...MEMBER_KEYS };
      if (top) keys["@context"] = "string";
      if (top && node["@type"] === "Resource") keys.maxCiteDepth = "number";
      checkNodeKeys(ctx, node, keys, url, top);
      if (top && node.view !== undefined) {
        const view = node.view as Record<string, unknown>;
        ctx.findings.expect(view["@type"] === "PartialCollectionView" && typeof view["@id"] === "string", "collection-view", url, {
          expected: "view with @id and @type PartialCollectionView",
          got: JSON.stringify(view).slice(0, 200),
        });
      }
    },
    checkParents(ctx, node, parents, url) {
      const members = Array.isArray(parents.member) ? parents.member.length : 0;
      ctx.findings.expect(parents.totalItems === node.totalParents && members === node.totalParents, "nav-parents", url, {
        expected: `totalItems and the member count equal to the node's totalParents (${node.totalParents})`,
        got: `totalItems ${parents.totalItems}, ${members} members`,
      });
    },
    readable: (resource) => Number(resource.maxCiteDepth) > 0,
    depth: (resource) => Number(resource.maxCiteDepth),
    navigationUrl: (id, down, parent) => withQuery(navigation, { id, ref: parent, down: String(down) }),
    checkNavigation(ctx, json, url) {
      const wrong = missingKeys(json, { "@context": "string", "@id": "string", maxCiteDepth: "number", level: "number", member: "array" });
      const badMembers = ((json.member ?? []) as Record<string, unknown>[]).filter(
        (m) => typeof m.ref !== "string" && typeof m.start !== "string",
      );
      if (badMembers.length) wrong.push(`${badMembers.length} members without ref`);
      ctx.findings.expect(wrong.length === 0, "navigation-keys", url, {
        expected: "@context, @id, maxCiteDepth, level, member [{ref, level}]",
        got: wrong.join(", "),
      });
    },
    units: (json, level) =>
      ((json.member ?? []) as Record<string, unknown>[])
        .filter((m) => typeof m.ref === "string" && (m.level === undefined || m.level === level))
        .map((m): Unit => ({ ref: m.ref as string, level })),
    documentUrl: (id, selection?: Selection) => withQuery(document, { id, ...selection }),
    errorProbes: () => [
      { endpoint: "collection", url: withQuery(collection, { id: UNKNOWN_ID }) },
      { endpoint: "navigation", url: withQuery(navigation, { id: UNKNOWN_ID }) },
      { endpoint: "document", url: withQuery(document, { id: UNKNOWN_ID }) },
    ],
    strictErrors: true,
    passageLinks: ["http://www.w3.org/ns/hydra/core#apiDocumentation", "up", "first", "last", "contents", "collection"],
  };
}
