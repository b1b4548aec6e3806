// The passage editor: the passage's XML in a textarea with line numbers; a save sends it back
// with the ETag it was read with. The server's validation errors are pinned to their line; a
// 412 (someone saved in between) shows their version beside this one, and nothing typed is lost.

import { describe, type Passage } from "./api.js";
import { linesBefore, newPassageTemplate, splitPassage, type Wrapping, wrap } from "./body.js";
import { h, replace } from "./dom.js";
import { placeOfDocumentUrl } from "./links.js";
import { type Pin, pinError } from "./pin.js";
import type { Place } from "./route.js";
import type { WriteClient } from "./writes.js";

export type EditMode = "edit" | "after" | "before";

export interface EditorOptions {
  mode: EditMode;
  passage: Passage;
  writes: WriteClient;
  /** The passage as the server has it now (after a 412). */
  reload: () => Promise<Passage>;
  onSaved: (place: Place) => void;
  onCancel: () => void;
}

const TITLES: Record<EditMode, string> = { edit: "Edit", after: "Insert a passage after", before: "Insert a passage before" };

export function openEditor(o: EditorOptions): HTMLElement {
  const split = splitPassage(o.passage.xml);
  const ref = o.passage.place.ref ?? "";
  if (!split) return h("p", { class: "error", role: "alert" }, "This passage has no dts:fragment to edit.");
  let wrapping: Wrapping = split.wrapping;
  let etag = o.mode === "edit" ? o.passage.etag : null;
  const textarea = h("textarea", { id: "editor-text", spellcheck: "false", wrap: "off", rows: "12" });
  textarea.value = o.mode === "edit" ? split.content : newPassageTemplate(split.content);
  const gutter = h("pre", { class: "gutter", "aria-hidden": "true" });
  const problems = h("ul", { class: "problems", id: "editor-problems", role: "alert" });
  const conflict = h("div", { class: "conflict", id: "editor-conflict", hidden: true });
  const status = h("p", { class: "editor-status", role: "status" });
  let pins: Pin[] = [];

  const drawGutter = (): void => {
    const count = textarea.value.split("\n").length;
    const marked = new Set(pins.map((p) => p.line));
    replace(
      gutter,
      Array.from({ length: count }, (_, i) =>
        h("span", marked.has(i + 1) ? { class: "error-line", "data-line": String(i + 1) } : {}, `${i + 1}\n`),
      ),
    );
    gutter.scrollTop = textarea.scrollTop;
  };
  textarea.addEventListener("input", drawGutter);
  textarea.addEventListener("scroll", () => (gutter.scrollTop = textarea.scrollTop));

  const goTo = (pin: Pin): void => {
    const lines = textarea.value.split("\n");
    const offset = lines.slice(0, pin.line - 1).reduce((n, l) => n + l.length + 1, 0) + Math.max(0, (pin.column ?? 1) - 1);
    textarea.focus();
    textarea.setSelectionRange(offset, offset);
  };

  const showProblem = (description: string): void => {
    const pin = pinError(description, linesBefore(wrapping));
    pins = pin ? [pin] : [];
    const where = pin ? `Line ${pin.line}${pin.column ? `, column ${pin.column}` : ""}:` : "";
    replace(
      problems,
      h(
        "li",
        pin ? { "data-line": String(pin.line), ...(pin.column ? { "data-column": String(pin.column) } : {}) } : {},
        pin ? [h("button", { type: "button", class: "goto", onclick: () => goTo(pin) }, where), " "] : null,
        description,
      ),
    );
    drawGutter();
  };

  const showConflict = async (): Promise<void> => {
    status.textContent = "Someone changed this passage since you opened it: compare, then choose.";
    const theirs = await o.reload();
    const theirSplit = splitPassage(theirs.xml);
    const theirText = theirSplit?.content ?? theirs.xml;
    const keepMine = h("button", { type: "button", id: "keep-mine" }, "Save mine over theirs");
    keepMine.addEventListener("click", () => {
      etag = theirs.etag;
      if (theirSplit) wrapping = theirSplit.wrapping;
      conflict.hidden = true;
      void save();
    });
    const takeTheirs = h("button", { type: "button", id: "take-theirs" }, "Take theirs");
    takeTheirs.addEventListener("click", () => {
      etag = theirs.etag;
      textarea.value = theirText;
      conflict.hidden = true;
      drawGutter();
    });
    replace(
      conflict,
      h("h3", {}, "Edit conflict"),
      h(
        "div",
        { class: "versions" },
        h("figure", {}, h("figcaption", {}, "Theirs (on the server now)"), h("pre", { id: "conflict-theirs" }, theirText)),
        h("figure", {}, h("figcaption", {}, "Yours (not saved)"), h("pre", { id: "conflict-yours" }, textarea.value)),
      ),
      keepMine,
      takeTheirs,
    );
    conflict.hidden = false;
  };

  const save = async (): Promise<void> => {
    status.textContent = "Saving…";
    replace(problems);
    pins = [];
    drawGutter();
    const body = wrap(wrapping, textarea.value);
    let response: Response;
    try {
      response =
        o.mode === "edit"
          ? await o.writes.put(o.passage.place, body, etag)
          : await o.writes.insert(o.passage.place.id, o.mode === "after" ? { after: ref } : { before: ref }, body, etag);
    } catch (e) {
      status.textContent = `The server could not be reached: ${e instanceof Error ? e.message : String(e)}`;
      return;
    }
    if (response.ok) {
      status.textContent = "Saved.";
      const location = response.headers.get("Location");
      const place = location ? placeOfDocumentUrl(new URL(location, o.passage.url).href) : undefined;
      o.onSaved(place ?? o.passage.place);
      return;
    }
    const description = describe(await response.text()) ?? `${response.status} ${response.statusText}`;
    if (response.status === 412) {
      status.textContent = "";
      await showConflict();
      return;
    }
    status.textContent = response.status === 401 || response.status === 403 ? "Not saved: check the token." : "Not saved.";
    showProblem(description);
  };

  const saveButton = h("button", { type: "button", id: "editor-save", class: "primary" }, o.mode === "edit" ? "Save" : "Insert");
  saveButton.addEventListener("click", () => void save());
  const cancel = h("button", { type: "button", id: "editor-cancel" }, "Cancel");
  cancel.addEventListener("click", () => o.onCancel());
  if (o.mode !== "edit") {
    // A POST's If-Match names the whole document, read now.
    void o.writes.documentTag(o.passage.place.id).then((tag) => (etag = tag));
  }
  drawGutter();
  return h(
    "section",
    { class: "editor", "aria-labelledby": "editor-title" },
    h("h3", { id: "editor-title" }, `${TITLES[o.mode]} ${ref}`),
    h("label", { for: "editor-text" }, "Passage XML (the content of dts:fragment)"),
    h("div", { class: "numbered" }, gutter, textarea),
    problems,
    conflict,
    h("div", { class: "tools" }, saveButton, cancel),
    status,
  );
}
