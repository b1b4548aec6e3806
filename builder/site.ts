// Settings shared by the build and the server: where the API lives and how it answers.

export interface Site {
  /** Path prefix of every route, without a trailing slash ("" for the host root). */
  basePath: string;
  /** Members per Collection page. */
  pageSize: number;
  /** The `@context` value of JSON-LD responses. */
  context: string;
  /**
   * How stored responses lie in the tree's folders (tree/packed-folder.ts): "packed" (bodies
   * packed a few to a file: files grow with documents, not passages) or "files" (each body
   * alone in its file, for hosts that can only send whole files). Absent in trees built before
   * the choice existed: packed.
   */
  layout?: TreeLayout;
}

export const LAYOUTS = ["packed", "files"] as const;
export type TreeLayout = (typeof LAYOUTS)[number];

import { PUBLISHED_CONTEXT } from "./wire.js";

export function makeSite(options: { basePath?: string; pageSize?: number; localContext?: boolean; layout?: TreeLayout } = {}): Site {
  const raw = options.basePath ?? "/api/dts";
  const basePath = raw === "/" ? "" : "/" + raw.replace(/^\/+|\/+$/g, "");
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`page size must be a positive integer, not ${pageSize}`);
  return {
    basePath: basePath === "/" ? "" : basePath,
    pageSize,
    context: options.localContext ? `${basePath}/context.json` : PUBLISHED_CONTEXT,
    layout: options.layout ?? "packed",
  };
}
