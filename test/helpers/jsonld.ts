// A JSON-LD processor as RDF clients run one (the npm `jsonld` package, as pyld in MyCapytain):
// it expands an answer by its URL, in safe mode, so that a key its context does not define, a
// dropped value or an unloadable context is an error, never silently lost. Its document loader
// reaches only the origins it is given: a context on the public web fails, as it does offline.

import jsonld from "jsonld";

export type Expanded = Record<string, unknown>[];

export const HYDRA = "https://www.w3.org/ns/hydra/core#";
export const DTS = "https://w3id.org/dts/api#";
export const DCT = "http://purl.org/dc/terms/";

/**
 * Expands the JSON-LD answer at `url`; `origins` are those the loader may reach (`route` maps
 * others to them). `idsThatAreNoIris`: the corpus has identifiers that are no IRI (a space in
 * them, as the embedded edge cases have), which JSON-LD can only read as relative references;
 * that one event is allowed, every other still fails.
 */
export async function expandAt(
  url: string,
  origins: string[],
  options: { route?: (url: string) => string; idsThatAreNoIris?: boolean } = {},
): Promise<Expanded> {
  const route = options.route ?? ((u: string) => u);
  const documentLoader = async (asked: string) => {
    const target = route(asked);
    if (!origins.includes(new URL(target).origin)) throw new Error(`the loader reaches only ${origins.join(", ")}, not ${asked}`);
    const response = await fetch(target, { headers: { Accept: "application/ld+json, application/json" } });
    // The answer itself may be an error (a Status object, expanded too); a context must be a 200.
    if (asked !== url && !response.ok) throw new Error(`${asked}: ${response.status}`);
    return { contextUrl: undefined, documentUrl: asked, document: await response.json() };
  };
  // jsonld.js reads a string input as the URL of the document to expand (its base too); its types do not say so.
  const input = url as unknown as jsonld.JsonLdDocument;
  const strict = options.idsThatAreNoIris
    ? {
        eventHandler: ({ event }: { event: { code: string; message: string; details?: unknown } }) => {
          if (event.code !== "relative @id reference") throw new Error(`${event.message} ${JSON.stringify(event.details)}`);
        },
      }
    : { safe: true };
  return (await jsonld.expand(input, { ...strict, documentLoader } as jsonld.Options.Expand)) as unknown as Expanded;
}

/** Every property IRI and `@type` of an expanded document, deep. */
export function irisOf(expanded: unknown): { properties: Set<string>; types: Set<string> } {
  const properties = new Set<string>();
  const types = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "@type") for (const t of [x].flat()) types.add(String(t));
        else if (!k.startsWith("@")) properties.add(k);
        walk(x);
      }
    }
  };
  walk(expanded);
  return { properties, types };
}

/** The values of a property on the top node. */
export function valuesOf(expanded: Expanded, property: string): unknown[] {
  return (expanded[0]?.[property] as unknown[] | undefined) ?? [];
}
