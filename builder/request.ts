// What a GET asks for, read once from the URL. The build enumerates these, the server
// parses them, and `requestToPath` (tree/layout.ts) names their files.

import { DtsError } from "./error.js";
import { firstValue, queryPairs } from "./query.js";
import { OPEN_RANGE } from "./render/messages.js";
import { type Site, servesApi } from "./site.js";
import { readV1Request, type V1Endpoint, type V1Request, v1EndpointOf } from "./v1/request.js";

export type DtsRequest = DraftRequest | V1Request;

/** A request of the 1-draft2 API. */
export type DraftRequest =
  | { kind: "entry" }
  | { kind: "docs" }
  | { kind: "context" }
  | { kind: "collection"; id?: string; nav: "children" | "parents"; page?: number }
  | { kind: "document"; id: string; ref?: string; start?: string; end?: string; format?: string }
  | {
      kind: "navigation";
      id: string;
      ref?: string;
      start?: string;
      end?: string;
      /** Levels below the requested one; "max" is the deepest level. Default 1. */
      down: number | "max";
      groupBy?: number;
      max?: number;
      page?: number;
    };

export type Endpoint = "entry" | "docs" | "context" | "collection" | "document" | "navigation" | V1Endpoint;

/** A request that could not be read: the error, and the endpoint it was for (which says its format). */
export class BadRequest extends DtsError {
  readonly kind = "bad";

  constructor(
    readonly endpoint: Endpoint,
    description: string,
    status = 400,
  ) {
    super(status, description);
  }
}

/** Which endpoint a path names, or null when it is outside the API. */
export function endpointOf(pathname: string, site: Site): Endpoint | null {
  if (!pathname.startsWith(site.basePath)) return null;
  const rest = pathname.slice(site.basePath.length).replace(/\/+$/, "");
  const v1 = v1EndpointOf(rest);
  if (v1 !== null) return servesApi(site, "1.0") ? v1 : null;
  // The context is every API's: their JSON errors name it.
  if (rest === "/context.json") return "context";
  if (!servesApi(site, "1-draft2")) return null;
  switch (rest) {
    case "":
      return "entry";
    case "/collection":
      return "collection";
    case "/document":
      return "document";
    case "/navigation":
      return "navigation";
    case "/docs":
      return "docs";
    default:
      return null;
  }
}

/**
 * A request that could not be read, as plain data: what `readRequest` returns, so that it runs
 * where there are no classes (nginx's JavaScript module); `parseRequest` makes it a BadRequest.
 */
export interface Refusal {
  kind: "bad";
  endpoint: Endpoint;
  description: string;
  status: number;
}

const bad = (endpoint: Endpoint, description: string, status = 400): Refusal => ({ kind: "bad", endpoint, description, status });

function positiveInteger(value: string | null): number | undefined | null {
  if (value === null) return undefined;
  return /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : null;
}

/** `id` (required) and one passage (`ref`) or one range (`start`, `end`), shared by two endpoints. */
function passageParams(
  endpoint: Endpoint,
  get: (name: string) => string | undefined,
): Refusal | { kind: "passage"; id: string; ref?: string; start?: string; end?: string } {
  const id = get("id");
  if (id === undefined || id === "") return bad(endpoint, "the required parameter id is missing");
  const ref = get("ref");
  const start = get("start");
  const end = get("end");
  if (ref !== undefined && (start !== undefined || end !== undefined)) {
    return bad(endpoint, "ref cannot be combined with start or end: ask for one passage (ref) or one range (start, end)");
  }
  return { kind: "passage", id, ref, start, end };
}

/** Reads a GET request from a URL. */
export function parseRequest(url: URL, site: Site): DtsRequest | BadRequest | null {
  const read = readRequest(url.pathname, url.search, site);
  return read?.kind === "bad" ? new BadRequest(read.endpoint, read.description, read.status) : read;
}

/**
 * Reads a GET request from its path and query (`?` optional): the one reading every runtime
 * uses, down to nginx's. Parameter values are decoded as URLSearchParams decodes them; the
 * first of a repeated parameter counts.
 */
export function readRequest(pathname: string, search: string, site: Site): DtsRequest | Refusal | null {
  const endpoint = endpointOf(pathname, site);
  if (endpoint === null) return null;
  if (endpoint.startsWith("v1-")) return readV1Request(pathname.slice(site.basePath.length), search, endpoint as V1Endpoint);
  const pairs = queryPairs(search);
  const param = (name: string): string | null => firstValue(pairs, name);
  const get = (name: string): string | undefined => {
    const value = param(name);
    return value === null ? undefined : value;
  };
  switch (endpoint) {
    case "entry":
    case "docs":
    case "context":
      return { kind: endpoint };
    case "collection": {
      const nav = param("nav") ?? "children";
      if (nav !== "children" && nav !== "parents") {
        return bad(endpoint, `nav must be "children" or "parents", not "${nav}"`);
      }
      const page = positiveInteger(param("page"));
      if (page === null) return bad(endpoint, `page must be a whole number from 1, not "${param("page")}"`);
      return { kind: "collection", id: get("id"), nav, page };
    }
    case "document": {
      const passage = passageParams(endpoint, get);
      if (passage.kind === "bad") return passage;
      return { kind: "document", id: passage.id, ref: passage.ref, start: passage.start, end: passage.end, format: get("format") };
    }
    case "navigation": {
      const passage = passageParams(endpoint, get);
      if (passage.kind === "bad") return passage;
      const id = passage.id;
      const ref = passage.ref;
      const start = passage.start;
      const end = passage.end;
      if ((start === undefined) !== (end === undefined)) {
        return bad(
          endpoint,
          `a range needs both start and end; only ${start !== undefined ? "start" : "end"} was given. ` +
            `Navigation takes no open range; the Document endpoint does (${OPEN_RANGE}).`,
        );
      }
      // `level` is Draft 1's name of `down` (the depth below the ref), which its clients
      // (MyCapytain) still send: read as `down` when that is absent, refused when they disagree.
      const rawLevel = param("level");
      const rawDown = param("down") ?? rawLevel;
      const name = param("down") === null && rawLevel !== null ? "level" : "down";
      if (rawLevel !== null && param("down") !== null && rawLevel !== param("down")) {
        return bad(endpoint, `level is Draft 1's name of down: send one of them, not down=${param("down")} and level=${rawLevel}`);
      }
      let down: number | "max" = 1;
      if (rawDown !== null) {
        if (rawDown === "max" || rawDown === "-1") down = "max";
        else if (/^[0-9]{1,3}$/.test(rawDown)) down = Number(rawDown);
        else return bad(endpoint, `${name} must be a whole number from 0, or "max", not "${rawDown}"`);
      }
      if (down === 0 && ref === undefined && start === undefined) {
        return bad(endpoint, "down=0 needs a ref or a range: it asks for the node itself, with no members");
      }
      const groupBy = positiveInteger(param("groupBy"));
      if (groupBy === null) return bad(endpoint, `groupBy must be a whole number from 1, not "${param("groupBy")}"`);
      const max = positiveInteger(param("max"));
      if (max === null) return bad(endpoint, `max must be a whole number from 1, not "${param("max")}"`);
      const page = positiveInteger(param("page"));
      if (page === null) return bad(endpoint, `page must be a whole number from 1, not "${param("page")}"`);
      if (page !== undefined && max === undefined) return bad(endpoint, "page needs max, the number of members per page");
      return { kind: "navigation", id, ref, start, end, down, groupBy, max, page };
    }
    default:
      return null;
  }
}
