// A Resource's citation tree, one level at a time: each unit links to its passage, and a unit
// with children has a button that asks the Navigation endpoint for them when first opened.

import type { Unit } from "./api.js";
import { h } from "./dom.js";
import { link } from "./view-collection.js";

export type LoadChildren = (ref: string | undefined) => Promise<Unit[]>;

export function renderTree(id: string, load: LoadChildren, onError: (e: unknown) => void): HTMLElement {
  const root = h("ul", { class: "tree", "aria-label": "Citation tree" });
  void fill(root, id, undefined, load, onError);
  return root;
}

async function fill(
  list: HTMLElement,
  id: string,
  ref: string | undefined,
  load: LoadChildren,
  onError: (e: unknown) => void,
): Promise<void> {
  list.setAttribute("aria-busy", "true");
  try {
    const units = await load(ref);
    list.replaceChildren(...units.map((u) => unitItem(id, u, load, onError)));
    if (units.length === 0) list.append(h("li", { class: "empty" }, "No citable passages."));
  } catch (e) {
    onError(e);
  } finally {
    list.removeAttribute("aria-busy");
  }
}

function unitItem(id: string, unit: Unit, load: LoadChildren, onError: (e: unknown) => void): HTMLElement {
  const label = `${unit.citeType ? `${unit.citeType} ` : ""}${unit.ref}`;
  const item = h("li", { "data-ref": unit.ref });
  if (unit.hasChildren) {
    const children = h("ul", { hidden: true });
    const toggle = h("button", { type: "button", class: "toggle", "aria-expanded": "false", "aria-label": `Open ${label}` }, "▸");
    toggle.addEventListener("click", () => {
      const open = toggle.getAttribute("aria-expanded") !== "true";
      toggle.setAttribute("aria-expanded", String(open));
      toggle.textContent = open ? "▾" : "▸";
      children.hidden = !open;
      if (open && !children.dataset.loaded) {
        children.dataset.loaded = "true";
        void fill(children, id, unit.ref, load, onError);
      }
    });
    item.append(toggle, " ", link({ view: "passage", place: { id, ref: unit.ref } }, label), children);
  } else
    item.append(
      h("span", { class: "leaf", "aria-hidden": "true" }, "·"),
      " ",
      link({ view: "passage", place: { id, ref: unit.ref } }, label),
    );
  return item;
}
