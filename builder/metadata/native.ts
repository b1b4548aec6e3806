// The native layout (docs/corpus-layout.md): folders are collections, `*.xml` files are resources
// described by their teiHeader, `collection.json` describes a folder, `<name>.json` overrides a file.
import { readdir } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import type { Catalog, CollectionNode, DcValue, DublinCore, ResourceNode, Warning } from "../catalog.js";
import { CorpusError } from "../catalog.js";
import { addNode, compareIds, type LoadContext, link, newContext } from "./context.js";
import { COLLECTION_FILE, type JsonMeta, ROOT_ID, ROOT_TITLE, readJsonMeta, readRootCollectionJson } from "./json-meta.js";
import { readTeiHeader } from "./tei-header.js";
import { isCorpusFile, mapLimit, OPEN_FILES } from "./walk.js";

/** Names the native layout never reads. */
function ignoredName(name: string): boolean {
  return name.startsWith(".") || name.startsWith("_") || name === "node_modules";
}

/** Builds the catalog of a corpus in the native layout. */
export async function loadNativeCatalog(corpusDir: string): Promise<Catalog> {
  const ctx = newContext([]);
  const root = await loadFolder(corpusDir, corpusDir, ctx);
  if (!root) throw new CorpusError({ file: corpusDir }, "the root collection could not be created");
  return { rootId: root.id, nodes: ctx.nodes, warnings: ctx.warnings };
}

async function loadFolder(dir: string, corpusDir: string, ctx: LoadContext): Promise<CollectionNode | undefined> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => !ignoredName(e.name));
  const files = await Promise.all(entries.map((e) => isCorpusFile(e, join(dir, e.name))));
  const names = new Set(entries.filter((_, i) => files[i]).map((e) => e.name));
  const rel = relative(corpusDir, dir).split(sep).join("/");
  const isRoot = rel === "";
  const meta = isRoot
    ? await readRootCollectionJson(corpusDir, names.has(COLLECTION_FILE))
    : names.has(COLLECTION_FILE)
      ? ((await readJsonMeta(join(dir, COLLECTION_FILE), ctx.warnings)) ?? {})
      : {};
  const node: CollectionNode = {
    kind: "collection",
    ...applyMeta({ id: isRoot ? ROOT_ID : rel, title: isRoot ? ROOT_TITLE : basename(dir) }, meta),
    parents: [],
    children: [],
  };
  if (!addNode(ctx, node, join(dir, names.has(COLLECTION_FILE) ? COLLECTION_FILE : ""))) return undefined;

  const folders = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort(compareIds);
  for (const name of folders) {
    const sub = await loadFolder(join(dir, name), corpusDir, ctx);
    if (sub) link(node, sub);
  }

  // A resource is a `<stem>.xml`, a `<stem>.json` sidecar, or both.
  const stems = new Set<string>();
  for (const name of names) {
    if (name.endsWith(".xml")) stems.add(name.slice(0, -4));
    else if (name.endsWith(".json") && name !== COLLECTION_FILE) stems.add(name.slice(0, -5));
  }
  const sorted = [...stems].sort((a, b) => compareIds(`${a}.xml`, `${b}.xml`));
  // Headers are read in parallel; nodes are added in name order so ids and warnings are stable.
  const resources = await mapLimit(sorted, OPEN_FILES, (stem) =>
    readResource(dir, stem, rel, names.has(`${stem}.xml`), names.has(`${stem}.json`)),
  );
  for (const { node: resource, warnings } of resources) {
    ctx.warnings.push(...warnings);
    if (addNode(ctx, resource, resource.metadataFile ?? resource.file)) link(node, resource);
  }
  return node;
}

async function readResource(
  dir: string,
  stem: string,
  folderRel: string,
  hasXml: boolean,
  hasSidecar: boolean,
): Promise<{ node: ResourceNode; warnings: Warning[] }> {
  const warnings: Warning[] = [];
  const file = join(dir, `${stem}.xml`);
  const sidecar = join(dir, `${stem}.json`);
  const header = hasXml ? await readTeiHeader(file, warnings) : { dublinCore: {} };
  const override = hasSidecar ? ((await readJsonMeta(sidecar, warnings)) ?? {}) : {};
  const defaults = {
    id: header.id ?? (folderRel ? `${folderRel}/${stem}` : stem),
    title: header.title ?? stem,
    ...(header.description ? { description: header.description } : {}),
    ...(Object.keys(header.dublinCore).length > 0 ? { dublinCore: header.dublinCore } : {}),
  };
  const node: ResourceNode = {
    kind: "resource",
    ...applyMeta(defaults, override),
    parents: [],
    file,
    ...(hasSidecar ? { metadataFile: sidecar } : {}),
  };
  return { node, warnings };
}

interface Described {
  id: string;
  title: string;
  description?: string;
  dublinCore?: DublinCore;
  extensions?: Record<string, DcValue[]>;
  vocabularies?: Record<string, string>;
}

/** Overlays JSON metadata: id/title/description replace; dublinCore and extensions replace per key. */
function applyMeta(base: Described, meta: JsonMeta): Described {
  const out: Described = { ...base };
  if (meta.id) out.id = meta.id;
  if (meta.title) out.title = meta.title;
  if (meta.description) out.description = meta.description;
  if (meta.dublinCore) out.dublinCore = { ...(base.dublinCore ?? {}), ...meta.dublinCore };
  if (meta.extensions) out.extensions = { ...(base.extensions ?? {}), ...meta.extensions };
  if (meta.vocabularies) out.vocabularies = { ...(base.vocabularies ?? {}), ...meta.vocabularies };
  return out;
}
