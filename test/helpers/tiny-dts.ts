// A tiny 1-draft2 service on node:http (one Resource of four lines), conforming unless told to
// break in one way: what `dts check <url>` must then name. Written for the tests, independent of
// the project's own renderers, so the checker is tested against another implementation too.

import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type Fault =
  /** Unknown ids answer 200 with an HTML page. */
  | "html-for-unknown"
  /** A range leaves out its middle unit. */
  | "range-not-units"
  /** The last line's passage is not well-formed XML. */
  | "malformed-passage"
  /** JSON answers name a context that cannot be fetched. */
  | "unreachable-context"
  /** The Document endpoint's answers are sent as text/xml. */
  | "wrong-document-type";

export interface TinyService {
  url: string;
  /** The entry point. */
  entry: string;
  close(): Promise<void>;
}

const TEI = "http://www.tei-c.org/ns/1.0";
const DTS = "https://w3id.org/dts/api#";
const LINES = ["Arma virumque cano", "Troiae qui primus ab oris", "Italiam fato profugus", "Laviniaque venit"];

export async function startTinyService(fault?: Fault): Promise<TinyService> {
  const server = createServer((req, res) => {
    const r = answer(req, fault);
    res.writeHead(r.status, {
      "Content-Type": r.type,
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Expose-Headers": "Link",
      Link: [`</api/docs>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`, ...r.links].join(", "),
    });
    res.end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    entry: `${url}/api`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Reply {
  status: number;
  type: string;
  body: string;
  links: string[];
}

function answer(req: IncomingMessage, fault: Fault | undefined): Reply {
  const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
  const origin = url.origin;
  const context = fault === "unreachable-context" ? "http://127.0.0.1:9/context.json" : `${origin}/context.json`;
  const send = (status: number, type: string, body: string, links: string[] = []): Reply => ({ status, type, body, links });
  const json = (status: number, body: Record<string, unknown>): Reply =>
    send(status, "application/ld+json", JSON.stringify({ "@context": context, ...body }));
  const id = url.searchParams.get("id");
  const unknown = (xml: boolean): Reply => {
    if (fault === "html-for-unknown") return send(200, "text/html", "<html><body>Not here</body></html>");
    if (xml) {
      return send(
        404,
        "application/tei+xml",
        `<error xmlns="https://w3id.org/dts/api" statusCode="404"><title>Not Found</title><description>No document ${id}</description></error>`,
      );
    }
    return json(404, { "@type": "Status", statusCode: 404, title: "Not Found", description: `No resource ${id}` });
  };
  const resource = { "@id": "doc", "@type": "Resource", title: "Aeneid 1.1-4", totalItems: 0, totalChildren: 0, totalParents: 1 };
  const root = { "@id": "root", "@type": "Collection", title: "Tiny", totalItems: 1, totalChildren: 1, totalParents: 0 };

  if (req.method === "OPTIONS") return send(204, "text/plain", "");
  switch (url.pathname) {
    case "/context.json":
      return send(200, "application/ld+json", JSON.stringify({ "@context": { "@vocab": DTS, dts: DTS } }));
    case "/api":
      return json(200, {
        "@id": "/api",
        "@type": "EntryPoint",
        collection: "/api/collection",
        navigation: "/api/navigation",
        document: "/api/document",
      });
    case "/api/docs":
      return json(200, { "@id": "/api/docs", "@type": "ApiDocumentation", title: "Tiny" });
    case "/api/collection": {
      const parents = url.searchParams.get("nav") === "parents";
      if (id === null || id === "root")
        return json(200, parents ? { ...root, totalItems: 0, member: [] } : { ...root, member: [resource] });
      if (id !== "doc") return unknown(false);
      return json(200, parents ? { ...resource, totalItems: 1, member: [root] } : { ...resource, maxCiteDepth: 1 });
    }
    case "/api/navigation":
      if (id !== "doc") return unknown(false);
      return json(200, {
        "@id": url.pathname + url.search,
        maxCiteDepth: 1,
        level: 0,
        member: LINES.map((_, i) => ({ ref: String(i + 1), level: 1 })),
      });
    case "/api/document": {
      if (id !== "doc") return unknown(true);
      const type = fault === "wrong-document-type" ? "text/xml" : "application/tei+xml";
      const ref = url.searchParams.get("ref");
      const start = Number(url.searchParams.get("start") ?? ref ?? 1);
      const end = Number(url.searchParams.get("end") ?? ref ?? LINES.length);
      if (!(start >= 1 && end <= LINES.length && start <= end)) return unknown(true);
      let units = LINES.map((text, i) => `<l n="${i + 1}">${text}</l>`).slice(start - 1, end);
      if (fault === "range-not-units" && units.length > 2) units = [units[0], ...units.slice(2)];
      if (fault === "malformed-passage" && ref === String(LINES.length)) units = [units[0].replace("</l>", "")];
      const partial = url.searchParams.has("ref") || url.searchParams.has("start");
      const body = partial
        ? `<TEI xmlns="${TEI}"><dts:fragment xmlns:dts="${DTS}">${units.join("\n")}</dts:fragment></TEI>`
        : `<TEI xmlns="${TEI}"><text><body>${units.join("\n")}</body></text></TEI>`;
      const links = [`</api/collection?id=doc>; rel="collection"`, `</api/navigation?id=doc>; rel="contents"`];
      if (ref)
        links.push(
          `</api/document?id=doc>; rel="up"`,
          `</api/document?id=doc&ref=1>; rel="first"`,
          `</api/document?id=doc&ref=4>; rel="last"`,
        );
      return send(200, type, body, links);
    }
    default:
      return unknown(false);
  }
}
