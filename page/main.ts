// The reader: starts from the entry point the HTML names (`<meta name="dts-entry">`), follows
// what it answers (1-draft2 endpoints or 1.0 templates), and shows what the page's own query
// string names. With a server that accepts writes, passages can be edited, inserted, deleted.

import { ApiError, type DtsApi, get, type Member, type Passage } from "./api.js";
import { type Child, h, replace } from "./dom.js";
import { type Draft2Entry, draft2Api, readDraft2Entry } from "./draft2.js";
import { type EditMode, openEditor } from "./editor.js";
import { textLanguage } from "./language.js";
import { type Place, parseRoute, type Route, routeHref } from "./route.js";
import { readV1Entry, v1Api } from "./v1.js";
import { dublinCoreList, joinTexts, link, renderCollection } from "./view-collection.js";
import { type PassageContext, renderPassage } from "./view-passage.js";
import { renderTree } from "./view-tree.js";
import { token, type WriteClient, writeClient, writesEnabled } from "./writes.js";

interface Reader {
  api: DtsApi;
  writes: WriteClient | null;
  view: HTMLElement;
  status: HTMLElement;
  /** Resources' metadata, read once. */
  resources: Map<string, Promise<Member>>;
}

async function connect(entryUrl: string): Promise<{ api: DtsApi; entry?: Draft2Entry }> {
  const response = await get(entryUrl, "application/ld+json");
  const json = (await response.json()) as Record<string, unknown>;
  if (json.dtsVersion === "1.0") return { api: v1Api(readV1Entry(entryUrl, json)) };
  const entry = await readDraft2Entry(entryUrl, response, json);
  return { api: draft2Api(entry), entry };
}

function showError(r: Reader, e: unknown): void {
  const message = e instanceof ApiError ? `${e.status}: ${e.description}` : e instanceof Error ? e.message : String(e);
  replace(r.status, h("span", { class: "error", role: "alert" }, message));
}

function resource(r: Reader, id: string): Promise<Member> {
  let found = r.resources.get(id);
  if (!found) {
    found = r.api.collection(id).then((c) => c.node);
    found.catch(() => r.resources.delete(id));
    r.resources.set(id, found);
  }
  return found;
}

async function show(r: Reader, route: Route): Promise<void> {
  replace(r.status);
  r.view.setAttribute("aria-busy", "true");
  document.body.dataset.ready = "false";
  try {
    if (route.view === "collection") {
      const page = await r.api.collection(route.id, route.page);
      replace(r.view, renderCollection(page, route.id));
      document.title = `${page.node.title} — DTS reader`;
    } else if (route.view === "resource") {
      const node = await resource(r, route.id);
      const language = textLanguage(node.dublinCore);
      replace(
        r.view,
        h(
          "section",
          { class: "resource", "aria-labelledby": "view-title" },
          h("h2", { id: "view-title", ...(language ? { lang: language.lang, dir: language.dir } : {}) }, node.title),
          node.description ? h("p", { class: "description" }, node.description) : null,
          dublinCoreList(node),
          h("h3", {}, "Contents"),
          renderTree(
            route.id,
            (ref) => r.api.children(route.id, ref),
            (e) => showError(r, e),
          ),
        ),
      );
      document.title = `${node.title} — DTS reader`;
    } else await showPassage(r, route.place);
  } catch (e) {
    replace(r.view);
    showError(r, e);
  } finally {
    r.view.removeAttribute("aria-busy");
    document.body.dataset.ready = "true";
  }
}

async function showPassage(r: Reader, place: Place): Promise<void> {
  const [passage, node] = await Promise.all([r.api.passage(place), resource(r, place.id).catch(() => null)]);
  const creator = node?.dublinCore.creator?.[0]?.value;
  const ctx: PassageContext = {
    title: node?.title ?? place.id,
    ...(creator ? { creator } : {}),
    language: node ? textLanguage(node.dublinCore) : null,
    pageUrl: new URL(routeHref({ view: "passage", place }), location.href).href,
  };
  const editor = h("div", { class: "editor-slot" });
  const view = renderPassage(passage, ctx, r.writes ? editActions(r, passage, editor) : []);
  view.append(editor);
  replace(r.view, view);
  document.title = `${ctx.title} ${place.ref ?? ""} — DTS reader`;
}

