// DTS 1.0 Navigation endpoint: a Resource's citation tree around a reference point (the whole
// Resource, a `ref`, or a `start`..`end` range), `down` levels deep, in document order.

import type { CitedText } from "../../citation/cited-text.js";
import { DtsError } from "../../error.js";
import type { Site } from "../../site.js";
import type { V1Request } from "../../v1/request.js";
import { v1Url } from "../../v1/urls.js";
import { type DtsResponse, jsonError, renderError } from "../response.js";
import { select } from "../selection.js";
import { chooseTree, citableUnit, resourceObject, v1Head, v1JsonResponse } from "./common.js";

type NavigationQuery = Extract<V1Request, { kind: "v1-navigation" }>;

export function renderV1Navigation(site: Site, q: NavigationQuery, whole: CitedText): DtsResponse {
  const text = chooseTree(whole, q.tree);
  if (text instanceof DtsError) return renderError(site, "v1-navigation", text);
  if (q.page !== undefined && q.page > 1) {
    return jsonError(site, 404, `page ${q.page} is past the last page (1): this service answers Navigation in one page`);
  }
  const body: Record<string, unknown> = {
    ...v1Head(),
    "@type": "Navigation",
    "@id": v1Url(site, q),
    resource: resourceObject(site, whole),
  };
  const units = text.units;
  const bottom = (from: number): number => (q.down === -1 ? Number.POSITIVE_INFINITY : from + (q.down ?? 0));
  let members: number[] | undefined;
  if (q.ref === undefined && q.start === undefined) {
    members = within(text, 0, Number.POSITIVE_INFINITY, 1, bottom(0));
  } else {
    const s = select(text, q, true);
    if (s instanceof DtsError) return renderError(site, "v1-navigation", s);
    if (!s.isRange) {
      const unit = units[s.first];
      body.ref = citableUnit(text, s.first);
      if (q.down === 0) members = unit.parent < 0 ? text.levels[1] : text.unitsAt(unit.level, unit.parent);
      else if (q.down !== undefined) members = within(text, unit.start, unit.end, unit.level, bottom(unit.level));
    } else {
      const a = units[s.first];
      const b = units[s.last];
      body.start = citableUnit(text, s.first);
      body.end = citableUnit(text, s.last);
      if (q.down !== undefined) members = within(text, a.start, b.end, Math.min(a.level, b.level), bottom(s.level));
    }
  }
  if (members) body.member = members.map((u) => citableUnit(text, u));
  return v1JsonResponse(body);
}

/** Units starting in [from, to) whose level is in [minLevel, maxLevel], in document order. */
function within(text: CitedText, from: number, to: number, minLevel: number, maxLevel: number): number[] {
  const units = text.units;
  // Units are in document order, so by start offset: binary search the first in the window.
  let lo = 0;
  let hi = units.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (units[mid].start < from) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let u = lo; u < units.length && units[u].start < to; u++) {
    if (units[u].level >= minLevel && units[u].level <= maxLevel) out.push(u);
  }
  return out;
}
