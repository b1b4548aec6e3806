// The DTS 1.0 client: every URL is one of the Entry's URI templates expanded (RFC 6570), so
// the same code reads a server (query style) and the static profile's files (path style).
// 1.0 sends no Link header: a passage's neighbours come from the Navigation answers' units.

import { parseTemplate } from "url-template";
import { type CollectionPage, type DtsApi, get, type Passage, readCollectionPage, type Unit } from "./api.js";

export interface V1Entry {
  entryUrl: string;
  collection: string;
  navigation: string;
  document: string;
}

interface CitableUnit {
  identifier: string;
  level: number;
  parent?: string | null;
  citeType?: string;
}

interface NavAnswer {
  ref?: CitableUnit;
  member: CitableUnit[];
  depth: number;
}

type Vars = Record<string, string | number | undefined>;

export function readV1Entry(entryUrl: string, json: Record<string, unknown>): V1Entry {
  return { entryUrl, collection: String(json.collection), navigation: String(json.navigation), document: String(json.document) };
}

/** How many levels a citation tree has (its nested citeStructure). */
function treeDepth(structures: unknown): number {
  if (!Array.isArray(structures) || structures.length === 0) return 0;
  return 1 + Math.max(...structures.map((s) => treeDepth((s as { citeStructure?: unknown }).citeStructure)));
}

export function v1Api(entry: V1Entry): DtsApi {
  const expand = (template: string, vars: Vars): string => {
    const defined = Object.fromEntries(
      Object.entries(vars)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    return new URL(parseTemplate(template).expand(defined), entry.entryUrl).href;
  };
  const navigations = new Map<string, Promise<NavAnswer>>();
  const navigation = (id: string, ref: string | undefined, down?: number): Promise<NavAnswer> => {
    const key = JSON.stringify([id, ref, down]);
    let answer = navigations.get(key);
    if (!answer) {
      answer = (async () => {
        const json = (await (await get(expand(entry.navigation, { resource: id, ref, down }), "application/ld+json")).json()) as {
          ref?: CitableUnit;
          member?: CitableUnit[];
          resource?: { citationTrees?: { citeStructure?: unknown }[] };
        };
        const depth = treeDepth(json.resource?.citationTrees?.[0]?.citeStructure);
        return { ...(json.ref ? { ref: json.ref } : {}), member: json.member ?? [], depth };
      })();
      answer.catch(() => navigations.delete(key));
      navigations.set(key, answer);
    }
    return answer;
  };
  const childUnits = async (id: string, ref: string | undefined): Promise<CitableUnit[]> => {
    const nav = await navigation(id, ref, 1);
    const level = (nav.ref?.level ?? 0) + 1;
    return nav.member.filter((m) => m.level === level);
  };
  /** The unit beside `unit` at its level in document order, across parents (as 1-draft2's prev/next). */
  const neighbour = async (id: string, unit: CitableUnit, step: 1 | -1): Promise<CitableUnit | undefined> => {
    const parent = unit.parent ?? undefined;
    const siblings = await childUnits(id, parent);
    const at = siblings.findIndex((s) => s.identifier === unit.identifier);
    if (at >= 0 && siblings[at + step]) return siblings[at + step];
    if (parent === undefined) return undefined;
    const parentUnit = (await navigation(id, parent)).ref;
    let beside = parentUnit && (await neighbour(id, parentUnit, step));
    while (beside) {
      const cousins = await childUnits(id, beside.identifier);
      if (cousins.length) return step === 1 ? cousins[0] : cousins[cousins.length - 1];
      beside = await neighbour(id, beside, step);
    }
    return undefined;
  };

  return {
    version: "1.0",
    async collection(id, page): Promise<CollectionPage> {
      const json = (await (await get(expand(entry.collection, { id, page }), "application/ld+json")).json()) as Record<string, unknown>;
      return readCollectionPage(json, page);
    },
    async children(id, ref): Promise<Unit[]> {
      const nav = await navigation(id, ref, 1);
      return (await childUnits(id, ref)).map((m) => ({
        ref: m.identifier,
        level: m.level,
        ...(m.citeType ? { citeType: m.citeType } : {}),
        hasChildren: m.level < nav.depth,
      }));
    },
    async passage(place): Promise<Passage> {
      const url = expand(entry.document, { resource: place.id, ref: place.ref, start: place.start, end: place.end });
      const response = await get(url, "application/tei+xml");
      const xml = await response.text();
      const passage: Passage = { place, url, xml, etag: response.headers.get("ETag"), up: { id: place.id } };
      if (place.ref === undefined) return passage;
      const unit = (await navigation(place.id, place.ref)).ref;
      if (!unit) return passage;
      if (unit.parent) passage.up = { id: place.id, ref: unit.parent };
      const [prev, next] = await Promise.all([neighbour(place.id, unit, -1), neighbour(place.id, unit, 1)]);
      if (prev) passage.prev = { id: place.id, ref: prev.identifier };
      if (next) passage.next = { id: place.id, ref: next.identifier };
      return passage;
    },
  };
}
