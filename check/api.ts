// What the crawl needs to know of an API version: its addresses, its required keys, its
// passage wrapper. One implementation per version (checks-draft2.ts, checks-v1.ts); the walk
// itself (crawl.ts) is the same for both.

import type { Ctx } from "./answers.js";
import type { Name } from "./xml.js";

export interface Unit {
  ref: string;
  level: number;
}

export type Selection = { ref: string } | { start: string; end: string };

export interface ErrorProbe {
  endpoint: "collection" | "navigation" | "document";
  url: string;
}

export interface Api {
  version: "1-draft2" | "1.0";
  /** The element a passage's text is in, inside TEI. */
  wrapper: Name;
  /** The root collection; a collection or resource by id, its children (page 1) or its parents. */
  collectionUrl(id?: string, nav?: "parents"): string;
  /** Records whether a Collection answer (`top`) or a member has the keys the version requires. */
  checkNode(ctx: Ctx, node: Record<string, unknown>, url: string, top: boolean): void;
  /** Checks the answer to `nav=parents` against the node's own counts. */
  checkParents(ctx: Ctx, node: Record<string, unknown>, parents: Record<string, unknown>, url: string): void;
  /** Whether a Resource has a text to navigate. */
  readable(resource: Record<string, unknown>): boolean;
  /** The deepest level to ask Navigation for (the declared depth, or a bound when none is declared). */
  depth(resource: Record<string, unknown>): number;
  /** The units `down` levels below `parent` (the whole Resource when absent), in document order. */
  navigationUrl(id: string, down: number, parent?: string): string;
  /** Records whether a Navigation answer has the keys the version requires. */
  checkNavigation(ctx: Ctx, json: Record<string, unknown>, url: string): void;
  /** The members of a Navigation answer at `level`. */
  units(json: Record<string, unknown>, level: number): Unit[];
  documentUrl(id: string, selection?: Selection): string;
  /** Requests for an unknown id, one per endpoint. */
  errorProbes(): ErrorProbe[];
  /** Whether a Collection/Navigation error must be a Hydra Status (1-draft2) or only should (1.0). */
  strictErrors: boolean;
  /** Link relations a passage should carry (a warning when absent). */
  passageLinks: string[];
}
