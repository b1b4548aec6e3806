// The splice planners on their own (no server, nothing written): the new source each write
// would give, byte for byte, what it answers, and each refusal, on a small two-level document.

import { describe, expect, it } from "vitest";
import { CitedText } from "../builder/citation/cited-text.js";
import { indexDocument } from "../builder/citation/indexer.js";
import { parseFragmentBody } from "../server/write/body.js";
import { type Plan, type PlanOptions, planCreate, planDelete, planInsert, planPut } from "../server/write/splice.js";
import { bytes, refusal } from "./helpers/refusal.js";
import { fragment, TEI_NS } from "./helpers/write-server.js";

const DOCS = "https://example.org/writes";
const options: PlanOptions = { docs: DOCS };

/** Books (div, level 1) of lines (l, level 2), indented as editors leave them. */
const SOURCE = `<TEI xmlns="${TEI_NS}"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt></fileDesc></teiHeader>
  <text>
    <body>
      <div n="1">
        <l n="1">a</l>
        <l n="2">b</l>
        <l n="3">c</l>
      </div>
      <div n="2">
        <l n="1">d</l>
      </div>
    </body>
  </text>
</TEI>
`;

function cited(source = SOURCE): CitedText {
  const buf = bytes(source);
  return new CitedText("urn:test", indexDocument(buf).index, buf);
}
const body = (elements: string, rootAttributes = "") => parseFragmentBody(bytes(fragment(elements, rootAttributes)), "PUT", DOCS);
const text = (plan: Plan): string => Buffer.from(plan.next.source).toString("utf8");
const refs = (plan: Plan): string[] => plan.next.index.units.map((u) => u.ref);
/** SOURCE with one exact piece replaced (and the piece checked to be there). */
function edited(from: string, to: string): string {
  expect(SOURCE).toContain(from);
  return SOURCE.replace(from, to);
}

