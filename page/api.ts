// What the page needs of a DTS API, whichever version answers: two clients implement it
// (draft2.ts, v1.ts), both over plain `fetch` of the public endpoints.

import type { Place } from "./route.js";

/** A Dublin Core value: a string, or a string in a language. */
export interface Text {
  value: string;
  lang?: string;
}

export interface Member {
  id: string;
  kind: "Collection" | "Resource";
  title: string;
  description?: string;
  /** Members of a collection. */
  totalChildren: number;
  dublinCore: Record<string, Text[]>;
}

export interface CollectionPage {
  node: Member;
  members: Member[];
  page: number;
  previous?: number;
  next?: number;
  last?: number;
}

export interface Unit {
  ref: string;
  level: number;
  citeType?: string;
  hasChildren: boolean;
}

export interface Passage {
  place: Place;
  /** The Document endpoint's URL of this passage (absolute). */
  url: string;
  xml: string;
  etag: string | null;
  prev?: Place;
  next?: Place;
  up?: Place;
}

export interface DtsApi {
  version: "1-draft2" | "1.0";
  collection(id: string | undefined, page?: number): Promise<CollectionPage>;
  children(id: string, ref?: string): Promise<Unit[]>;
  passage(place: Place): Promise<Passage>;
}

/** An answer other than 2xx, with the description the API gave. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

/** GET of a URL; a non-2xx answer is an ApiError carrying the body's description. */
export async function get(url: string, accept: string): Promise<Response> {
  const response = await fetch(url, { headers: { Accept: accept } });
  if (!response.ok) throw await apiError(response);
  return response;
}

export async function apiError(response: Response): Promise<ApiError> {
  const body = await response.text();
  return new ApiError(response.status, describe(body) ?? `${response.status} ${response.statusText}`);
}

/** The description of an error body: Hydra Status JSON, or the XML `error` element. */
export function describe(body: string): string | null {
  try {
    const json = JSON.parse(body) as { description?: unknown };
    if (typeof json.description === "string") return json.description;
  } catch {
    // not JSON
  }
  const m = /<description>([\s\S]*?)<\/description>/.exec(body);
  if (!m) return null;
  const doc = new DOMParser().parseFromString(`<d>${m[1]}</d>`, "application/xml");
  return doc.documentElement.textContent;
}

/** Dublin Core as the APIs give it: each term a value or a list, each value a string or {lang, value}. */
export function readDublinCore(raw: unknown): Record<string, Text[]> {
  const out: Record<string, Text[]> = {};
  if (!raw || typeof raw !== "object") return out;
  for (const [term, value] of Object.entries(raw as Record<string, unknown>)) {
    const list = Array.isArray(value) ? value : [value];
    out[term] = list.flatMap((v): Text[] => {
      if (typeof v === "string") return [{ value: v }];
      if (v && typeof v === "object" && "value" in v) {
        const o = v as { value: unknown; lang?: unknown; "@value"?: unknown };
        return [{ value: String(o.value), ...(typeof o.lang === "string" ? { lang: o.lang } : {}) }];
      }
      if (v && typeof v === "object" && "@value" in v) {
        const o = v as { "@value": unknown; "@language"?: unknown };
        return [{ value: String(o["@value"]), ...(typeof o["@language"] === "string" ? { lang: o["@language"] } : {}) }];
      }
      return [];
    });
  }
  return out;
}

/** The page number a paging URL names (`page=3` in a query, `;page=3` in a path). */
export function pageOf(url: unknown): number | undefined {
  if (typeof url !== "string") return undefined;
  const m = /[?&;]page=(\d+)/.exec(url);
  return m ? Number(m[1]) : 1;
}

export function readMember(o: Record<string, unknown>): Member {
  return {
    id: String(o["@id"]),
    kind: o["@type"] === "Resource" ? "Resource" : "Collection",
    title: typeof o.title === "string" ? o.title : String(o["@id"]),
    ...(typeof o.description === "string" ? { description: o.description } : {}),
    totalChildren: Number(o.totalChildren ?? o.totalItems ?? 0),
    dublinCore: readDublinCore(o.dublinCore),
  };
}

/** A Collection answer of either version: the node, its members, and the pages around this one. */
export function readCollectionPage(json: Record<string, unknown>, page: number | undefined): CollectionPage {
  const view = (json.view ?? {}) as Record<string, unknown>;
  const members = Array.isArray(json.member) ? (json.member as Record<string, unknown>[]) : [];
  return {
    node: readMember(json),
    members: members.map(readMember),
    page: page ?? 1,
    ...(view.previous ? { previous: pageOf(view.previous) } : {}),
    ...(view.next ? { next: pageOf(view.next) } : {}),
    ...(view.last ? { last: pageOf(view.last) } : {}),
  };
}
