// The one paging of Collection members, for both API versions: which members a page shows and
// its `view` (1-draft2 calls it a PartialCollectionView, 1.0 a Pagination).

import { DtsError } from "../error.js";

export interface Page {
  shown: string[];
  /** Absent when the members fit one page and no page was asked for. */
  view?: Record<string, string>;
}

export function paginate(
  memberIds: string[],
  o: { pageSize: number; page?: number; id: string; viewType: string; pageUrl: (page: number) => string },
): Page | DtsError {
  if (o.page === undefined && memberIds.length <= o.pageSize) return { shown: memberIds };
  const pages = Math.max(1, Math.ceil(memberIds.length / o.pageSize));
  const page = o.page ?? 1;
  if (page > pages) return new DtsError(404, `page ${page} is past the last page (${pages}) of "${o.id}"`);
  const view: Record<string, string> = { "@id": o.pageUrl(page), "@type": o.viewType, first: o.pageUrl(1) };
  if (page > 1) view.previous = o.pageUrl(page - 1);
  if (page < pages) view.next = o.pageUrl(page + 1);
  view.last = o.pageUrl(pages);
  return { shown: memberIds.slice((page - 1) * o.pageSize, page * o.pageSize), view };
}
