// A request Node's parser refuses before the app sees it (headers over `maxHeaderSize`, a
// malformed request line or header): Node would answer a bare 431 or 400 with no body and no
// CORS headers, which a browser client cannot even read. Here it gets the API's own error, in
// the format of the endpoint its request line names, and the connection is closed as Node does.

import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { reason } from "../builder/error.js";
import { type DtsResponse, endpointError } from "../builder/render/response.js";
import { endpointOf } from "../builder/request.js";
import type { Site } from "../builder/site.js";
import { toResponse } from "./to-response.js";

/** The API's answer to a request the HTTP parser refused, or null when none is owed (a reset). */
export function parserRefusal(site: Site, code: string | undefined, rawPacket: Buffer | undefined): DtsResponse | null {
  const target = rawPacket ? /^[A-Z]+ +([^ ?\r\n]*)/.exec(rawPacket.subarray(0, 2048).toString("latin1"))?.[1] : undefined;
  const endpoint = target ? endpointOf(target, site) : null;
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return endpointError(
        site,
        endpoint,
        431,
        "The request line and headers together are larger than this server reads (16 KiB). Send shorter headers (cookies, Accept-Encoding) or a shorter URL.",
      );
    case "ECONNRESET":
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case undefined:
      return null;
    default:
      return endpointError(site, endpoint, 400, `The request could not be read as HTTP/1.1 (${code}).`);
  }
}

/** The raw bytes of the answer (its headers as every answer's, see toResponse), closing the connection. */
export function rawResponse(response: DtsResponse): Buffer {
  const body = Buffer.from(response.body);
  const answer = toResponse(response, {
    requestHeaders: new Headers(),
    headers: { "Content-Length": String(body.length), "Cache-Control": "no-store", Connection: "close" },
  });
  const head = [`HTTP/1.1 ${response.status} ${reason(response.status)}`, ...[...answer.headers].map(([k, v]) => `${k}: ${v}`)];
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), body]);
}

export function answerParserRefusals(server: Server, site: Site): void {
  server.on("clientError", (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    const response = parserRefusal(site, error.code, error.rawPacket);
    // A response already under way on this connection owns the socket: only close it, as Node does.
    const busy = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
    if (response && socket.writable && !busy) socket.end(rawResponse(response));
    else socket.destroy();
  });
}
