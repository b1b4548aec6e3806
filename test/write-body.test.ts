// Write bodies on their own (no server): reading with a size limit, and the checks of the two
// body forms (a TEI root holding dts:fragment; a whole TEI document), with the exact byte
// offsets the splice relies on.

import { describe, expect, it } from "vitest";
import { DtsError } from "../builder/error.js";
import { DTS_NS, TEI_NS } from "../builder/wire.js";
import { MAX_DEPTH } from "../builder/xml/scan.js";
import { CLIENT_ABORTED, parseFragmentBody, parseWholeBody, readBody } from "../server/write/body.js";
import { bytes, refusal, rejection } from "./helpers/refusal.js";
import { fragment } from "./helpers/write-server.js";

const DOCS = "https://example.org/writes";
const parse = (text: string | Uint8Array) => parseFragmentBody(typeof text === "string" ? bytes(text) : text, "PUT", DOCS);
const refused = (text: string | Uint8Array) => refusal(() => parse(text));
const slice = (body: Uint8Array, start: number, end: number): string => Buffer.from(body.subarray(start, end)).toString("utf8");

describe("parseFragmentBody", () => {
  it("gives each element of dts:fragment with its exact bytes, and the comments and PIs between them", () => {
    const one = `<l n="1">a &amp; <hi>b</hi></l>`;
    const two = `<l n="2" rend="x"/>`;
    const fb = parse(fragment(`\n  <!-- note -->\n  ${one}\n  <?pi x?>${two}\n`));
    expect(fb.elements.map((e) => slice(fb.body, e.start, e.end))).toEqual([one, two]);
    expect(fb.elements.map((e) => e.tag.qname)).toEqual(["l", "l"]);
    expect(fb.items.map((i) => [i.kind, slice(fb.body, i.start, i.end)])).toEqual([
      ["other", "<!-- note -->"],
      ["element", one],
      ["other", "<?pi x?>"],
      ["element", two],
    ]);
  });

  it("counts offsets in bytes, after a UTF-8 byte order mark and multi-byte characters", () => {
    const line = `<l n="1">ἄνδρα μοι ἔννεπε</l>`;
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes(fragment(line, ' xml:lang="grc" n="ὦ"'))]);
    const [e] = parse(body).elements;
    expect(slice(body, e.start, e.end)).toBe(line);
    expect(e.start).toBe(body.indexOf(bytes('<l n="1">')));
  });

  it("notes the namespace bindings at dts:fragment and the prefixes the elements use without declaring them", () => {
    const fb = parse(
      fragment(`<l n="1" x:a="1" xml:id="l1"><y:b xmlns:y="urn:y">t</y:b></l><l xmlns="${TEI_NS}" n="2"/>`, ' xmlns:x="urn:x"'),
    );
    expect(fb.context.get("")).toBe(TEI_NS);
    expect(fb.context.get("x")).toBe("urn:x");
    expect(fb.context.get("dts")).toBe(DTS_NS);
    // "" (the first <l>) and x; not y (declared where used), not xml (predefined).
    expect([...fb.free].sort()).toEqual(["", "x"]);
  });

  it("notes elements nested in one of their own kind, for the structure check", () => {
    const [e] = parse(fragment(`<l n="1">a <seg><l>b</l></seg> <l n="c">c</l></l>`)).elements;
    expect(e.sameKind.map((t) => t.qname)).toEqual(["l", "l"]);
  });

  it("accepts an empty dts:fragment, self-closing or not (the planners say what is missing)", () => {
    expect(parse(fragment("")).elements).toEqual([]);
    expect(parse(`<TEI xmlns="${TEI_NS}"><dts:fragment xmlns:dts="${DTS_NS}"/></TEI>`).elements).toEqual([]);
  });

  it.each([
    [
      "no TEI namespace",
      `<TEI><dts:fragment xmlns:dts="${DTS_NS}"><l/></dts:fragment></TEI>`,
      /root element is <TEI> in no namespace: PUT expects <TEI xmlns=/,
    ],
    ["another namespace", `<TEI xmlns="urn:other"><dts:fragment xmlns:dts="${DTS_NS}"/></TEI>`, /<TEI> in the namespace urn:other/],
    ["another root", `<text xmlns="${TEI_NS}"><dts:fragment xmlns:dts="${DTS_NS}"/></text>`, /root element is <text>/],
    [
      "no fragment",
      `<TEI xmlns="${TEI_NS}"><l n="1"/></TEI>`,
      /has no <dts:fragment xmlns:dts="https:\/\/w3id.org\/dts\/api#"> inside its TEI root/,
    ],
    [
      "a fragment in the wrong namespace",
      `<TEI xmlns="${TEI_NS}"><dts:fragment xmlns:dts="https://w3id.org/dts/api"/></TEI>`,
      /has no <dts:fragment/,
    ],
    [
      "a second fragment",
      fragment("<l/>").replace("</TEI>", `<dts:fragment xmlns:dts="${DTS_NS}"/></TEI>`),
      /a second dts:fragment \(line 2, column \d+\)/,
    ],
    [
      "a nested fragment",
      `<TEI xmlns="${TEI_NS}"><text><dts:fragment xmlns:dts="${DTS_NS}"/></text></TEI>`,
      /must be a child of the TEI root/,
    ],
    ["text in the fragment", fragment(`<l n="1">a</l> stray`), /text directly inside dts:fragment \(line 2, column \d+\)/],
    [
      "an XInclude",
      fragment(`<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd"/>`),
      /XInclude element <xi:include>.*#outside-content/,
    ],
    ["an empty body", "", /has no body/],
    ["UTF-16 (big-endian BOM)", Buffer.from([0xfe, 0xff, 0, 0x3c]), /UTF-16/],
    ["UTF-16 (little-endian BOM)", Buffer.from([0xff, 0xfe, 0x3c, 0]), /UTF-16/],
    ["another declared encoding", `<?xml version="1.0" encoding="ISO-8859-1"?>${fragment("<l/>")}`, /names the encoding "ISO-8859-1"/],
    ["a DOCTYPE", `<!DOCTYPE TEI>${fragment("<l/>")}`, /DOCTYPE declaration \(line 1, column 1\).*#bodies/],
    ["an ENTITY", fragment(`<l><!ENTITY x "y"></l>`), /ENTITY declaration/],
    ["an undeclared entity", fragment("<l>&nbsp;</l>"), /uses the entity &nbsp;.*only the predefined entities/],
    ["a bare ampersand", fragment("<l>a & b</l>"), /"&" must start an entity or character reference/],
    ["a reference to a character XML forbids", fragment("<l>&#x1;</l>"), /&#x1; is not a character XML allows/],
    ["a control character", fragment("<l>a\u0001b</l>"), /control character U\+0001 is not allowed/],
    ["unclosed markup", fragment("<l>a</p>"), /not well-formed XML: line 2, column \d+/],
  ])("refuses %s with 400 and says what and where", (_, body, message) => {
    const r = refused(body);
    expect(r.status).toBe(400);
    expect(r.description).toMatch(message);
  });

  it("refuses bytes that are not UTF-8 with 400, naming the line and column of the first bad one", () => {
    // In Latin-1, ÿ is the single byte 0xFF, which UTF-8 never uses.
    const text = fragment(`<l n="1">caf\u00ff</l>`);
    const column = text.split("\n")[1].indexOf("\u00ff") + 1;
    expect(refused(Buffer.from(text, "latin1"))).toEqual({
      status: 400,
      description: `The body is not valid UTF-8: send it in UTF-8 (first bad byte at line 2, column ${column}).`,
    });
  });

  it("names the first byte of a character cut short, not the byte after it", () => {
    // é in Latin-1 is 0xE9: in UTF-8 that starts a three-byte character, which "<" cuts short.
    const text = fragment(`<l n="1">caf\u00e9</l>`);
    const column = text.split("\n")[1].indexOf("\u00e9") + 1;
    expect(refused(Buffer.from(text, "latin1"))).toEqual({
      status: 400,
      description: `The body is not valid UTF-8: send it in UTF-8 (first bad byte at line 2, column ${column}).`,
    });
  });

  it("accepts the predefined entities, character references and control characters inside comments", () => {
    const fb = parse(fragment(`<!-- \u0001 & --><l n="1">&lt;&gt;&amp;&quot;&apos;&#233;&#x10FFFF;</l>`));
    expect(fb.elements).toHaveLength(1);
  });

  it(`refuses nesting deeper than ${MAX_DEPTH} levels with 422, pointing at the depth rule`, () => {
    const deep = "<hi>".repeat(MAX_DEPTH) + "x" + "</hi>".repeat(MAX_DEPTH);
    const r = refused(fragment(`<l n="1">${deep}</l>`));
    expect(r.status).toBe(422);
    expect(r.description).toMatch(new RegExp(`nested deeper than ${MAX_DEPTH} levels.*${DOCS}#depth`));
  });
});

