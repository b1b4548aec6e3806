// Sentences more than one part of the service says (stored and computed answers, the write
// API, the host rules): written once, so a client reads the same words whoever answered.

import type { Site } from "../site.js";
import { entryUrl } from "../urls.js";

/** An id that names no document: said by Document, Navigation and the write API alike. */
export function noDocument(id: string): string {
  return `There is no document with the id "${id}" (the id is wrong, not the reference).`;
}

/** A path outside the API's endpoints (`path` as the request named it, or a phrase for it). */
export function noEndpoint(path: string, site: Site): string {
  return `No endpoint at ${path}. The API's entry point is ${entryUrl(site)}.`;
}
