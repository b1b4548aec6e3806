// The reader page's HTML, written at the tree's root: it names the entry point the page
// starts from (relative to the page, so the tree works at any address) and allows nothing but
// the page's own files (the same policy `dts serve` sends as a header).

import { escapeXml } from "../render/response.js";
import { type Site, servesApi } from "../site.js";
import { entryUrl } from "../urls.js";
import { v1Url } from "../v1/urls.js";

export const PAGE_HTML = "index.html";
export const PAGE_SCRIPT = "dts-reader.js";
export const PAGE_STYLE = "dts-reader.css";

/** What the page may load: its own script and style, the API on its own origin, nothing else. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/**
 * The entry point the page starts from, relative to the page at the site's root: 1-draft2's
 * when the tree serves it (writes go through it), else 1.0's (the static profile's file).
 */
export function pageEntry(site: Site): string {
  const path = servesApi(site, "1-draft2") ? entryUrl(site) : v1Url({ ...site, siteUrl: undefined }, { kind: "v1-entry" });
  return path === "/" ? "./" : path.replace(/^\//, "");
}

export function renderPageHtml(site: Site): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="dts-entry" content="${escapeXml(pageEntry(site))}">
<title>DTS reader</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${PAGE_STYLE}">
<script type="module" src="${PAGE_SCRIPT}"></script>
</head>
<body>
<a class="skip" href="#view">Skip to the text</a>
<header id="site"><h1>DTS reader</h1></header>
<main>
<div id="status" role="status" aria-live="polite"></div>
<div id="view" tabindex="-1"><noscript>This reader needs JavaScript. The API itself is at <a href="${escapeXml(pageEntry(site))}">${escapeXml(pageEntry(site))}</a>.</noscript></div>
</main>
<footer>Distributed Text Services · <a href="${escapeXml(pageEntry(site))}">API entry point</a></footer>
</body>
</html>
`;
}