describe("planPut", () => {
  it("replaces the first passage and nothing else", () => {
    const plan = planPut(cited(), "1.1", body(`<l n="1">A</l>`), options);
    expect(text(plan)).toBe(edited(`<l n="1">a</l>`, `<l n="1">A</l>`));
    expect(plan.answer).toEqual({ ref: "1.1" });
    expect(plan.summary).toBe("replaced 1.1");
    // The region is where the submitted bytes landed, for placing schema errors.
    expect(text(plan).slice(plan.region!.start, plan.region!.end)).toBe(`<l n="1">A</l>`);
  });

  it("replaces the last passage, keeping the bytes of the element as submitted", () => {
    const line = `<l  n='1' rend="x">d &amp; <!-- kept --> D</l>`;
    const plan = planPut(cited(), "2.1", body(`\n  <!-- dropped -->\n  ${line}\n`), options);
    expect(text(plan)).toBe(edited(`<l n="1">d</l>`, line));
  });

  it("replaces a passage of the upper level when it holds the same passages", () => {
    const div = `<div n="2" type="book"><head>II</head><l n="1">D</l></div>`;
    const plan = planPut(cited(), "2", body(div), options);
    expect(text(plan)).toBe(edited(`<div n="2">\n        <l n="1">d</l>\n      </div>`, div));
    expect(refs(plan)).toEqual(["1", "1.1", "1.2", "1.3", "2", "2.1"]);
  });

  it.each([
    [
      "drops one",
      `<div n="1"><l n="1">a</l><l n="3">c</l></div>`,
      /must hold the same nested passages.*"1\.2" \(line, level 2\) would be missing/,
    ],
    [
      "adds one",
      `<div n="1"><l n="1">a</l><l n="2">b</l><l n="3">c</l><l n="4">x</l></div>`,
      /a passage "1\.4" \(line, level 2\) would appear/,
    ],
    [
      "reorders them",
      `<div n="1"><l n="2">b</l><l n="1">a</l><l n="3">c</l></div>`,
      /"1\.2" \(level 2\) would come where "1\.1" \(level 2\) is expected/,
    ],
  ])("refuses an upper-level PUT that %s of its passages (400)", (_, div, message) => {
    const r = refusal(() => planPut(cited(), "1", body(div), options));
    expect(r.status).toBe(400);
    expect(r.description).toMatch(message);
  });

  it("refuses a PUT above the lowest level when the server allows only the lowest (422, pointing at the rule)", () => {
    const r = refusal(() => planPut(cited(), "2", body(`<div n="2"><l n="1">D</l></div>`), { ...options, putLowestOnly: true }));
    expect(r.status).toBe(422);
    expect(r.description).toMatch(
      new RegExp(`only on passages of the lowest citation level.*holds 1 passage\\(s\\) of level 2.*${DOCS}#put-lowest-only`),
    );
    expect(planPut(cited(), "2.1", body(`<l n="1">D</l>`), { ...options, putLowestOnly: true }).summary).toBe("replaced 2.1");
  });

  it("refuses a renumbering (400: DELETE and POST renumber)", () => {
    const r = refusal(() => planPut(cited(), "1.1", body(`<l n="9">a</l>`), options));
    expect(r).toEqual({
      status: 400,
      description: expect.stringMatching(/would be cited as "1\.9", not "1\.1".*DELETE the passage and POST/),
    });
  });

  it("refuses an element that would not be cited at all (400)", () => {
    expect(refusal(() => planPut(cited(), "1.1", body(`<l>a</l>`), options))).toMatchObject({
      status: 400,
      description: expect.stringMatching(/would not be the citable passage "1\.1"/),
    });
  });

  it.each([
    ["an empty fragment", "", /holds no element: PUT replaces the passage with exactly one element/],
    [
      "two elements",
      `<l n="1">a</l><l n="1">b</l>`,
      /holds 2 elements: PUT replaces one passage with exactly one element \(the passage's own, such as <l>\)/,
    ],
  ])("refuses %s (400)", (_, elements, message) => {
    const r = refusal(() => planPut(cited(), "1.1", body(elements), options));
    expect(r.status).toBe(400);
    expect(r.description).toMatch(message);
  });

  it("refuses an unknown reference with 404, pointing to POST", () => {
    const r = refusal(() => planPut(cited(), "1.9", body(`<l n="9">x</l>`), options));
    expect(r.status).toBe(404);
    expect(r.description).toMatch(/"urn:test" has no passage with the reference ref="1\.9".*Create it first with POST/);
  });

  it("refuses an element out of the TEI namespace (400) or of another kind than the passage (400)", () => {
    expect(refusal(() => planPut(cited(), "1.1", body(`<l xmlns="urn:other" n="1">a</l>`), options))).toMatchObject({
      status: 400,
      description: expect.stringMatching(/<l> in the namespace urn:other.*is not in the TEI namespace/),
    });
    expect(refusal(() => planPut(cited(), "1.1", body(`<p n="1">a</p>`), options))).toMatchObject({
      status: 400,
      description: expect.stringMatching(/<p>/),
    });
  });

  it("refuses a prefix that would mean something else in the document than in the body (422)", () => {
    const r = refusal(() => planPut(cited(), "1.1", body(`<l n="1" x:rend="a">a</l>`, ` xmlns:x="urn:x"`), options));
    expect(r.status).toBe(422);
    expect(r.description).toMatch(
      /the prefix "x:" means urn:x in the body but no namespace in the document.*Declare it on the submitted element itself.*#namespaces/,
    );
    // Declared on the element itself, it travels with it.
    expect(text(planPut(cited(), "1.1", body(`<l n="1" xmlns:x="urn:x" x:rend="a">a</l>`), options))).toContain(
      `<l n="1" xmlns:x="urn:x" x:rend="a">a</l>`,
    );
  });

  it("tells a body in the default TEI namespace how to write for a document that uses a prefix (422)", () => {
    const prefixed = SOURCE.replace(`<TEI xmlns="${TEI_NS}">`, `<tei:TEI xmlns:tei="${TEI_NS}">`)
      .replace("</TEI>", "</tei:TEI>")
      .replace(/<(\/?)(teiHeader|fileDesc|titleStmt|title|text|body|div|l)\b/g, "<$1tei:$2");
    const r = refusal(() => planPut(cited(prefixed), "1.1", body(`<l n="1">A</l>`), options));
    expect(r.status).toBe(422);
    expect(r.description).toMatch(/The document writes TEI elements with the prefix "tei:": submit them the same way \(<tei:l>/);
  });
});

describe("planInsert", () => {
  it("adds after the last passage of a level, indented like its siblings", () => {
    const plan = planInsert(cited(), "after", "1.3", body(`<l n="4">x</l><l n="5">y</l>`), options);
    expect(text(plan)).toBe(edited(`<l n="3">c</l>\n`, `<l n="3">c</l>\n        <l n="4">x</l>\n        <l n="5">y</l>\n`));
    expect(plan.answer).toEqual({ start: "1.4", end: "1.5" });
    expect(plan.summary).toBe("inserted 1.4, 1.5 after 1.3");
    expect(text(plan).slice(plan.region!.start, plan.region!.end)).toBe(`<l n="4">x</l>\n        <l n="5">y</l>`);
  });

  it("adds before the first passage of the document", () => {
    const plan = planInsert(cited(), "before", "1.1", body(`<l n="0">z</l>`), options);
    expect(text(plan)).toBe(edited(`        <l n="1">a</l>`, `        <l n="0">z</l>\n        <l n="1">a</l>`));
    expect(plan.answer).toEqual({ ref: "1.0" });
    expect(refs(plan)).toEqual(["1", "1.0", "1.1", "1.2", "1.3", "2", "2.1"]);
  });

  it("adds a passage of the upper level with its own passages, which become citable", () => {
    const plan = planInsert(cited(), "after", "2", body(`<div n="3"><l n="1">e</l></div>`), options);
    expect(plan.answer).toEqual({ ref: "3" });
    expect(refs(plan).slice(-2)).toEqual(["3", "3.1"]);
  });

  it.each([
    ["an existing reference", `<l n="2">x</l>`, /already has a passage "1\.2"\. POST never changes an existing passage: use PUT/],
    ["the same reference twice", `<l n="7">x</l><l n="7">y</l>`, /already has a passage "1\.7" \(given twice in the body\)/],
  ])("refuses %s with 409 (a duplicate segment)", (_, elements, message) => {
    const r = refusal(() => planInsert(cited(), "after", "1.3", body(elements), options));
    expect(r.status).toBe(409);
    expect(r.description).toMatch(message);
  });

  it.each([
    ["an empty fragment", "", /holds no element: POST expects the new passage element\(s\)/],
    [
      "an element without the reference attribute",
      `<l>x</l>`,
      /The new <l> \(line 2 of the body\) has no @n: passages at the level of "1\.3" \(line\) take their reference from @n/,
    ],
    ["a value with the delimiter", `<l n="4.1">x</l>`, /has @n="4\.1", which cannot be a reference/],
    ["a value that climbs", `<l n="..">x</l>`, /has @n="\.\.", which cannot be a reference/],
    ["an element of another level", `<div n="9"><l n="1">x</l></div>`, /<div>/],
  ])("refuses %s (400)", (_, elements, message) => {
    const r = refusal(() => planInsert(cited(), "after", "1.3", body(elements), options));
    expect(r.status).toBe(400);
    expect(r.description).toMatch(message);
  });

  it("refuses an unknown target with 404, naming after or before", () => {
    const r = refusal(() => planInsert(cited(), "before", "7", body(`<div n="6"/>`), options));
    expect(r.status).toBe(404);
    expect(r.description).toMatch(/no passage with the reference before="7"/);
  });
});

describe("planDelete", () => {
  it("removes the first passage with the whitespace before it, so no blank line is left", () => {
    const plan = planDelete(cited(), { ref: "1.1" });
    expect(text(plan)).toBe(edited(`\n        <l n="1">a</l>`, ""));
    expect(plan.answer).toEqual({ ref: "1.1" });
    expect(plan.summary).toBe("deleted 1.1");
  });

  it("removes a range across two parents, one cut per parent, and answers with the range", () => {
    const plan = planDelete(cited(), { start: "1.2", end: "2.1" });
    expect(text(plan)).toBe(edited(`\n        <l n="2">b</l>\n        <l n="3">c</l>`, "").replace(`\n        <l n="1">d</l>`, ""));
    expect(plan.answer).toEqual({ start: "1.2", end: "2.1" });
    expect(plan.summary).toBe("deleted 1.2..2.1 (3)");
    expect(refs(plan)).toEqual(["1", "1.1", "2"]);
  });

  it("removes the last passage of the upper level with everything in it", () => {
    const plan = planDelete(cited(), { ref: "2" });
    expect(text(plan)).toBe(edited(`\n      <div n="2">\n        <l n="1">d</l>\n      </div>`, ""));
    expect(refs(plan)).toEqual(["1", "1.1", "1.2", "1.3"]);
  });

  it.each([
    [{ ref: "3" }, 404],
    [{ start: "1.3", end: "1.1" }, 400],
    [{ start: "1", end: "2.1" }, 400],
  ])("refuses %j with %i, as a GET of it would", (selection, status) => {
    expect(refusal(() => planDelete(cited(), selection)).status).toBe(status);
  });
});

describe("planCreate", () => {
  it("indexes a whole new document", () => {
    const created = planCreate(bytes(SOURCE));
    expect(created.index.units.map((u) => u.ref)).toEqual(["1", "1.1", "1.2", "1.3", "2", "2.1"]);
  });

  it("refuses a document that is not well-formed with 422, saying where", () => {
    const r = refusal(() => planCreate(bytes(`<TEI xmlns="${TEI_NS}">\n<text><body></text></TEI>`)));
    expect(r.status).toBe(422);
    expect(r.description).toMatch(/would not be well-formed XML: line 2, column \d+ of the resulting document: /);
  });
});
