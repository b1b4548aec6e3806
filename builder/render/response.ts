// The response of a request, as the renderers produce it and both the tree writer and the
// server send it. Error bodies are built here: XML for the Document endpoint, Hydra Status
// JSON for the others.

import { type DtsError, reason } from "../error.js";
import type { Endpoint } from "../request.js";
import type { Site } from "../site.js";
import { linkHeader } from "../urls.js";
import { DTS_ERROR_NS, JSONLD_TYPE, TEI_TYPE } from "../wire.js";

export interface DtsResponse {
  status: number;
  type: string;
  /** The Link header value. */
  link: string;
  location?: string;
  body: Uint8Array | string;
}

/** Escapes element text (quotes need no escaping there, and stay readable). */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Makes echoed text safe for any error body: each character XML 1.0 forbids (C0 controls but
 * tab, LF and CR; lone surrogates; U+FFFE, U+FFFF) becomes its `\uXXXX` spelling, so the body
 * stays well-formed and the reader still sees which value was wrong.
 */
export function visible(text: string): string {
  return text.replace(
    /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The Document endpoint's error: an `error` element in the DTS namespace. */
export function xmlError(site: Site, status: number, description: string, title = reason(status)): DtsResponse {
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<error xmlns="${DTS_ERROR_NS}" statusCode="${status}">\n` +
    `  <title>${escapeXml(visible(title))}</title>\n` +
    `  <description>${escapeXml(visible(description))}</description>\n` +
    `</error>\n`;
  return { status, type: TEI_TYPE, link: linkHeader(site), body };
}

/** The Collection and Navigation endpoints' error: a Hydra Status object, in the tree's context (Hydra its vocabulary). */
export function jsonError(site: Site, status: number, description: string, title = reason(status)): DtsResponse {
  const body = json({
    "@context": site.context,
    "@type": "Status",
    statusCode: status,
    title: visible(title),
    description: visible(description),
  });
  return { status, type: JSONLD_TYPE, link: linkHeader(site), body };
}

/** A DtsError as the endpoint it answers says errors. */
export function renderError(site: Site, endpoint: Endpoint | "unknown" | null, e: DtsError): DtsResponse {
  return endpointError(site, endpoint, e.status, e.description, e.title);
}

/** An error in the format of the endpoint it answers: XML for Document, Hydra Status JSON for the rest. */
export function endpointError(
  site: Site,
  endpoint: Endpoint | "unknown" | null,
  status: number,
  description: string,
  title = reason(status),
): DtsResponse {
  return endpoint === "document" || endpoint === "v1-document"
    ? xmlError(site, status, description, title)
    : jsonError(site, status, description, title);
}

/** JSON as every response writes it: two-space indented, with a final newline. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

export function jsonResponse(site: Site, value: unknown, links: Parameters<typeof linkHeader>[1] = []): DtsResponse {
  return { status: 200, type: JSONLD_TYPE, link: linkHeader(site, links), body: json(value) };
}
