// Navigation endpoint (1-draft2 shape): the units below the whole document, a passage or a
// range, `down` levels deeper, optionally grouped (`groupBy`) and paged (`max`, `page`).

import type { CitedText } from "../citation/cited-text.js";
import { count } from "../count.js";
import { DtsError } from "../error.js";
import type { DtsRequest } from "../request.js";
import type { Site } from "../site.js";
import { type LinkRel, navigationUrl, passageTemplate } from "../urls.js";
import { type DtsResponse, jsonError, jsonResponse, renderError } from "./response.js";
import { select } from "./selection.js";

type NavigationQuery = Extract<DtsRequest, { kind: "navigation" }>;

interface Member {
  ref?: string;
  start?: string;
  end?: string;
  level: number;
  citeType?: string;
}

export function renderNavigation(site: Site, q: NavigationQuery, text: CitedText): DtsResponse {
  const units = text.units;
  const maxDepth = text.index.maxCiteDepth;
  let level = 0;
  let first = -1;
  let last = -1;
  let isRange = false;
  if (q.ref !== undefined || q.start !== undefined) {
    const s = select(text, q);
    if (s instanceof DtsError) return renderError(site, "navigation", s);
    ({ level, first, last, isRange } = s);
  }

  const target = q.down === "max" ? maxDepth : level + q.down;
  let found: number[];
  if (target <= level) {
    found = isRange ? text.unitsBetween(level, first, last) : [];
  } else if (first < 0) {
    found = text.unitsAt(target);
  } else {
    found = text.unitsBetween(target, first, last);
  }

  const typeCounts = new Map<string, number>();
  for (const u of found) typeCounts.set(units[u].citeType, (typeCounts.get(units[u].citeType) ?? 0) + 1);
  let citeType: string | undefined;
  for (const [type, n] of typeCounts) if (citeType === undefined || n > typeCounts.get(citeType)!) citeType = type;
  if (citeType === undefined && first >= 0 && !isRange) citeType = units[first].citeType;

  let members: Member[] = [];
  if (q.groupBy !== undefined) {
    let group: number[] = [];
    const flush = (): void => {
      if (!group.length) return;
      const a = units[group[0]];
      const member: Member = { start: a.ref, end: units[group[group.length - 1]].ref, level: a.level };
      if (a.citeType !== citeType) member.citeType = a.citeType;
      members.push(member);
      group = [];
    };
    for (const u of found) {
      // Groups never cross a parent boundary.
      if (group.length && (group.length === q.groupBy || units[group[0]].parent !== units[u].parent)) flush();
      group.push(u);
    }
    flush();
  } else {
    members = found.map((u) => {
      const member: Member = { ref: units[u].ref, level: units[u].level };
      if (units[u].citeType !== citeType) member.citeType = units[u].citeType;
      return member;
    });
  }

  const links: [LinkRel, string][] = [];
  const here = { ref: q.ref, start: q.start, end: q.end, down: q.down, groupBy: q.groupBy, max: q.max };
  if (q.max !== undefined) {
    const pages = Math.max(1, Math.ceil(members.length / q.max));
    const page = q.page ?? 1;
    if (page > pages) {
      return jsonError(
        site,
        404,
        `page ${page} is past the last page (${pages}) of ${count(members.length, "member")} at ${q.max} per page`,
      );
    }
    const pageUrl = (p: number): string => navigationUrl(site, text.id, { ...here, page: p });
    links.push(["first", pageUrl(1)]);
    if (page > 1) links.push(["prev", pageUrl(page - 1)]);
    if (page < pages) links.push(["next", pageUrl(page + 1)]);
    links.push(["last", pageUrl(pages)]);
    members = members.slice((page - 1) * q.max, page * q.max);
  }

  let parent: unknown = null;
  if (first >= 0 && !isRange) {
    const p = units[first].parent;
    parent = p < 0 ? { "@type": "Resource", "@id": text.id } : { "@type": "CitableUnit", ref: units[p].ref };
  }

  const body: Record<string, unknown> = {
    "@context": site.context,
    "@id": navigationUrl(site, text.id, { ...here, page: q.page }),
    maxCiteDepth: maxDepth,
    level,
  };
  if (citeType !== undefined) body.citeType = citeType;
  body.passage = passageTemplate(site, text.id);
  body.parent = parent;
  body.member = members;
  return jsonResponse(site, body, links);
}
