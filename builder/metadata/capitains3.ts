// CapiTainS 3 metadata: `__capitains__.xml` files, each one `collection` whose `members` are either
// sub-collections (inline, or in another file named by @path) or readable texts (@readable="true",
// @path to the TEI file). Membership defines the tree.
import { readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { CatalogNode, CollectionNode, DcValue, DublinCore, ResourceNode } from "../catalog.js";
import { addNode, type LoadContext, link, parseListedFile } from "./context.js";
import {
  addDcElement,
  cleanText,
  DC_NS,
  dcValueOf,
  firstText,
  newExtensions,
  readStructuredMetadata,
  withMetadata,
} from "./dublin-core.js";
import { mapLimit, OPEN_FILES } from "./walk.js";
import { childrenNamed, firstChild, lineColumnAt, lineOfAttribute, type XmlElement, xmlLang } from "./xml.js";

export const CAPITAINS_NS = "http://purl.org/capitains/ns/1.0#";

interface Source {
  file: string;
  text: string;
}

/** One entry of a `members` list: a node read inline, or another metadata file to link once loaded. */
type MemberSlot = { id: string } | { path: string; rawPath: string; src: Source };

interface FileCollection {
  id: string;
  declaredParents: string[];
}

/**
 * Loads `__capitains__.xml` files (and the metadata files their members point to) into `ctx`.
 * Returns the ids of the collections no other collection lists: they go under the root.
 */
export async function loadCapitainsFiles(files: string[], ctx: LoadContext): Promise<string[]> {
  const byFile = new Map<string, FileCollection | undefined>();
  // Members are linked after every file is read, in `members` order, whichever file came first.
  const slots = new Map<string, MemberSlot[]>();
  const queue = [...files];
  while (queue.length > 0) {
    const batch = queue.splice(0).filter((f) => !byFile.has(f));
    const sources = await mapLimit(
      batch,
      OPEN_FILES,
      async (file): Promise<Source> => ({
        file,
        text: await readFile(file, "utf8"),
      }),
    );
    for (const src of sources) {
      if (!byFile.has(src.file)) byFile.set(src.file, readCapitainsFile(src, ctx, slots));
    }
    // Members may name metadata files with other names, or outside the walked tree.
    for (const list of slots.values()) {
      for (const slot of list) {
        if ("path" in slot && !byFile.has(slot.path) && !queue.includes(slot.path) && (await exists(slot.path, ctx))) {
          queue.push(slot.path);
        }
      }
    }
  }

  for (const [parentId, list] of slots) {
    const parent = ctx.nodes.get(parentId);
    if (parent?.kind !== "collection") continue;
    for (const slot of list) {
      if ("id" in slot) {
        const child = ctx.nodes.get(slot.id);
        if (child) link(parent, child);
      } else if (!byFile.has(slot.path)) {
        ctx.warnings.push({
          file: slot.src.file,
          line: lineOfAttribute(slot.src.text, "path", slot.rawPath),
          message: `member "${slot.rawPath}": file not found; skipped`,
        });
      } else {
        // A file that failed to load has already been reported.
        const target = byFile.get(slot.path);
        const child = target && ctx.nodes.get(target.id);
        if (child) link(parent, child);
      }
    }
  }

  const topLevel: string[] = [];
  for (const entry of byFile.values()) {
    const node = entry ? ctx.nodes.get(entry.id) : undefined;
    if (!entry || !node || node.parents.length > 0) continue;
    // <parent> only places a collection that no `members` list claims.
    const declared = entry.declaredParents
      .map((id) => ctx.nodes.get(id))
      .filter((n): n is CollectionNode => n?.kind === "collection" && n.id !== node.id);
    if (declared.length > 0) for (const parent of declared) link(parent, node);
    else topLevel.push(node.id);
  }
  return topLevel;
}

async function exists(path: string, ctx: LoadContext): Promise<boolean> {
  if (ctx.files.has(path)) return true;
  const s = await stat(path).catch(() => undefined);
  return s?.isFile() ?? false;
}

function readCapitainsFile(src: Source, ctx: LoadContext, slots: Map<string, MemberSlot[]>): FileCollection | undefined {
  const root = parseListedFile(src, ctx);
  if (!root) return undefined;
  if (root.local !== "collection" || root.ns !== CAPITAINS_NS) {
    ctx.warnings.push({ file: src.file, message: `root element <${root.name}> is not a CapiTainS collection; file skipped` });
    return undefined;
  }
  const node = readCollection(root, src, ctx, slots);
  if (!node) return undefined;
  const declaredParents = childrenNamed(root, CAPITAINS_NS, "parent")
    .map((p) => cleanText(p.text))
    .filter(Boolean);
  return { id: node.id, declaredParents };
}

interface CommonMetadata {
  id: string;
  title: string;
  description?: string;
  dublinCore?: DublinCore;
  extensions?: Record<string, DcValue[]>;
  vocabularies?: Record<string, string>;
}

/** Identifier, titles and Dublin Core of a collection or readable member. */
function readCommon(el: XmlElement, src: Source, ctx: LoadContext): CommonMetadata | undefined {
  const id = cleanText(firstChild(el, CAPITAINS_NS, "identifier")?.text ?? "") || el.attrs.identifier?.trim();
  if (!id) {
    ctx.warnings.push({ file: src.file, message: "collection without an identifier; skipped" });
    return undefined;
  }
  const dc: DublinCore = {};
  const ext = newExtensions();
  const warn = (message: string): void => {
    ctx.warnings.push({ file: src.file, line: lineOfId(src, id), message: `${id}: ${message}` });
  };
  for (const child of el.children) {
    if (child.ns === DC_NS) addDcElement(dc, ext, child, dcValueOf(child.text, xmlLang(child)), warn);
  }
  for (const block of childrenNamed(el, CAPITAINS_NS, "structured-metadata")) readStructuredMetadata(block, dc, ext, warn);
  const title = firstText(childrenNamed(el, DC_NS, "title")) ?? id;
  const description = firstText(childrenNamed(el, DC_NS, "description"));
  return { id, title, ...(description ? { description } : {}), ...withMetadata(dc, ext) };
}

function readCollection(el: XmlElement, src: Source, ctx: LoadContext, slots: Map<string, MemberSlot[]>): CollectionNode | undefined {
  const common = readCommon(el, src, ctx);
  if (!common) return undefined;
  const node: CollectionNode = { kind: "collection", ...common, parents: [], children: [] };
  if (!addNode(ctx, node, src.file, () => lineOfId(src, node.id))) return undefined;
  const list: MemberSlot[] = [];
  slots.set(node.id, list);
  const members = firstChild(el, CAPITAINS_NS, "members");
  for (const member of members ? childrenNamed(members, CAPITAINS_NS, "collection") : []) {
    const rawPath = member.attrs.path?.trim();
    let child: CatalogNode | undefined;
    if (member.attrs.readable?.trim().toLowerCase() === "true") {
      child = readReadable(member, rawPath, src, ctx);
    } else if (rawPath) {
      list.push({ path: resolve(dirname(src.file), rawPath), rawPath, src });
    } else {
      child = readCollection(member, src, ctx, slots);
    }
    if (child) list.push({ id: child.id });
  }
  return node;
}

function readReadable(el: XmlElement, rawPath: string | undefined, src: Source, ctx: LoadContext): ResourceNode | undefined {
  if (!rawPath) {
    ctx.warnings.push({ file: src.file, message: "readable collection without @path; skipped" });
    return undefined;
  }
  const common = readCommon(el, src, ctx);
  if (!common) return undefined;
  const file = resolve(dirname(src.file), rawPath);
  const node: ResourceNode = { kind: "resource", ...common, parents: [], file, metadataFile: src.file };
  if (!addNode(ctx, node, src.file, () => lineOfId(src, node.id))) return undefined;
  ctx.referenced.add(file);
  return node;
}

// Identifiers are element text here, not attributes; find the line of the last `<identifier>id`
// (for a duplicate inside one file, the last one is the one skipped).
function lineOfId(src: Source, id: string): number | undefined {
  const i = src.text.lastIndexOf(`>${id}<`);
  return i < 0 ? undefined : lineColumnAt(src.text, i).line;
}
