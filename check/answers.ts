// The checks every answer goes through, whichever endpoint sent it: status, CORS headers,
// Content-Type, and then what its body must be (JSON that expands as JSON-LD, or TEI).

import { JSONLD_TYPE, TEI_TYPE } from "../builder/wire.js";
import type { Answer, Get } from "./fetch.js";
import type { Expander } from "./jsonld.js";
import type { Findings } from "./report.js";
import { type Name, readXml } from "./xml.js";

export interface CheckOptions {
  /** Collections and Resources read at most. */
  maxResources: number;
  /** Resources whose Navigation and passages are read. */
  sample: number;
  concurrency: number;
  timeoutMs: number;
  maxBytes: number;
  /** Fetch no JSON-LD context from another origin than the entry point's (warnings instead). */
  offline: boolean;
}

export const DEFAULT_OPTIONS: CheckOptions = {
  maxResources: 200,
  sample: 5,
  concurrency: 8,
  timeoutMs: 15000,
  maxBytes: 20 * 1024 * 1024,
  offline: false,
};

/** What the checks of one run share. */
export interface Ctx {
  get: Get;
  findings: Findings;
  expand: Expander;
  options: CheckOptions;
}

const STATIC_TYPE_HINT =
  "a plain file server sends the type of the file's extension: map .jsonld to application/ld+json and .tei to application/tei+xml " +
  "(nginx: types { application/ld+json jsonld; application/tei+xml tei; })";

