// A DTS 1.0 client as the official validator and other 1.0 clients behave: it starts from the
// Entry, expands the URI templates it is given (RFC 6570, with the `url-template` package) and
// requests exactly what they expand to. Every answer is checked against the shapes of the 1.0
// specification (the validator's JSON schemas: required properties and their types) and against
// what its parameters ask for.

import { XMLValidator } from "fast-xml-parser";
import { parseTemplate } from "url-template";
import { expect } from "vitest";

export const LD = "application/ld+json";
export const TEI = "application/tei+xml";

export interface Answer {
  url: string;
  status: number;
  type: string;
  body: string;
}

export type Vars = Record<string, string | number | undefined>;

/** What a template expands to with the given variables (undefined ones left out). */
export function expand(template: string, vars: Vars = {}): string {
  const defined: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) defined[k] = String(v);
  return parseTemplate(template).expand(defined);
}

/** The variable names of a template, as the validator lists them. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const m of template.matchAll(/\{[+#./;?&]?([^}]*)\}/g)) for (const v of m[1].split(",")) names.push(v.replace(/[*:].*$/, ""));
  return names;
}

const isString = (v: unknown): v is string => typeof v === "string";

export function checkEntry(json: Record<string, unknown>): void {
  for (const key of ["@context", "@id", "@type", "dtsVersion", "collection", "document", "navigation"])
    expect(isString(json[key]), key).toBe(true);
  expect(json.dtsVersion).toBe("1.0");
  expect(json["@type"]).toBe("EntryPoint");
  expect(templateVariables(json.collection as string)).toEqual(expect.arrayContaining(["id", "nav", "page"]));
  expect(templateVariables(json.navigation as string)).toEqual(expect.arrayContaining(["resource", "ref", "start", "end", "down", "tree"]));
  expect(templateVariables(json.document as string)).toEqual(expect.arrayContaining(["resource", "ref", "start", "end", "tree"]));
}

function checkCiteStructures(list: unknown): void {
  expect(Array.isArray(list)).toBe(true);
  for (const s of list as Record<string, unknown>[]) {
    expect(isString(s.citeType)).toBe(true);
    if (s.citeStructure !== undefined) checkCiteStructures(s.citeStructure);
  }
}

export function checkResource(r: Record<string, unknown>): void {
  expect(r["@type"]).toBe("Resource");
  for (const key of ["@id", "collection", "navigation", "document"]) expect(isString(r[key]), key).toBe(true);
  expect(templateVariables(r.collection as string)).toContain("nav");
  expect(templateVariables(r.navigation as string)).toEqual(expect.arrayContaining(["ref", "start", "end", "down", "tree"]));
  expect(templateVariables(r.document as string)).toEqual(expect.arrayContaining(["ref", "start", "end", "tree"]));
  expect(Array.isArray(r.citationTrees)).toBe(true);
  (r.citationTrees as Record<string, unknown>[]).forEach((t, i) => {
    expect(t["@type"]).toBe("CitationTree");
    // The first (default) tree has no identifier; the others must have one.
    if (i === 0) expect(t.identifier).toBeUndefined();
    else expect(isString(t.identifier)).toBe(true);
    if (t.citeStructure !== undefined) checkCiteStructures(t.citeStructure);
  });
}

export function checkCollection(json: Record<string, unknown>, top = true): void {
  for (const key of ["title", "@id"]) expect(isString(json[key]), key).toBe(true);
  expect(["Collection", "Resource"]).toContain(json["@type"]);
  expect(typeof json.totalParents).toBe("number");
  expect(typeof json.totalChildren).toBe("number");
  expect(isString(json.collection)).toBe(true);
  expect(json.totalItems, "totalItems is deprecated in 1.0").toBeUndefined();
  if (top) expect(json.dtsVersion).toBe("1.0");
  if (json["@type"] === "Resource") {
    checkResource(json);
    expect(json.mediaTypes).toEqual([TEI, "application/xml", "text/xml"]);
  }
  if (json.view !== undefined) {
    const view = json.view as Record<string, unknown>;
    expect(view["@type"]).toBe("Pagination");
    for (const key of ["@id", "first", "last"]) expect(isString(view[key])).toBe(true);
  }
  for (const m of (json.member ?? []) as Record<string, unknown>[]) checkCollection(m, false);
}

export function checkCitableUnit(u: Record<string, unknown>): void {
  expect(isString(u.identifier)).toBe(true);
  expect(u["@type"]).toBe("CitableUnit");
  expect(typeof u.level).toBe("number");
  expect(u.parent === null || isString(u.parent)).toBe(true);
  // Not required by the schema, but read unguarded by the validator's client.
  expect(isString(u.citeType)).toBe(true);
}

export function checkNavigation(json: Record<string, unknown>, url: string): void {
  expect(json["@type"]).toBe("Navigation");
  expect(json.dtsVersion).toBe("1.0");
  expect(json["@id"]).toBe(url);
  checkResource(json.resource as Record<string, unknown>);
  for (const key of ["ref", "start", "end"]) if (json[key] !== undefined) checkCitableUnit(json[key] as Record<string, unknown>);
  for (const m of (json.member ?? []) as Record<string, unknown>[]) checkCitableUnit(m);
}

type Unit = { identifier: string; level: number; parent: string | null };

/** Checks members against what `down` with a `ref` asks for (1.0 "Usage of down, ref, start and end"). */
export function checkMembers(all: Unit[], ref: Unit | undefined, down: number | undefined, members: Unit[] | undefined): void {
  const parentOf = new Map(all.map((u) => [u.identifier, u.parent]));
  const isBelow = (u: Unit, ancestor: string): boolean => {
    for (let p = u.parent; p !== null; p = parentOf.get(p) ?? null) if (p === ancestor) return true;
    return false;
  };
  if (down === undefined) {
    expect(members).toBeUndefined();
    return;
  }
  expect(members).toBeDefined();
  const ids = members!.map((m) => m.identifier);
  if (ref === undefined) {
    const max = down === -1 ? Number.POSITIVE_INFINITY : down;
    expect(ids).toEqual(all.filter((u) => u.level <= max).map((u) => u.identifier));
  } else if (down === 0) {
    expect(ids).toEqual(all.filter((u) => u.parent === ref.parent).map((u) => u.identifier));
  } else {
    const max = down === -1 ? Number.POSITIVE_INFINITY : ref.level + down;
    expect(ids).toEqual(
      all.filter((u) => u.identifier === ref.identifier || (isBelow(u, ref.identifier) && u.level <= max)).map((u) => u.identifier),
    );
  }
}

