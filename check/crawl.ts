// `dts check <url>`: checks a deployed DTS service from its entry point, as a client meets it.
// It detects the API version, walks the catalogue, reads a sample of Resources in depth, and
// probes the errors; every answer passes the common checks (status, CORS, Content-Type,
// JSON-LD expansion or TEI well-formedness) on the way.

import { type CheckOptions, type Ctx, DEFAULT_OPTIONS, readJson } from "./answers.js";
import type { Api } from "./api.js";
import { walkCatalogue } from "./catalogue.js";
import { draft2Api } from "./checks-draft2.js";
import { v1Api } from "./checks-v1.js";
import { checkErrors, checkPreflight } from "./errors.js";
import { boundedFetch } from "./fetch.js";
import { makeExpander } from "./jsonld.js";
import { checkResource } from "./passages.js";
import { type CheckReport, Findings, makeReport } from "./report.js";

export { type CheckOptions, DEFAULT_OPTIONS };

export async function checkService(entryUrl: string, options: Partial<CheckOptions> = {}): Promise<CheckReport> {
  const started = performance.now();
  const opts: CheckOptions = { ...DEFAULT_OPTIONS, ...options };
  const get = boundedFetch({ timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes, concurrency: opts.concurrency });
  const findings = new Findings();
  const ctx: Ctx = { get, findings, options: opts, expand: makeExpander(get, { offline: opts.offline, origin: new URL(entryUrl).origin }) };

  const api = await detect(ctx, entryUrl);
  if (api) {
    await checkPreflight(ctx, entryUrl);
    if (api.version === "1-draft2") await checkApiDocumentation(ctx, entryUrl);
    const catalogue = await walkCatalogue(ctx, api);
    await checkErrors(ctx, api);
    const readable = catalogue.resources.filter((r) => typeof r["@id"] === "string" && api.readable(r));
    if (!readable.length)
      findings.warn("sample", entryUrl, { expected: "a Resource with a citation structure to read", got: "none found" });
    for (const resource of spread(readable, opts.sample)) await checkResource(ctx, api, resource);
  }
  return makeReport(entryUrl, api?.version ?? null, findings, (performance.now() - started) / 1000);
}

/** The API version of the entry point's answer: 1.0 by its `dtsVersion`, else 1-draft2 by its routes. */
async function detect(ctx: Ctx, entryUrl: string): Promise<Api | undefined> {
  const entry = await readJson(ctx, entryUrl);
  if (!entry) {
    ctx.findings.fail("entry-point", entryUrl, { expected: "a JSON-LD EntryPoint", got: "no readable answer (see above)" });
    return undefined;
  }
  const api =
    entry.dtsVersion === "1.0" ? v1Api(entryUrl, entry) : entry["@type"] === "EntryPoint" ? draft2Api(entryUrl, entry) : undefined;
  ctx.findings.expect(api !== undefined && entry["@type"] === "EntryPoint", "entry-point", entryUrl, {
    expected:
      'an EntryPoint: dtsVersion "1.0" with the URI templates collection, navigation and document, or (1-draft2) the routes collection, navigation and document',
    got: JSON.stringify(entry).slice(0, 200),
  });
  return api;
}

/** The Hydra documentation the entry point's Link names answers (1-draft2 links it from every answer). */
async function checkApiDocumentation(ctx: Ctx, entryUrl: string): Promise<void> {
  const a = await ctx.get(entryUrl);
  const target = /<([^>]*)>\s*;\s*rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"/.exec(a.headers.get("link") ?? "")?.[1];
  if (target === undefined) {
    ctx.findings.warn("api-documentation", entryUrl, {
      expected: "a Link with rel http://www.w3.org/ns/hydra/core#apiDocumentation",
      got: "none",
    });
    return;
  }
  const doc = await readJson(ctx, new URL(target, entryUrl).href);
  if (doc) ctx.findings.pass("api-documentation", entryUrl);
}

/** `n` items spread evenly over the list, the first and last among them: deterministic, and not only the first few. */
export function spread<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  if (n <= 0) return [];
  if (n === 1) return [list[0]];
  return [...new Set(Array.from({ length: n }, (_, i) => Math.round((i * (list.length - 1)) / (n - 1))))].map((i) => list[i]);
}
