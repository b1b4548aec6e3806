// State shared by the loaders while one catalog is being built.
import type { CatalogNode, CollectionNode, Warning } from "../catalog.js";
import { parseXml, type XmlElement } from "./xml.js";

export interface LoadContext {
  nodes: Map<string, CatalogNode>;
  warnings: Warning[];
  /** Every file under the corpus (absolute paths): existence checks without one stat per record. */
  files: Set<string>;
  /** Files claimed by a metadata record: TEI texts, and metadata files reached through a @path. */
  referenced: Set<string>;
}

export function newContext(files: Iterable<string>): LoadContext {
  return { nodes: new Map(), warnings: [], files: new Set(files), referenced: new Set() };
}

/**
 * Adds a node unless its id is taken: then a warning, and the first one wins. `lineOf` locates the
 * skipped record; it is only called then, since finding a line means searching the file's text.
 */
export function addNode(ctx: LoadContext, node: CatalogNode, file: string, lineOf?: () => number | undefined): boolean {
  if (ctx.nodes.has(node.id)) {
    ctx.warnings.push({ file, line: lineOf?.(), message: `duplicate id "${node.id}"; this ${node.kind} is skipped` });
    return false;
  }
  ctx.nodes.set(node.id, node);
  return true;
}

/** Makes `child` a member of `parent`, keeping both sides in step and each id once. */
export function link(parent: CollectionNode, child: CatalogNode): void {
  if (!parent.children.includes(child.id)) parent.children.push(child.id);
  if (!child.parents.includes(parent.id)) child.parents.push(parent.id);
}

/** Plain code-point order: ids sort the same on every machine, whatever the locale. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Reads a metadata file as listed: its root element, or (not well formed) a warning with
 * line and column and undefined, so the file is skipped and the rest of the corpus loads.
 */
export function parseListedFile(src: { file: string; text: string }, ctx: LoadContext): XmlElement | undefined {
  ctx.referenced.add(src.file);
  const parsed = parseXml(src.text);
  if (parsed.ok) return parsed.root;
  ctx.warnings.push({
    file: src.file,
    line: parsed.line,
    column: parsed.column,
    message: `not well-formed XML (${parsed.message}); file skipped`,
  });
  return undefined;
}
