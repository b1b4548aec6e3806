// A passage: its text rendered readably (the XML a toggle away), the way to its neighbours
// (prev, up, next), and its addresses to copy: the DTS Document URL and a citation.

import type { Passage } from "./api.js";
import { type Child, h } from "./dom.js";
import { passageRoute, placeLabel } from "./route.js";
import { parseTei, passageContent, renderTei } from "./tei.js";
import { link } from "./view-collection.js";

export interface PassageContext {
  title: string;
  creator?: string;
  language: { lang: string; dir: "rtl" | "ltr" } | null;
  /** This page's address for the passage, absolute. */
  pageUrl: string;
}

export function citation(p: Passage, ctx: PassageContext): string {
  return `${ctx.creator ? `${ctx.creator}, ` : ""}${ctx.title} ${placeLabel(p.place)} (${p.place.id}). ${ctx.pageUrl}`;
}

function copyField(label: string, value: string, name: string): HTMLElement {
  const input = h("input", { type: "text", readonly: true, value, id: `copy-${name}`, "data-copy": name });
  const status = h("span", { class: "copied", role: "status" });
  const button = h("button", { type: "button" }, "Copy");
  button.addEventListener("click", () => {
    input.select();
    navigator.clipboard?.writeText(value).then(
      () => (status.textContent = "Copied"),
      () => (status.textContent = "Selected: press Ctrl+C to copy"),
    ) ?? (status.textContent = "Selected: press Ctrl+C to copy");
  });
  return h("div", { class: "copy" }, h("label", { for: `copy-${name}` }, label), input, button, status);
}

export function renderPassage(p: Passage, ctx: PassageContext, actions: Child[]): HTMLElement {
  const content = passageContent(parseTei(p.xml));
  const text = h("article", {
    class: "text",
    id: "passage-text",
    ...(ctx.language ? { lang: ctx.language.lang, dir: ctx.language.dir } : {}),
  });
  if (content) text.append(renderTei(content));
  else text.append(h("p", { class: "error" }, "This passage is not well-formed XML; see its XML below."));
  const xml = h("pre", { class: "xml", id: "passage-xml", hidden: true }, p.xml);
  const toggle = h("button", { type: "button", "aria-pressed": "false", "aria-controls": "passage-xml", id: "toggle-xml" }, "Show XML");
  toggle.addEventListener("click", () => {
    const showing = xml.hidden;
    xml.hidden = !showing;
    text.hidden = showing;
    toggle.setAttribute("aria-pressed", String(showing));
    toggle.textContent = showing ? "Show text" : "Show XML";
  });
  const near = (place: Passage["prev"], label: string, rel: string): Child =>
    place ? h("span", { class: rel }, link(passageRoute(place), label)) : h("span", { class: `${rel} none` }, label);
  const nav = h(
    "nav",
    { class: "passage-nav", "aria-label": "Passage" },
    near(p.prev, "← Previous", "prev"),
    near(p.up, "↑ Up", "up"),
    near(p.next, "Next →", "next"),
  );
  for (const [rel, a] of [
    ["prev", nav.querySelector(".prev a")],
    ["next", nav.querySelector(".next a")],
    ["up", nav.querySelector(".up a")],
  ] as const) {
    a?.setAttribute("rel", rel);
  }
  return h(
    "section",
    { class: "passage", "aria-labelledby": "view-title" },
    h("h2", { id: "view-title" }, link({ view: "resource", id: p.place.id }, ctx.title), ` ${placeLabel(p.place)}`),
    nav,
    text,
    xml,
    h("div", { class: "tools" }, toggle, actions),
    h("div", { class: "cite" }, copyField("DTS URL", p.url, "url"), copyField("Citation", citation(p, ctx), "citation")),
  );
}
