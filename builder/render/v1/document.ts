// DTS 1.0 Document endpoint: the whole TEI, or a passage or range in `TEI` > `dts:wrapper`,
// cut from the source bytes as the 1-draft2 fragment is (the same bytes inside the wrapper).

import type { CitedText } from "../../citation/cited-text.js";
import { DtsError } from "../../error.js";
import type { Site } from "../../site.js";
import type { V1Request } from "../../v1/request.js";
import { v1Url } from "../../v1/urls.js";
import { TEI_TYPE, V1_WRAPPER_NS } from "../../wire.js";
import { fragment, type Wrapper } from "../document.js";
import { type DtsResponse, renderError, xmlError } from "../response.js";
import { select } from "../selection.js";
import { chooseTree } from "./common.js";

type DocumentQuery = Extract<V1Request, { kind: "v1-document" }>;

export const V1_WRAPPER: Wrapper = { name: "dts:wrapper", namespace: V1_WRAPPER_NS };

/**
 * The media types the Document endpoint answers in: TEI, also under the generic XML types, the
 * same bytes (clients such as dts-viewer ask for `application/xml`).
 */
export const MEDIA_TYPES = [TEI_TYPE, "application/xml", "text/xml"];

/** The Link header of a 1.0 Document answer: the Resource at the Collection endpoint. */
export function v1DocumentLink(site: Site, resource: string): string {
  return `<${v1Url(site, { kind: "v1-collection", id: resource, nav: "children" })}>; rel="collection"`;
}

export function renderV1Document(site: Site, q: DocumentQuery, whole: CitedText): DtsResponse {
  if (q.mediaType !== undefined && !MEDIA_TYPES.includes(q.mediaType)) {
    return xmlError(site, 404, `mediaType "${q.mediaType}" is not available: this service answers in ${MEDIA_TYPES.join(", ")}.`);
  }
  const link = v1DocumentLink(site, q.resource);
  const type = q.mediaType ?? TEI_TYPE;
  if (q.ref === undefined && q.start === undefined) return { status: 200, type, link, body: whole.source };
  const text = chooseTree(whole, q.tree);
  if (text instanceof DtsError) return renderError(site, "v1-document", text);
  const s = select(text, q, true);
  if (s instanceof DtsError) return renderError(site, "v1-document", s);
  const body = fragment(text.index, text.source, text.units[s.first].element, text.units[s.last].element, V1_WRAPPER);
  return { status: 200, type, link, body };
}
