// Entry point of corpus loading: picks the metadata format and assembles the root collection.
import { stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import type { Catalog, CollectionNode, ResourceNode } from "../catalog.js";
import { CorpusError } from "../catalog.js";
import { loadCapitainsFiles } from "./capitains3.js";
import { compareIds, link, newContext } from "./context.js";
import { loadCtsFiles } from "./cts.js";
import { COLLECTION_FILE, ROOT_ID, ROOT_TITLE, readRootCollectionJson } from "./json-meta.js";
import { loadNativeCatalog } from "./native.js";
import { CAPITAINS_FILE, CTS_FILE, isMetadataFile, listCorpusFiles } from "./walk.js";

export const NO_DOCUMENTS =
  "no documents found: looked for CapiTainS metadata (__cts__.xml, __capitains__.xml) and, without it, " +
  "for TEI .xml files in the folder and its subfolders (the native layout, see docs/corpus-layout.md)";

/**
 * Builds the collection tree of the corpus in `corpusDir`. A tree holding any `__cts__.xml` or
 * `__capitains__.xml` is read as CapiTainS (both formats may be mixed); otherwise the native layout.
 * Problems that do not stop the build are returned in `warnings`; a missing corpus folder or a
 * broken root `collection.json` throws a CorpusError.
 */
export async function loadCatalog(corpusDir: string): Promise<Catalog> {
  const dir = resolve(corpusDir);
  const s = await stat(dir).catch(() => undefined);
  if (!s) throw new CorpusError({ file: dir }, "corpus folder not found");
  if (!s.isDirectory()) throw new CorpusError({ file: dir }, "is a file, not a folder: --corpus names the folder that holds the corpus");
  const files = await listCorpusFiles(dir);
  if (!files.some(isMetadataFile)) return loadNativeCatalog(dir);
  return loadCapitainsCatalog(dir, files);
}

/**
 * The catalogue and its documents, for a build or a check. A corpus without documents is a wrong
 * --corpus, not an edition: refused (before a build replaces any tree).
 */
export async function loadDocuments(corpusDir: string): Promise<{ catalog: Catalog; resources: ResourceNode[] }> {
  const catalog = await loadCatalog(corpusDir);
  const resources = [...catalog.nodes.values()].filter((n): n is ResourceNode => n.kind === "resource");
  if (!resources.length) throw new CorpusError({ file: resolve(corpusDir) }, NO_DOCUMENTS);
  return { catalog, resources };
}

/** CapiTainS corpora: metadata files are the source of truth; other XML files are reported. */
async function loadCapitainsCatalog(dir: string, files: string[]): Promise<Catalog> {
  const ctx = newContext(files);
  const rootJson = join(dir, COLLECTION_FILE);
  const meta = await readRootCollectionJson(dir, ctx.files.has(rootJson));
  const root: CollectionNode = {
    kind: "collection",
    id: meta.id ?? ROOT_ID,
    title: meta.title ?? ROOT_TITLE,
    ...(meta.description ? { description: meta.description } : {}),
    ...(meta.dublinCore ? { dublinCore: meta.dublinCore } : {}),
    ...(meta.extensions ? { extensions: meta.extensions } : {}),
    ...(meta.vocabularies ? { vocabularies: meta.vocabularies } : {}),
    parents: [],
    children: [],
  };
  // The root goes in first so that a record reusing its id is the one reported and skipped.
  ctx.nodes.set(root.id, root);

  const ctsTop = await loadCtsFiles(
    files.filter((f) => basename(f) === CTS_FILE),
    ctx,
  );
  const capitainsTop = await loadCapitainsFiles(
    files.filter((f) => basename(f) === CAPITAINS_FILE),
    ctx,
  );
  for (const id of [...ctsTop, ...capitainsTop].sort(compareIds)) {
    const node = ctx.nodes.get(id);
    if (node) link(root, node);
  }

  for (const file of files) {
    if (file.endsWith(".xml") && !isMetadataFile(file) && !ctx.referenced.has(file)) {
      ctx.warnings.push({ file, message: "not listed in any __cts__.xml/__capitains__.xml; skipped" });
    }
  }
  return { rootId: root.id, nodes: ctx.nodes, warnings: ctx.warnings };
}
