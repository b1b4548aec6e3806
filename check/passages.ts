// For one Resource: its Navigation at every level, a few passages per level (first, middle,
// last) with the links they carry, its whole document, and one range of 2-3 sibling units
// compared with those units.

import { TEI_NS, TEI_TYPE } from "../builder/wire.js";
import { type Ctx, checkCors, readJson, readTei } from "./answers.js";
import type { Api, Unit } from "./api.js";
import { type Link, parseLinks } from "./links.js";
import { rangeMismatch } from "./xml.js";

export async function checkResource(ctx: Ctx, api: Api, resource: Record<string, unknown>): Promise<void> {
  const id = resource["@id"] as string;
  const whole = await readTei(ctx, api.documentUrl(id), api.wrapper, TEI_NS);
  if (whole) await followLinks(ctx, api, whole.answer.url, parseLinks(whole.answer.headers.get("link"), whole.answer.url), false);
  const levels: Unit[][] = [];
  for (let level = 1; level <= api.depth(resource); level++) {
    const url = api.navigationUrl(id, level);
    const json = await readJson(ctx, url);
    if (!json) break;
    api.checkNavigation(ctx, json, url);
    const units = api.units(json, level);
    if (!units.length) break;
    levels.push(units);
  }
  ctx.findings.expect(levels.length > 0, "navigation-units", api.navigationUrl(id, 1), {
    expected: "citable units at level 1 of a Resource that declares a citation structure",
    got: "none",
  });
  await Promise.all(levels.map((units) => Promise.all(pick(units).map((u) => checkPassage(ctx, api, id, u)))));
  if (levels.length) await checkRange(ctx, api, id, levels);
}

/** First, middle and last: the edges are where off-by-one errors live. */
function pick<T>(list: T[]): T[] {
  return [...new Set([list[0], list[Math.floor((list.length - 1) / 2)], list[list.length - 1]])];
}

async function checkPassage(ctx: Ctx, api: Api, id: string, unit: Unit): Promise<void> {
  const passage = await readTei(ctx, api.documentUrl(id, { ref: unit.ref }), api.wrapper, TEI_NS);
  if (!passage) return;
  const url = passage.answer.url;
  ctx.findings.expect(passage.inner !== null && passage.inner.trim() !== "", "passage-wrapper", url, {
    expected: `the passage inside a non-empty ${api.wrapper.local} element in ${api.wrapper.ns}`,
    got: passage.inner === null ? `no ${api.wrapper.local} element in that namespace` : "an empty one",
  });
  await followLinks(ctx, api, url, parseLinks(passage.answer.headers.get("link"), url), true);
}

/** Each Link target of a Document answer answers 200; the relations a passage should carry are there. */
async function followLinks(ctx: Ctx, api: Api, url: string, links: Link[], passage: boolean): Promise<void> {
  const expected = passage ? api.passageLinks : api.passageLinks.filter((rel) => !["up", "first", "last"].includes(rel));
  for (const rel of expected) {
    if (!links.some((l) => l.rels.includes(rel))) {
      const required = api.version === "1-draft2" && rel.endsWith("apiDocumentation");
      const detail = { expected: `a Link with rel="${rel}"`, got: "none" };
      if (required) ctx.findings.fail("link-relations", url, detail);
      else ctx.findings.warn("link-relations", url, detail);
    }
  }
  await Promise.all(
    links.map(async (link) => {
      const a = await ctx.get(link.target);
      checkCors(ctx, a);
      ctx.findings.expect(a.status === 200, "link-target", link.target, {
        expected: `HTTP 200 for the rel="${link.rels.join(" ")}" link of ${url}`,
        got: a.status === 0 ? a.error : `HTTP ${a.status}`,
      });
    }),
  );
}

/**
 * A range of 2-3 consecutive siblings at the deepest level read equals those units one after
 * the other. Siblings, so that no ancestor tags are reopened between them.
 */
async function checkRange(ctx: Ctx, api: Api, id: string, levels: Unit[][]): Promise<void> {
  const deepest = levels.length;
  const parents = deepest === 1 ? [undefined] : pick(levels[deepest - 2]).map((u) => u.ref);
  for (const parent of parents) {
    const url = api.navigationUrl(id, 1, parent);
    const json = await readJson(ctx, url);
    const siblings = json ? api.units(json, deepest) : [];
    if (siblings.length < 2) continue;
    const chosen = siblings.slice(0, 3);
    const rangeUrl = api.documentUrl(id, { start: chosen[0].ref, end: chosen[chosen.length - 1].ref });
    // DTS 1.0's Level 0 (a static profile on a file server) need not answer ranges.
    if (api.version === "1.0" && (await ctx.get(rangeUrl, { headers: { Accept: TEI_TYPE } })).status === 404) {
      ctx.findings.warn("range-support", rangeUrl, {
        expected: "the range answered",
        got: "HTTP 404",
        hint: "DTS 1.0 allows it at Level 0 (a static profile); clients must read ranges unit by unit there",
      });
      return;
    }
    const range = await readTei(ctx, rangeUrl, api.wrapper, TEI_NS);
    const units = await Promise.all(chosen.map((u) => readTei(ctx, api.documentUrl(id, { ref: u.ref }), api.wrapper, TEI_NS)));
    if (!range || range.inner === null || units.some((u) => !u || u.inner === null)) return;
    const why = rangeMismatch(
      range.inner,
      units.map((u) => u!.inner!),
    );
    ctx.findings.expect(why === undefined, "range-concatenation", range.answer.url, {
      expected: `the range ${chosen[0].ref} to ${chosen[chosen.length - 1].ref} is its ${chosen.length} units one after the other`,
      got: why,
    });
    return;
  }
  ctx.findings.warn("range-concatenation", api.navigationUrl(id, 1), {
    expected: "two sibling units at the deepest level to read as a range",
    got: "none found in the units looked at",
  });
}