/** The media type of a Content-Type header, without parameters. */
export function mediaType(a: Answer): string {
  return (a.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/** The status is `status`; a network error or timeout is reported as what came. */
export function checkStatus(ctx: Ctx, a: Answer, status: number, check = "status"): boolean {
  return ctx.findings.expect(a.status === status, check, a.url, {
    expected: `HTTP ${status}`,
    got: a.status === 0 ? a.error : `HTTP ${a.status}`,
  });
}

/** `Access-Control-Allow-Origin: *` and `Link` among the exposed headers, on every answer a browser client reads. */
export function checkCors(ctx: Ctx, a: Answer): void {
  if (a.status === 0) return;
  const origin = a.headers.get("access-control-allow-origin");
  ctx.findings.expect(origin === "*", "cors-allow-origin", a.url, {
    expected: "Access-Control-Allow-Origin: *",
    got: origin === null ? "no such header" : origin,
    hint: "without it, browser clients on other sites cannot read the answer",
  });
  const exposed = (a.headers.get("access-control-expose-headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
  ctx.findings.expect(exposed.includes("link") || exposed.includes("*"), "cors-expose-link", a.url, {
    expected: "Access-Control-Expose-Headers including Link",
    got: a.headers.get("access-control-expose-headers") ?? "no such header",
    hint: "browser clients cannot read the Link header (navigation between passages) without it",
  });
}

export function checkType(ctx: Ctx, a: Answer, type: string): boolean {
  if (a.status === 0) return false;
  const got = mediaType(a);
  const staticFile = /\.(jsonld|tei)$/.test(new URL(a.url).pathname);
  return ctx.findings.expect(got === type, "content-type", a.url, {
    expected: type,
    got: got || "no Content-Type",
    hint: staticFile ? STATIC_TYPE_HINT : undefined,
  });
}

/**
 * Reads a JSON-LD answer: its status, CORS, Content-Type, body as JSON, and its expansion in
 * safe mode. Returns the parsed object when it is one (even if a later check failed).
 */
export async function readJson(ctx: Ctx, url: string, status = 200): Promise<Record<string, unknown> | undefined> {
  const a = await ctx.get(url, { headers: { Accept: JSONLD_TYPE } });
  checkCors(ctx, a);
  if (!checkStatus(ctx, a, status)) return undefined;
  checkType(ctx, a, JSONLD_TYPE);
  let json: unknown;
  try {
    json = JSON.parse(a.body);
  } catch (e) {
    ctx.findings.fail("json", url, { expected: "a JSON body", got: `${(e as Error).message}: ${JSON.stringify(a.body.slice(0, 60))}` });
    return undefined;
  }
  if (!ctx.findings.expect(isObject(json), "json", url, { expected: "a JSON object", got: JSON.stringify(json).slice(0, 60) })) {
    return undefined;
  }
  await checkExpansion(ctx, json, url);
  return json as Record<string, unknown>;
}

/** Expansion of a JSON body in safe mode; a body that is not JSON is left to the other checks. */
export async function checkExpansion(ctx: Ctx, json: unknown, url: string): Promise<void> {
  if (typeof json === "string") {
    try {
      json = JSON.parse(json);
    } catch {
      return;
    }
  }
  const context = (json as { "@context"?: unknown } | null)?.["@context"];
  if (typeof context === "string" && !/^https?:\/\//.test(context)) {
    ctx.findings.warn("jsonld-context-absolute", url, {
      expected: "an absolute @context URL",
      got: context,
      hint: "processors given the parsed JSON without its URL (MyCapytain's pyld) cannot load a relative one: build with --site-url",
    });
  }
  const expansion = await ctx.expand(json, url);
  if (expansion.skipped) ctx.findings.warn("jsonld-expansion", url, { expected: "expanded in safe mode", got: expansion.message });
  else {
    ctx.findings.expect(expansion.ok, "jsonld-expansion", url, {
      expected: "the body expands as JSON-LD in safe mode (every term defined, its context loadable)",
      got: expansion.message,
    });
  }
  if (expansion.notIris) {
    ctx.findings.warn("jsonld-identifier", url, {
      expected: "identifiers that are IRIs (JSON-LD reads any other as relative to the answer's URL)",
      got: expansion.notIris.map((id) => JSON.stringify(id)).join(", "),
    });
  }
}

export type TeiReading = { answer: Answer; inner: string | null } | undefined;

/** Reads a Document answer: status, CORS, Content-Type, well-formed XML with a TEI root; returns the wrapper's content. */
export async function readTei(ctx: Ctx, url: string, wrapper: Name, teiNs: string): Promise<TeiReading> {
  const a = await ctx.get(url, { headers: { Accept: TEI_TYPE } });
  checkCors(ctx, a);
  if (!checkStatus(ctx, a, 200)) return undefined;
  checkType(ctx, a, TEI_TYPE);
  const xml = readXml(a.body, wrapper);
  if (!ctx.findings.expect(xml.ok, "xml-well-formed", url, { expected: "well-formed XML", got: xml.ok ? undefined : xml.problem })) {
    return undefined;
  }
  if (!xml.ok) return undefined;
  ctx.findings.expect(xml.root.ns === teiNs && xml.root.local === "TEI", "tei-root", url, {
    expected: `root element TEI in ${teiNs}`,
    got: `${xml.root.local} in ${xml.root.ns || "no namespace"}`,
  });
  return { answer: a, inner: xml.inner };
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Missing or mistyped keys of `node`: `spec` maps each required key to its JSON type. */
export type JsonType = "string" | "number" | "array" | "object";

export function missingKeys(node: Record<string, unknown>, spec: Record<string, JsonType>): string[] {
  const wrong: string[] = [];
  for (const [key, type] of Object.entries(spec)) {
    const v = node[key];
    const ok =
      type === "array" ? Array.isArray(v) : type === "number" ? Number.isInteger(v) : type === "object" ? isObject(v) : typeof v === type;
    if (!ok) wrong.push(v === undefined ? `${key} (missing)` : `${key} (not ${type === "number" ? "an integer" : `a ${type}`})`);
  }
  return wrong;
}

/** A Collection answer (`top`) or a member has `keys` of their types, and is a Collection or a Resource. */
export function checkNodeKeys(ctx: Ctx, node: Record<string, unknown>, keys: Record<string, JsonType>, url: string, top: boolean): void {
  const wrong = missingKeys(node, keys);
  if (!["Collection", "Resource"].includes(node["@type"] as string)) wrong.push(`@type (${JSON.stringify(node["@type"])})`);
  ctx.findings.expect(wrong.length === 0, top ? "collection-keys" : "member-keys", url, {
    expected: `${Object.keys(keys).join(", ")}; @type Collection or Resource`,
    got: `${node["@id"] ?? "a node"}: ${wrong.join(", ")}`,
  });
}
