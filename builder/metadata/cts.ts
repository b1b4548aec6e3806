// CapiTainS 1/2 metadata: `__cts__.xml` files describing a textgroup, or a work with its editions,
// translations and commentaries. Tree: textgroup -> work -> resources; the id of each node is its URN.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { CollectionNode, DcValue, DublinCore, ResourceNode } from "../catalog.js";
import { addNode, compareIds, type LoadContext, link, parseListedFile } from "./context.js";
import { addDc, dcValueOf, type Extensions, firstText, newExtensions, readStructuredMetadata, withMetadata } from "./dublin-core.js";
import { mapLimit, OPEN_FILES } from "./walk.js";
import { lineOfAttribute, type XmlElement, xmlLang } from "./xml.js";

export const CTS_NS = "http://chs.harvard.edu/xmlns/cts";
const RESOURCE_TYPES = new Set(["edition", "translation", "commentary"]);

interface Source {
  file: string;
  text: string;
}

interface WorkEntry {
  el: XmlElement;
  src: Source;
  /** URN of the textgroup whose file embeds this work, if any. */
  embeddingGroup?: string;
}

// A few files bind the CTS namespace to no namespace at all; accept those elements too.
function isCts(el: XmlElement, local: string): boolean {
  return el.local === local && (el.ns === CTS_NS || el.ns === "");
}

function ctsChildren(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c) => isCts(c, local));
}

function structuredBlocks(el: XmlElement): XmlElement[] {
  return el.children.filter((c) => c.local === "structured-metadata");
}

/**
 * Loads CTS metadata files (normally every `__cts__.xml` of the corpus) into `ctx`.
 * Returns the ids of the nodes that belong directly under the root: textgroups, and works whose
 * textgroup no file declares.
 */
export async function loadCtsFiles(files: string[], ctx: LoadContext): Promise<string[]> {
  const sources = await mapLimit(
    files,
    OPEN_FILES,
    async (file): Promise<Source> => ({
      file,
      text: await readFile(file, "utf8"),
    }),
  );
  const groups: { el: XmlElement; src: Source }[] = [];
  const works: WorkEntry[] = [];
  for (const src of sources) {
    const root = parseListedFile(src, ctx);
    if (!root) continue;
    if (isCts(root, "textgroup")) {
      groups.push({ el: root, src });
      // A textgroup file may embed its works (seen in MyCapytain's fixtures).
      for (const w of ctsChildren(root, "work")) works.push({ el: w, src, embeddingGroup: root.attrs.urn });
    } else if (isCts(root, "work")) {
      works.push({ el: root, src });
    } else {
      ctx.warnings.push({ file: src.file, message: `root element <${root.name}> is not a CTS textgroup or work; file skipped` });
    }
  }

  const topLevel: string[] = [];
  // Resources name the textgroup as their creator, so textgroups are read first.
  const groupNames = new Map<string, DcValue[]>();
  for (const { el, src } of groups) {
    const node = readTextgroup(el, src, ctx);
    if (!node) continue;
    topLevel.push(node.id);
    groupNames.set(
      node.id,
      ctsChildren(el, "groupname").map((n) => dcValueOf(n.text, xmlLang(n))),
    );
  }
  const touched = new Set<CollectionNode>();
  for (const entry of works) {
    const work = readWork(entry, ctx, groupNames);
    if (!work) continue;
    const groupUrn = groupUrnOf(entry);
    const group = groupUrn ? ctx.nodes.get(groupUrn) : undefined;
    if (group && group.kind === "collection" && groupNames.has(group.id)) {
      link(group, work);
      touched.add(group);
    } else {
      ctx.warnings.push({
        file: entry.src.file,
        line: lineOfAttribute(entry.src.text, "urn", work.id),
        message: `work "${work.id}": textgroup "${groupUrn ?? "?"}" is not declared in any __cts__.xml; listed under the root`,
      });
      topLevel.push(work.id);
    }
  }
  for (const group of touched) group.children.sort(compareIds);
  return topLevel;
}

// @groupUrn, else the embedding textgroup, else the URN minus its last work component.
function groupUrnOf(entry: WorkEntry): string | undefined {
  const declared = entry.el.attrs.groupUrn?.trim();
  if (declared) return declared;
  if (entry.embeddingGroup) return entry.embeddingGroup.trim();
  const urn = entry.el.attrs.urn?.trim() ?? "";
  const dot = urn.lastIndexOf(".");
  return dot > urn.lastIndexOf(":") ? urn.slice(0, dot) : undefined;
}