describe("parseWholeBody", () => {
  const whole = `<?xml version="1.0" encoding="UTF-8"?>\n<TEI xmlns="${TEI_NS}"><text><body><p n="1">x</p></body></text></TEI>\n`;

  it("returns the body itself, byte for byte", () => {
    const body = bytes(whole);
    expect(parseWholeBody(body, DOCS)).toBe(body);
  });

  it.each([
    [
      "a dts:fragment",
      whole.replace("<p n", `<dts:fragment xmlns:dts="${DTS_NS}"/><p n`),
      400,
      /holds a dts:fragment.*give after or before/,
    ],
    ["a root in no namespace", "<TEI><text/></TEI>", 400, /initial form of POST expects a whole document/],
    ["a DOCTYPE", `<!DOCTYPE TEI [<!ENTITY e SYSTEM "/etc/passwd">]>${whole}`, 400, /DOCTYPE/],
    ["an XInclude", whole.replace("<p n", `<xi:include xmlns:xi="http://www.w3.org/2003/XInclude" href="x"/><p n`), 400, /XInclude/],
  ])("refuses %s", (_, body, status, message) => {
    const r = refusal(() => parseWholeBody(bytes(body), DOCS));
    expect(r.status).toBe(status);
    expect(r.description).toMatch(message);
  });
});

