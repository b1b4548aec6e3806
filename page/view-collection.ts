// A collection: its description, Dublin Core, and its members a page at a time.

import type { CollectionPage, Member, Text } from "./api.js";
import { type Child, h } from "./dom.js";
import { type Route, routeHref } from "./route.js";

/** Dublin Core terms shown, with their labels, in this order. */
const TERMS: [string, string][] = [
  ["creator", "Author"],
  ["title", "Title"],
  ["language", "Language"],
  ["description", "Description"],
  ["contributor", "Contributor"],
  ["date", "Date"],
  ["publisher", "Publisher"],
];

export const link = (route: Route, ...children: Child[]): HTMLAnchorElement =>
  h("a", { href: routeHref(route), "data-route": true }, ...children);

const textSpan = (t: Text): HTMLElement => h("span", t.lang ? { lang: t.lang } : {}, t.value);

export function joinTexts(texts: Text[] | undefined): Child[] {
  return (texts ?? []).flatMap((t, i) => (i ? ["; ", textSpan(t)] : [textSpan(t)]));
}

export function dublinCoreList(member: Member): HTMLElement | null {
  const rows = TERMS.filter(([term]) => member.dublinCore[term]?.length).map(([term, label]) => [
    h("dt", {}, label),
    h("dd", { "data-term": term }, joinTexts(member.dublinCore[term])),
  ]);
  return rows.length ? h("dl", { class: "dc" }, rows) : null;
}

const memberRoute = (m: Member): Route => (m.kind === "Resource" ? { view: "resource", id: m.id } : { view: "collection", id: m.id });

function memberItem(m: Member): HTMLElement {
  const creator = m.dublinCore.creator;
  const language = m.dublinCore.language;
  return h(
    "li",
    { class: m.kind === "Resource" ? "resource" : "collection" },
    link(memberRoute(m), m.title),
    creator?.length ? h("span", { class: "creator" }, " — ", joinTexts(creator)) : null,
    m.kind === "Collection" ? h("span", { class: "count" }, ` (${m.totalChildren} ${m.totalChildren === 1 ? "item" : "items"})`) : null,
    language?.length ? h("span", { class: "lang" }, ` [${language.map((t) => t.value).join(", ")}]`) : null,
    m.description ? h("p", { class: "description" }, m.description) : null,
  );
}

export function renderCollection(c: CollectionPage, id: string | undefined): HTMLElement {
  const pageLink = (page: number | undefined, label: string, rel: string): Child =>
    page === undefined ? null : h("a", { href: routeHref({ view: "collection", id, page }), "data-route": true, rel }, label);
  const paged = c.previous !== undefined || c.next !== undefined;
  return h(
    "section",
    { class: "collection", "aria-labelledby": "view-title" },
    h("h2", { id: "view-title" }, c.node.title),
    c.node.description ? h("p", { class: "description" }, c.node.description) : null,
    dublinCoreList(c.node),
    h("p", { class: "count" }, `${c.node.totalChildren} ${c.node.totalChildren === 1 ? "member" : "members"}`),
    h("ul", { class: "members" }, c.members.map(memberItem)),
    paged
      ? h(
          "nav",
          { class: "pages", "aria-label": "Pages" },
          pageLink(c.previous, "← Previous page", "prev"),
          h("span", {}, ` Page ${c.page}${c.last ? ` of ${c.last}` : ""} `),
          pageLink(c.next, "Next page →", "next"),
        )
      : null,
  );
}
