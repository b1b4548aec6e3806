import type { DocIndex } from "./citation/indexer.js";
import type { CiteStructureJson } from "./citation/scheme.js";
import { DtsError, type SourceLocation } from "./error.js";

// The collection tree of a corpus: what the Collection endpoint serves.
// Loaders (builder/metadata/*) produce a Catalog; nothing here touches the disk.

/** A text value in Dublin Core: a plain string, or a string tagged with its language. */
export type DcValue = string | { lang: string; value: string };

/** Dublin Core terms. Every key holds an array of values, except `dateCopyrighted` (a year). */
export interface DublinCore {
  title?: DcValue[];
  description?: DcValue[];
  creator?: DcValue[];
  contributor?: DcValue[];
  publisher?: DcValue[];
  language?: string[];
  type?: DcValue[];
  source?: DcValue[];
  date?: DcValue[];
  dateCopyrighted?: number;
  [term: string]: DcValue[] | number | undefined;
}

interface NodeBase {
  id: string;
  title: string;
  description?: string;
  dublinCore?: DublinCore;
  /** Terms of other vocabularies, keyed by a prefixed name such as `saws:isAttributedToAuthor`. */
  extensions?: Record<string, DcValue[]>;
  /** The namespace each prefix of the extension keys stands for (`saws` -> its IRI). */
  vocabularies?: Record<string, string>;
  /** Ids of the collections this node belongs to, in the order they were found. */
  parents: string[];
}

export interface CollectionNode extends NodeBase {
  kind: "collection";
  /** Ids of the members, in display order. */
  children: string[];
}

export interface ResourceNode extends NodeBase {
  kind: "resource";
  /** Absolute path of the TEI file. It may not exist yet: a record with no text. */
  file: string;
  /** Absolute path of the metadata file that declared this resource (for warnings and writes). */
  metadataFile?: string;
}

export type CatalogNode = CollectionNode | ResourceNode;

/** What the Collection endpoint says of a Resource's text, from its citation index. */
export interface TextSummary {
  hasText: boolean;
  maxCiteDepth: number;
  citeStructure: CiteStructureJson[];
  /** Citation trees besides the default (DTS 1.0 `tree`), when the text declares any. */
  trees?: { identifier: string; citeStructure: CiteStructureJson[] }[];
  /** The TEI file exists but is not well-formed XML: where, for the answers that say so. */
  unreadable?: UnreadableSource;
}

/** What the Collection endpoint says of a text, from its index. */
export function textSummary(index: DocIndex): TextSummary {
  const summary: TextSummary = { hasText: true, maxCiteDepth: index.maxCiteDepth, citeStructure: index.citeStructure };
  if (index.trees?.length) summary.trees = index.trees.map((t) => ({ identifier: t.identifier, citeStructure: t.index.citeStructure }));
  return summary;
}

/** A TEI file that cannot be read: its path inside the corpus (never the machine's), and the XML error. */
export interface UnreadableSource {
  file: string;
  line: number;
  column: number;
  reason: string;
}

/** A problem found in the corpus that does not stop the build. */
export interface Warning extends SourceLocation {
  message: string;
}

/**
 * The pair: a Catalog is the corpus's collections and resources as its metadata describes them
 * (what `loadCatalog` reads, with the problems found); a Library is that catalogue once the
 * build has read each text (its citation summary): all the Collection endpoint needs, stored in
 * the tree as `_catalog.json`.
 */
export interface Catalog {
  /** Id of the top-level collection (answered by a Collection request without `id`). */
  rootId: string;
  nodes: Map<string, CatalogNode>;
  warnings: Warning[];
}

export interface Library extends Omit<Catalog, "warnings"> {
  texts: Map<string, TextSummary>;
}

/** Thrown when the corpus cannot be built at all (for example an unreadable metadata file at the root). */
export class CorpusError extends DtsError {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;

  constructor(location: SourceLocation, description: string) {
    super(422, description, { location });
    ({ file: this.file, line: this.line, column: this.column } = location);
  }
}

/** Dublin Core from a teiHeader fills the terms the metadata record does not give. */
export function fillFromHeader(node: CatalogNode, header: DublinCore | undefined): void {
  for (const [term, value] of Object.entries(header ?? {})) {
    if (value === undefined || term === "title" || term === "description") continue;
    node.dublinCore ??= {};
    if (node.dublinCore[term] === undefined) node.dublinCore[term] = value;
  }
}
