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

/** How each endpoint reads `start` and `end`: they differ, and clients need to know it. */
export const OPEN_RANGE =
  "start without end is an open range, from start to the last unit of its level; end without start, from the first unit of the level to end";
