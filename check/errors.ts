// How the service refuses: an unknown id on each endpoint is a 404 in the endpoint's error
// format (a Hydra Status object, or the XML `error` element for the Document endpoint); and a
// CORS preflight, which browser clients send before some requests (nice to have: a warning).

import { DTS_ERROR_NS, JSONLD_TYPE, TEI_TYPE } from "../builder/wire.js";
import { type Ctx, checkCors, checkExpansion, checkStatus, checkType, isObject } from "./answers.js";
import type { Api, ErrorProbe } from "./api.js";
import { readXml } from "./xml.js";

export async function checkErrors(ctx: Ctx, api: Api): Promise<void> {
  await Promise.all(api.errorProbes().map((probe) => checkProbe(ctx, api, probe)));
}

async function checkProbe(ctx: Ctx, api: Api, probe: ErrorProbe): Promise<void> {
  const xml = probe.endpoint === "document";
  const a = await ctx.get(probe.url, { headers: { Accept: xml ? TEI_TYPE : JSONLD_TYPE } });
  checkCors(ctx, a);
  if (!checkStatus(ctx, a, 404, "error-status")) return;
  // 1.0 fixes no error format: a host's own error page (a file server's HTML) is then the
  // error-format warning below, not a wrong Content-Type.
  if (api.strictErrors) checkType(ctx, a, xml ? TEI_TYPE : JSONLD_TYPE);
  const problem = xml ? xmlErrorProblem(a.body) : jsonErrorProblem(a.body);
  const detail = {
    expected: xml
      ? `an error element in ${DTS_ERROR_NS} with statusCode="404", title and description`
      : "a Hydra Status object with statusCode 404, title and description",
    got: problem,
  };
  if (!xml) await checkExpansion(ctx, a.body, probe.url);
  if (problem === undefined) ctx.findings.pass("error-format", probe.url);
  else if (api.strictErrors) ctx.findings.fail("error-format", probe.url, detail);
  else ctx.findings.warn("error-format", probe.url, detail);
}

function jsonErrorProblem(body: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `not JSON: ${JSON.stringify(body.slice(0, 80))}`;
  }
  if (!isObject(json)) return "not a JSON object";
  if (json["@type"] !== "Status") return `@type ${JSON.stringify(json["@type"])}`;
  if (json.statusCode !== 404) return `statusCode ${JSON.stringify(json.statusCode)}`;
  if (typeof json.title !== "string" || typeof json.description !== "string") return "no title or description";
  return undefined;
}

function xmlErrorProblem(body: string): string | undefined {
  const xml = readXml(body, { ns: DTS_ERROR_NS, local: "error" });
  if (!xml.ok) return `not well-formed XML (${xml.problem}): ${JSON.stringify(body.slice(0, 80))}`;
  if (xml.root.ns !== DTS_ERROR_NS || xml.root.local !== "error")
    return `root element ${xml.root.local} in ${xml.root.ns || "no namespace"}`;
  const status = /^\s*(?:<\?[^>]*\?>\s*)?<(?:[\w.-]+:)?error\b[^>]*\bstatusCode\s*=\s*["'](\d+)["']/.exec(body)?.[1];
  if (status !== "404") return `statusCode ${status ?? "missing"}`;
  if (!/<(?:[\w.-]+:)?title\b/.test(body) || !/<(?:[\w.-]+:)?description\b/.test(body)) return "no title or description";
  return undefined;
}

/** A preflight as a browser sends it before a request with a custom header. */
export async function checkPreflight(ctx: Ctx, url: string): Promise<void> {
  const a = await ctx.get(url, {
    method: "OPTIONS",
    headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "if-none-match" },
  });
  const ok = a.status >= 200 && a.status < 300 && a.headers.get("access-control-allow-origin") !== null;
  if (ok) ctx.findings.pass("cors-preflight", url);
  else {
    ctx.findings.warn("cors-preflight", url, {
      expected: "a 2xx answer to OPTIONS with Access-Control-Allow-Origin",
      got:
        a.status === 0
          ? a.error
          : `HTTP ${a.status}, Access-Control-Allow-Origin ${a.headers.get("access-control-allow-origin") ?? "absent"}`,
      hint: "browser clients that send If-None-Match or Authorization preflight their requests",
    });
  }
}
