// The errors a web server in front of the tree answers itself, before or instead of `dts
// serve`: a request it cannot read, a body over the limit, an upstream that is down. Its own
// pages are HTML without CORS headers, which a DTS client cannot read; the rules send these
// instead, each in both formats of the API (Document's XML, the others' Hydra JSON).

import { noEndpoint } from "../render/messages.js";
import { type DtsResponse, endpointError } from "../render/response.js";
import type { Site } from "../site.js";

export interface HostError {
  status: number;
  description: string;
}

/** The statuses a proxy in front of `dts serve` produces itself, with what each tells the client. */
export function hostErrors(site: Site, maxBody: number): HostError[] {
  return [
    { status: 400, description: "The server could not read this request (a malformed request line or header)." },
    { status: 404, description: noEndpoint("this path", site) },
    { status: 411, description: "A write needs a Content-Length header or a chunked body." },
    {
      status: 413,
      description: `The body is larger than this server accepts (${maxBody} bytes). Send one passage or a few at a time; the limit is dts serve --max-body, and dts build --max-body for the host rules.`,
    },
    { status: 414, description: "The URL is longer than this server reads. Ask for a shorter range, or fewer parameters." },
    { status: 431, description: "The request headers are larger than this server reads. Send shorter headers (cookies, Accept-Encoding)." },
    { status: 500, description: "The server failed to answer this request; its error log says why." },
    { status: 501, description: "The request uses a transfer coding this server does not implement." },
    { status: 502, description: "The dts serve that answers this request did not answer; try again shortly." },
    { status: 503, description: "The service is unavailable for the moment; try again shortly." },
    { status: 504, description: "The dts serve that answers this request took too long; try again shortly." },
  ];
}

/** A host error's two bodies: `xml` for the Document endpoint, `json` for the others. */
export function hostErrorBodies(site: Site, e: HostError): { xml: DtsResponse; json: DtsResponse } {
  return { xml: endpointError(site, "document", e.status, e.description), json: endpointError(site, null, e.status, e.description) };
}
