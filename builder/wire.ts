// The API's constants on the wire: namespaces, media types, the context address, and the
// headers every response carries, whichever reader or host sends it.

/** The context address of the 1-draft2 drafts. The published file is not valid JSON. */
export const PUBLISHED_CONTEXT = "https://distributed-text-services.github.io/specifications/context/1.0.0draft-2.json";

export const TEI_NS = "http://www.tei-c.org/ns/1.0";
export const DTS_NS = "https://w3id.org/dts/api#";
export const DTS_ERROR_NS = "https://w3id.org/dts/api";
export const HYDRA_API_DOC = "http://www.w3.org/ns/hydra/core#apiDocumentation";
export const HYDRA_CONTEXT = "http://www.w3.org/ns/hydra/context.jsonld";

/** Sent with every response, stored or computed, so browser clients can read the Link header. */
export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Link, Location, ETag",
};

/** Cache-Control of stored responses; the generated host rules send the same. */
export const STATIC_CACHE_CONTROL = "public, max-age=300";

/** The largest write body `dts serve` accepts unless told (--max-body); the nginx rules pass the same. */
export const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

export const TEI_TYPE = "application/tei+xml";
export const JSONLD_TYPE = "application/ld+json";

/** DTS 1.0: the published context (valid JSON), and the namespace its Document wrapper is in. */
export const V1_CONTEXT = "https://dtsapi.org/context/v1.0.json";
export const V1_WRAPPER_NS = "https://w3id.org/api/dts#";
export const DTS_VERSION = "1.0";
