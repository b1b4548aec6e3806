// JSON-LD expansion of an answer, as a JSON-LD client reads it: contexts fetched over HTTP(S)
// with the crawler's limits, once per run, and safe mode, so a term or property the context does
// not define is an error rather than silently dropped data.

import jsonld, { type Options } from "jsonld";
import type { Get } from "./fetch.js";

export interface ExpansionResult {
  ok: boolean;
  /** Why expansion failed: a context that could not be loaded, or what safe mode refused. */
  message?: string;
  /** The failure is only that a context on another host was not fetched (offline mode). */
  skipped?: boolean;
  /**
   * Identifiers that are no IRI (a space in them): DTS allows them ("a URI is recommended"), but
   * JSON-LD can read them only as references relative to the answer's URL.
   */
  notIris?: string[];
}

export type Expander = (body: unknown, url: string) => Promise<ExpansionResult>;

/**
 * An expander whose contexts come through `get`, cached for the run. With `offline`, contexts
 * on other origins than `origin` are not fetched and such answers are reported as skipped.
 */
export function makeExpander(get: Get, options: { offline: boolean; origin: string }): Expander {
  const contexts = new Map<string, Promise<unknown>>();
  const problems = new Map<string, string>();

  const load = async (url: string): Promise<unknown> => {
    if (options.offline && new URL(url).origin !== options.origin) throw new SkippedContext(url);
    const a = await get(url, { headers: { Accept: "application/ld+json, application/json" } });
    if (a.status !== 200) throw new Error(a.error ?? `HTTP ${a.status}`);
    try {
      return JSON.parse(a.body);
    } catch (e) {
      throw new Error(`not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
  };

  const documentLoader = async (url: string) => {
    let document = contexts.get(url);
    if (!document) {
      contexts.set(url, (document = load(url)));
      document.catch((e: unknown) => problems.set(url, e instanceof SkippedContext ? SKIPPED : String((e as Error).message ?? e)));
    }
    return { contextUrl: undefined, documentUrl: url, document: await document };
  };

  return async (body, url) => {
    const notIris: string[] = [];
    // Safe mode, but an identifier that is no IRI is noted rather than fatal.
    const eventHandler = ({ event }: { event: JsonLdEvent }) => {
      if (event.code === "relative @id reference") notIris.push(String(event.details?.id ?? ""));
      else throw Object.assign(new Error("Safe mode validation error."), { name: "jsonld.ValidationError", details: { event } });
    };
    try {
      // The answer's own URL is its base, as for any JSON-LD document retrieved over HTTP.
      await jsonld.expand(body as jsonld.JsonLdDocument, { base: url, documentLoader, eventHandler } as Options.Expand);
      return { ok: true, ...(notIris.length ? { notIris: [...new Set(notIris)] } : {}) };
    } catch (e) {
      return describeFailure(e, problems);
    }
  };
}

const SKIPPED = "skipped";

class SkippedContext extends Error {
  constructor(readonly url: string) {
    super(`context ${url} not fetched (offline)`);
  }
}

interface JsonLdEvent {
  code?: string;
  message?: string;
  details?: Record<string, unknown>;
}

interface JsonLdError {
  name?: string;
  message?: string;
  details?: { url?: string; event?: JsonLdEvent; cause?: unknown };
}

/** The message of a jsonld.js error, naming the context URL or the dropped term when it says. */
function describeFailure(e: unknown, problems: Map<string, string>): ExpansionResult {
  const err = e as JsonLdError;
  const url = err.details?.url;
  if (url !== undefined) {
    const problem = problems.get(url);
    if (problem === SKIPPED) return { ok: false, skipped: true, message: `context ${url} is on another host, not fetched (--offline)` };
    return { ok: false, message: `the context ${url} could not be loaded${problem ? `: ${problem}` : ""}` };
  }
  const event = err.details?.event;
  if (event) {
    const what = JSON.stringify(event.details ?? {});
    return { ok: false, message: `safe mode: ${event.code ?? "error"}: ${event.message ?? ""} ${what}`.trim() };
  }
  return { ok: false, message: `${err.name ?? "error"}: ${err.message ?? String(e)}` };
}
