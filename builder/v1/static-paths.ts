// The Level 0 static profile's files: each 1.0 request a path-style template expands to is a
// file at that path under the tree (urls.ts writes the URLs). A file server decodes a URL's
// percent escapes before it looks for the file, so files are named with the decoded values:
// an identifier with `/` lies in folders, one with `:`, spaces or non-ASCII letters is named
// with them as they are.

import type { Site } from "../site.js";
import { isStoredV1, type V1Request } from "./request.js";
import { JSONLD_EXT, TEI_EXT, v1BasePath } from "./urls.js";

const utf8 = new TextEncoder();

/**
 * The file of a request in the static profile, relative to the tree, or null when a file
 * server cannot answer it (ranges, down=0, media types, pages of Navigation) or its values make no
 * safe file name (an empty, `.` or `..` segment, a NUL, a name over 255 bytes).
 */
export function staticPath(site: Site, req: V1Request): string | null {
  if (!isStoredV1(req)) return null;
  let rel: string;
  switch (req.kind) {
    case "v1-entry":
      rel = `index${JSONLD_EXT}`;
      break;
    case "v1-collection":
      rel =
        `collection${req.id === undefined ? "" : `/${req.id}`}` +
        `${req.nav === "parents" ? ";nav=parents" : ""}${req.page !== undefined ? `;page=${req.page}` : ""}${JSONLD_EXT}`;
      break;
    case "v1-document":
      rel = `document/${req.resource}${req.tree !== undefined ? `;tree=${req.tree}` : ""}${req.ref !== undefined ? `/${req.ref}` : ""}${TEI_EXT}`;
      break;
    case "v1-navigation":
      rel =
        `navigation/${req.resource}${req.tree !== undefined ? `;tree=${req.tree}` : ""}` +
        `${req.down !== undefined ? `;down=${req.down}` : ""}${req.ref !== undefined ? `/${req.ref}` : ""}${JSONLD_EXT}`;
      break;
  }
  for (const segment of rel.split("/")) {
    if (segment === "" || segment === "." || segment === ".." || segment.includes("\0") || utf8.encode(segment).length > 255) return null;
  }
  return `${v1BasePath(site).slice(1)}/${rel}`;
}
