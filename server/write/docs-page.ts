// The page that documents this server's write rules and restrictions, at `{base}/docs/writes`:
// errors that name a restriction give its address (the spec asks for one), and it states the
// settings in force (body limit, PUT level, schema), which a static page could not.

import { escapeXml } from "../../builder/render/response.js";
import type { Site } from "../../builder/site.js";

export interface WritesPageOptions {
  enabled: boolean;
  maxBody: number;
  putLowestOnly: boolean;
  schema?: string;
  xmlModel: boolean;
}

export const writesPagePath = (site: Site): string => `${site.basePath}/docs/writes`;

export function renderWritesPage(site: Site, o: WritesPageOptions): string {
  const doc = `${site.basePath}/document`;
  const section = (id: string, title: string, body: string): string =>
    `<section id="${id}"><h2>${escapeXml(title)}</h2>${body}</section>\n`;
  const p = (text: string): string => `<p>${text}</p>`;
  const code = (text: string): string => `<code>${escapeXml(text)}</code>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Writes: POST, PUT, DELETE</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48em;margin:2em auto;padding:0 1em}code{background:#f3f3f3;padding:0 .2em}</style>
</head><body>
<h1>Writes on the Document endpoint</h1>
${p(`This server ${o.enabled ? "<strong>accepts</strong>" : "does <strong>not</strong> accept"} POST, PUT and DELETE on ${code(doc)}. The full guide is <code>docs/writes.md</code> in the project.`)}
${section("enable", "Enabling writes", p(`Start ${code("dts serve --corpus <dir> --dist <dir>")} with the environment variable ${code("DTS_TOKEN")} set. Without it every write is refused with 403.`))}
${section("auth", "Token", p(`Send the token as the ${code("token")} query parameter or as ${code("Authorization: Bearer <token>")}. No token: 401; a wrong one: 403.`))}
${section("post", "POST", p(`Without ${code("after")} or ${code("before")}: the document's first text, a whole TEI document without dts:fragment (409 if it has text). With ${code("after")} or ${code("before")}: the element(s) inside dts:fragment are inserted as siblings of that passage; their references come from their attributes (a duplicate is 409). ${code("ref")}, ${code("start")} and ${code("end")} are refused (400).`))}
${section("put", "PUT", p(`${code("ref")} names the passage; dts:fragment holds exactly one element, which replaces it (its attributes may change, its reference may not). A passage of an upper level must keep the same nested passages, in the same order.`))}
${section("delete", "DELETE", p(`${code("ref")}, or ${code("start")} and ${code("end")} (both): the passages are removed; the answer holds their old content.`))}
${section("bodies", "Bodies", p(`TEI XML in UTF-8: root ${code("TEI")} in the TEI namespace. No DOCTYPE and no entity declaration (nothing is ever expanded): only the predefined entities and character references.`))}
${section("body-size", "Body size", p(`Bodies larger than <strong>${o.maxBody}</strong> bytes are refused with 413 (${code("dts serve --max-body")}).`))}
${section("namespaces", "Namespaces", p(`Submitted elements are copied into the source as written. Every prefix they use without declaring it (and the default namespace) must mean the same in the body as at that place in the document: a document that writes TEI with a ${code("tei:")} prefix takes elements written with that prefix.`))}
${section("put-lowest-only", "PUT at the lowest level only", p(o.putLowestOnly ? `<strong>In force:</strong> PUT is accepted only on passages with no nested passages; replace a book or a chapter passage by passage (${code("dts serve --put-lowest-only")}).` : `Not in force on this server: PUT is accepted at every level (${code("dts serve --put-lowest-only")} enables it).`))}
${section("schema", "Schema validation", p(o.schema ? `Every resulting document is validated against ${code(o.schema.split("/").pop() ?? o.schema)} before anything is written; failures are 422 with the line and message.` : o.xmlModel ? `A document whose ${code("<?xml-model?>")} names a local RELAX NG file is validated against it before anything is written; failures are 422 with the line and message. Remote schemas are not fetched.` : "No schema validation on this server."))}
${section("schema-sources", "Schema sources", p(`A schema named by a document's ${code("<?xml-model?>")} is used only when it lies inside the corpus or a folder given with ${code("--schema-dir")}, is a regular file and is at most 16 MiB; otherwise, or when it does not exist or does not compile, the write is refused with 422 naming the schema and the rule.`))}
${section("structure", "Citation structure", p(`A write keeps every passage where the document's citation scheme finds it: the submitted passages are in the TEI namespace and of their level's element kind (PUT: the kind of the passage replaced), hold no uncited element of their own kind, and new citation values hold no ${code(".")} or level delimiter, no ${code("/")}, ${code("\\")} or ${code("..")}, no control character. Otherwise 400, with the line and column.`))}
${section("outside-content", "Outside content", p(`XInclude elements are refused (400); other references in a body are kept as written and never followed.`))}
${section("depth", "Depth", p(`Elements may nest at most 256 levels deep; deeper bodies are refused with 422, naming the line.`))}
</body></html>
`;
}