function readTextgroup(el: XmlElement, src: Source, ctx: LoadContext): CollectionNode | undefined {
  const urn = el.attrs.urn?.trim();
  if (!urn) {
    ctx.warnings.push({ file: src.file, message: "textgroup without @urn; skipped" });
    return undefined;
  }
  const names = ctsChildren(el, "groupname");
  const dc: DublinCore = {};
  for (const n of names) addDc(dc, "title", dcValueOf(n.text, xmlLang(n)));
  const ext = newExtensions();
  readStructured(el, dc, ext, src, urn, ctx);
  const node: CollectionNode = {
    kind: "collection",
    id: urn,
    title: firstText(names) ?? urn,
    ...withMetadata(dc, ext),
    parents: [],
    children: [],
  };
  return addNode(ctx, node, src.file, () => lineOfAttribute(src.text, "urn", urn, "last")) ? node : undefined;
}

function readWork(entry: WorkEntry, ctx: LoadContext, groupNames: Map<string, DcValue[]>): CollectionNode | undefined {
  const { el, src } = entry;
  const urn = el.attrs.urn?.trim();
  if (!urn) {
    ctx.warnings.push({ file: src.file, message: "work without @urn; skipped" });
    return undefined;
  }
  const titles = ctsChildren(el, "title");
  const title = firstText(titles) ?? urn;
  const dc: DublinCore = {};
  for (const t of titles) addDc(dc, "title", dcValueOf(t.text, xmlLang(t)));
  const workLang = xmlLang(el);
  if (workLang) addDc(dc, "language", workLang);
  const ext = newExtensions();
  readStructured(el, dc, ext, src, urn, ctx);
  const work: CollectionNode = {
    kind: "collection",
    id: urn,
    title,
    ...withMetadata(dc, ext),
    parents: [],
    children: [],
  };
  if (!addNode(ctx, work, src.file, () => lineOfAttribute(src.text, "urn", urn, "last"))) return undefined;

  const creators = groupNames.get(groupUrnOf(entry) ?? "") ?? [];
  // Resources keep their file order: editions and translations are often interleaved on purpose.
  for (const child of el.children) {
    if (!RESOURCE_TYPES.has(child.local) || !isCts(child, child.local)) continue;
    const resource = readResource(child, src, ctx, { title, lang: workLang, creators });
    if (resource) link(work, resource);
  }
  return work;
}

function readResource(
  el: XmlElement,
  src: Source,
  ctx: LoadContext,
  work: { title: string; lang?: string; creators: DcValue[] },
): ResourceNode | undefined {
  const urn = el.attrs.urn?.trim();
  if (!urn) {
    ctx.warnings.push({ file: src.file, message: `${el.local} without @urn; skipped` });
    return undefined;
  }
  const labels = ctsChildren(el, "label");
  const descriptions = ctsChildren(el, "description");
  const dc: DublinCore = {};
  for (const l of labels) addDc(dc, "title", dcValueOf(l.text, xmlLang(l)));
  for (const d of descriptions) addDc(dc, "description", dcValueOf(d.text, xmlLang(d)));
  // Editions often omit @xml:lang: they are in the language of the work.
  const lang = xmlLang(el) ?? work.lang;
  if (lang) addDc(dc, "language", lang);
  addDc(dc, "type", el.local);
  const ext = newExtensions();
  readStructured(el, dc, ext, src, urn, ctx);
  if (!dc.creator) for (const c of work.creators) addDc(dc, "creator", c);

  const file = join(dirname(src.file), `${textFileStem(urn)}.xml`);
  const description = firstText(descriptions);
  const node: ResourceNode = {
    kind: "resource",
    id: urn,
    title: firstText(labels) ?? work.title,
    ...(description ? { description } : {}),
    ...withMetadata(dc, ext),
    parents: [],
    file,
    metadataFile: src.file,
  };
  if (!addNode(ctx, node, src.file, () => lineOfAttribute(src.text, "urn", urn, "last"))) return undefined;
  ctx.referenced.add(file);
  return node;
}

/** `urn:cts:latinLit:phi0448.phi001.perseus-lat2` -> `phi0448.phi001.perseus-lat2`. */
export function textFileStem(urn: string): string {
  const parts = urn.split(":");
  return parts.length >= 4 ? parts[3] : parts[parts.length - 1];
}

function readStructured(el: XmlElement, dc: DublinCore, ext: Extensions, src: Source, urn: string, ctx: LoadContext): void {
  for (const block of structuredBlocks(el)) {
    readStructuredMetadata(block, dc, ext, (message) =>
      ctx.warnings.push({ file: src.file, line: lineOfAttribute(src.text, "urn", urn), message: `${urn}: ${message}` }),
    );
  }
}
