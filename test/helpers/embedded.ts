// The embedded sample corpus (corpus/) as the suites name it: its documents' identifiers, their
// TEI files relative to the corpus, and the API paths built from them. The corpus itself is at
// EMBEDDED (./tree.ts).

export const GEORGICS = "urn:cts:latinLit:phi0690.phi003.sample-lat1";
export const CAESAR = "urn:cts:latinLit:phi0448.phi001.sample-lat1";
export const CATULLUS = "urn:cts:latinLit:phi0472.phi005.sample-lat1";
export const ODYSSEY = "urn:cts:greekLit:tlg0012.tlg002.sample-grc1";
/** A document with metadata and no text yet (its first text is written by POST). */
export const LIVY = "urn:cts:latinLit:phi0914.phi001.sample-lat1";
/** References that need escaping: spaces, `;`, `/`, non-ASCII. */
export const EDGE = "urn:dts:sample:edge:odd refs";

export const GEORGICS_FILE = "latin/virgil-georgics.xml";
export const CAESAR_FILE = "latin/caesar-bg.xml";
export const CATULLUS_FILE = "latin/catullus-5.xml";
export const ODYSSEY_FILE = "greek/odyssey.xml";
/** Where POST writes Livy's first text (absent until then). */
export const LIVY_FILE = "latin/livy-1.xml";

export const q = encodeURIComponent;

/** Paths with the query exactly as written, for requests whose spelling is the point. */
export const documentPath = (query = ""): string => `/api/dts/document?${query}`;
export const navigationPath = (query = ""): string => `/api/dts/navigation?${query}`;
/** The Collection endpoint with a query string as written (`?id=...`), or none. */
export const coll = (query = ""): string => `/api/dts/collection${query}`;

/** The Document and Navigation paths of `id` (percent-encoded) and further parameters, such as `&ref=1.2`. */
export const doc = (id: string, params = ""): string => documentPath(`id=${q(id)}${params}`);
export const nav = (id: string, params = ""): string => navigationPath(`id=${q(id)}${params}`);