function openIn(r: Reader, slot: HTMLElement, passage: Passage, mode: EditMode): void {
  const writes = r.writes!;
  replace(
    slot,
    openEditor({
      mode,
      passage,
      writes,
      reload: () => r.api.passage(passage.place),
      onSaved: (place) => navigate(r, { view: "passage", place }),
      onCancel: () => replace(slot),
    }),
  );
  slot.querySelector("textarea")?.focus();
}

function editActions(r: Reader, passage: Passage, slot: HTMLElement): Child[] {
  if (passage.place.ref === undefined) return [];
  const button = (id: string, label: string, mode: EditMode): HTMLButtonElement =>
    h("button", { type: "button", id, onclick: () => openIn(r, slot, passage, mode) }, label);
  const confirmBox = h("div", { class: "confirm", id: "delete-confirm", hidden: true });
  const askDelete = h("button", { type: "button", id: "delete" }, "Delete…");
  askDelete.addEventListener("click", () => {
    const yes = h("button", { type: "button", id: "delete-yes", class: "danger" }, `Delete ${passage.place.ref}`);
    const no = h("button", { type: "button", id: "delete-no" }, "Keep it");
    replace(confirmBox, h("p", {}, `Delete passage ${passage.place.ref} from the source file?`), yes, " ", no);
    confirmBox.hidden = false;
    no.addEventListener("click", () => (confirmBox.hidden = true));
    yes.addEventListener("click", async () => {
      const response = await r.writes!.remove(passage.place, passage.etag);
      if (!response.ok) {
        replace(confirmBox, h("p", { class: "error", role: "alert" }, `Not deleted (${response.status}): ${await response.text()}`));
        return;
      }
      const next = passage.prev ?? passage.next ?? passage.up ?? { id: passage.place.id };
      navigate(r, next.ref || next.start ? { view: "passage", place: next } : { view: "resource", id: next.id });
    });
    no.focus();
  });
  return [
    button("edit", "Edit", "edit"),
    button("insert-before", "Insert before", "before"),
    button("insert-after", "Insert after", "after"),
    askDelete,
    confirmBox,
  ];
}

function navigate(r: Reader, route: Route): void {
  history.pushState(null, "", routeHref(route));
  // The focus follows to what is shown, as a page load would put it.
  void show(r, route).then(() => r.view.focus());
}

function tokenPanel(): HTMLElement {
  const input = h("input", { type: "password", id: "token", autocomplete: "off", value: token.get() });
  input.addEventListener("change", () => token.set(input.value.trim()));
  return h(
    "div",
    { class: "token" },
    h("label", { for: "token" }, "Write token"),
    input,
    h("span", { class: "hint" }, " kept for this tab only"),
  );
}

async function start(): Promise<void> {
  const entryMeta = document.querySelector<HTMLMetaElement>('meta[name="dts-entry"]')?.content ?? "api/dts";
  const entryUrl = new URL(entryMeta, location.href).href;
  const header = document.getElementById("site")!;
  const r: Reader = {
    api: null as unknown as DtsApi,
    writes: null,
    view: document.getElementById("view")!,
    status: document.getElementById("status")!,
    resources: new Map(),
  };
  try {
    const { api, entry } = await connect(entryUrl);
    r.api = api;
    if (entry && (await writesEnabled(entry.docs))) r.writes = writeClient(entry);
  } catch (e) {
    showError(r, e);
    return;
  }
  const root = await r.api.collection(undefined).catch(() => null);
  replace(
    header,
    h("h1", {}, link({ view: "collection" }, root?.node.title ?? "DTS reader")),
    root?.node.dublinCore.publisher && root.node.dublinCore.publisher[0]?.value !== root.node.title
      ? h("p", { class: "publisher" }, joinTexts(root.node.dublinCore.publisher))
      : null,
    h("p", { class: "api" }, `DTS ${r.api.version} · `, h("a", { href: entryUrl }, "entry point")),
    r.writes ? tokenPanel() : null,
  );
  document.body.dataset.api = r.api.version;
  if (r.writes) document.body.dataset.writes = "true";
  document.addEventListener("click", (event) => {
    const a = (event.target as Element | null)?.closest?.("a[data-route]");
    if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(r, parseRoute(new URL((a as HTMLAnchorElement).href).search));
  });
  addEventListener("popstate", () => void show(r, parseRoute(location.search)));
  await show(r, parseRoute(location.search));
}

void start();