describe("readBody", () => {
  const tooLarge = (limit: number): DtsError => new DtsError(413, `over ${limit} bytes`);

  /** A request whose body arrives in `chunks`, counting the chunks the server pulled and noting a cancel. */
  function streamed(chunks: Uint8Array[], headers: Record<string, string> = {}) {
    const seen = { pulled: 0, cancelled: false };
    let i = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          seen.pulled++;
          if (i < chunks.length) controller.enqueue(chunks[i++]);
          else controller.close();
        },
        cancel() {
          seen.cancelled = true;
        },
        // No read ahead: a pull is a read by readBody.
      },
      { highWaterMark: 0 },
    );
    const request = new Request("http://host/", { method: "PUT", body, headers, duplex: "half" } as RequestInit);
    return { request, seen };
  }

  it("reads a body of exactly the limit, in every chunk's bytes", async () => {
    const { request } = streamed([bytes("abc"), bytes("def"), bytes("g")]);
    const body = await readBody(request, 7, tooLarge);
    expect(Buffer.from(body).toString()).toBe("abcdefg");
  });

  it("reads no body as empty bytes", async () => {
    expect((await readBody(new Request("http://host/", { method: "DELETE" }), 10, tooLarge)).length).toBe(0);
  });

  it("refuses a declared length over the limit before reading any of the body", async () => {
    const { request, seen } = streamed([bytes("x")], { "Content-Length": "11" });
    expect(await rejection(readBody(request, 10, tooLarge))).toEqual({ status: 413, description: "over 10 bytes" });
    expect(seen.pulled).toBe(0);
  });

  it("stops reading an undeclared body as soon as it passes the limit, and cancels the rest", async () => {
    const chunk = new Uint8Array(1024);
    const { request, seen } = streamed(Array.from({ length: 1000 }, () => chunk));
    expect((await rejection(readBody(request, 4096, tooLarge))).status).toBe(413);
    expect(seen.pulled).toBeLessThan(10);
    expect(seen.cancelled).toBe(true);
  });

  it("answers a body the client cut off with 499 (its event, not the server's)", async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(bytes("<TEI"));
        } else controller.error(new Error("socket hang up"));
      },
    });
    const request = new Request("http://host/", { method: "POST", body, duplex: "half" } as RequestInit);
    const r = await rejection(readBody(request, 1000, tooLarge));
    expect(r.status).toBe(CLIENT_ABORTED);
    expect(r.description).toMatch(/closed the connection before the body was complete; nothing was written/);
  });
});