export interface WalkOptions {
  /**
   * Expect what only a server computes (Level 1) to be answered: ranges, and `down=0` (the
   * siblings of a unit). On a file server (the static profile) they are 404s.
   */
  ranges: boolean;
  get(url: string): Promise<Answer>;
  /** Ask about every nth unit only (and the first and last), on large corpora. Default 1. */
  every?: number;
}

export interface WalkResult {
  answers: Answer[];
  resources: string[];
  units: number;
  /** Answers to what only a server computes (ranges, down=0), checked as 200s or 404s by `ranges`. */
  ranges: Answer[];
  /** Units of the citation trees other than the default. */
  treeUnits: number;
}

/** Walks every collection (every page), and every Resource's units, passages and navigation. */
export async function walkV1(entryUrl: string, o: WalkOptions): Promise<WalkResult> {
  const answers: Answer[] = [];
  const ranges: Answer[] = [];
  const get = async (url: string, type: string): Promise<Answer> => {
    const a = await o.get(url);
    answers.push(a);
    expect(a.status, `${url}: ${a.body.slice(0, 300)}`).toBe(200);
    expect(a.type.split(";")[0], url).toBe(type);
    if (type === TEI) expect(XMLValidator.validate(a.body), url).toBe(true);
    return a;
  };
  const json = async (url: string): Promise<Record<string, unknown>> => JSON.parse((await get(url, LD)).body);
  const entry = await json(entryUrl);
  checkEntry(entry);
  const resources: string[] = [];
  let units = 0;
  let treeUnits = 0;
  const seen = new Set<string>();
  const visit = async (url: string): Promise<void> => {
    let next: string | undefined = url;
    while (next) {
      const page = await json(next);
      checkCollection(page);
      if (page["@type"] === "Resource") {
        if (!seen.has(page["@id"] as string)) {
          seen.add(page["@id"] as string);
          resources.push(page["@id"] as string);
          units += await walkResource(page);
        }
        return;
      }
      for (const m of (page.member ?? []) as Record<string, unknown>[]) {
        if (!seen.has(`c:${m["@id"]}`)) {
          seen.add(`c:${m["@id"]}`);
          await visit(expand(m.collection as string));
        }
      }
      next = (page.view as Record<string, string> | undefined)?.next;
    }
  };
  const walkResource = async (r: Record<string, unknown>): Promise<number> => {
    const nav = async (vars: Vars): Promise<Record<string, unknown>> => {
      const url = expand(r.navigation as string, vars);
      const body = await json(url);
      checkNavigation(body, url);
      return body;
    };
    // A record with no text yet has no citation tree and no document to read.
    if (!(r.citationTrees as unknown[]).length) return 0;
    await get(expand(r.document as string), TEI);
    const whole = await nav({ down: -1 });
    const all = whole.member as Unit[];
    checkMembers(all, undefined, -1, all);
    for (const down of [1, 2]) checkMembers(all, undefined, down, (await nav({ down })).member as Unit[]);
    const every = o.every ?? 1;
    for (const [i, unit] of all.entries()) {
      if (i % every !== 0 && i !== all.length - 1) continue;
      const siblings = expand(r.navigation as string, { ref: unit.identifier, down: 0 });
      if (!o.ranges) ranges.push(await o.get(siblings));
      for (const down of o.ranges ? [undefined, 0, 1, -1] : [undefined, 1, -1]) {
        const answer = await nav({ ref: unit.identifier, down });
        expect((answer.ref as Unit).identifier).toBe(unit.identifier);
        checkMembers(all, unit, down, answer.member as Unit[] | undefined);
      }
      const passage = await get(expand(r.document as string, { ref: unit.identifier }), TEI);
      expect(passage.body).toContain("<dts:wrapper ");
    }
    // Every other citation tree, by its identifier: its units, passages and their children.
    for (const tree of (r.citationTrees as { identifier?: string }[]).slice(1)) {
      const units = (await nav({ tree: tree.identifier, down: -1 })).member as Unit[];
      expect(units.length, `tree ${tree.identifier}`).toBeGreaterThan(0);
      for (const unit of units) {
        checkMembers(units, unit, 1, (await nav({ tree: tree.identifier, ref: unit.identifier, down: 1 })).member as Unit[]);
        const passage = await get(expand(r.document as string, { tree: tree.identifier, ref: unit.identifier }), TEI);
        expect(passage.body).toContain("<dts:wrapper ");
      }
      treeUnits += units.length;
    }
    const top = all.filter((u) => u.level === 1);
    if (top.length > 1) {
      const range = { start: top[0].identifier, end: top[top.length - 1].identifier };
      const urls = [
        expand(r.navigation as string, range),
        expand(r.navigation as string, { ...range, down: 1 }),
        expand(r.document as string, range),
      ];
      for (const url of urls) {
        if (o.ranges) ranges.push(await get(url, url === urls[2] ? TEI : LD));
        else ranges.push(await o.get(url));
      }
    }
    return all.length;
  };
  await visit(expand(entry.collection as string));
  return { answers, resources, units, ranges, treeUnits };
}

/** GET with the global fetch, the answer as text. */
export async function fetchAnswer(url: string): Promise<Answer> {
  // Once more on a closed socket: a kept-alive connection to a server stopped since (a test that
  // serves two trees on one port, as their site URL requires).
  const r = await fetch(url).catch(() => fetch(url));
  return { url, status: r.status, type: r.headers.get("content-type") ?? "", body: await r.text() };
}
