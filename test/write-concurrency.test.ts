// The write API's entry and concurrent editors, over real HTTP: refused bodies are not read
// (raw sockets), If-Match against the ETag of every Document GET, the token rules and their
// rate limit, cross-origin writes, and the Allow of each resource.

import { spawnSync } from "node:child_process";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATULLUS, CATULLUS_FILE, doc, nav } from "./helpers/embedded.js";
import { errorOf, fragment, TOKEN, type WriteTree, writeTree } from "./helpers/write-server.js";

const line10 = (text: string): string => fragment(`<l n="10">${text}</l>`);

/**
 * Sends a request head, then (unless `waitForContinue` and no 100 came) up to `bodyBytes` of
 * body in 64 KiB chunks while the server keeps the connection open. Returns what the server
 * answered and how much body it took before closing.
 */
function rawUpload(
  base: string,
  head: string,
  bodyBytes: number,
  waitForContinue = false,
): Promise<{ answer: string; sent: number; closed: boolean }> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = "";
    let sent = 0;
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = (): void => {
      while (!closed && sent < bodyBytes) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
    };
    socket.on("data", (d: Buffer) => {
      answer += d.toString("latin1");
      if (waitForContinue && /^HTTP\/1\.1 100/.test(answer) && sent === 0) pump();
    });
    const finish = (): void => {
      closed = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, sent, closed: answer.length > 0 });
    };
    socket.on("close", finish);
    socket.on("error", finish);
    socket.on("end", finish);
    // A server that keeps reading: give up after a while, having sent everything.
    const timer = setTimeout(finish, 8000);
    socket.write(head);
    if (!waitForContinue) pump();
  });
}

const head = (method: string, path: string, headers: Record<string, string>): string =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;

describe("write entry: a refused body is never read", () => {
  let t: WriteTree;
  beforeAll(async () => (t = await writeTree()));
  afterAll(() => t?.close());

  const FIFTY_MIB = 50 * 1024 * 1024;

  it("a wrong token: 403 at once, the connection closed after a few chunks, not 50 MiB drained", async () => {
    const r = await rawUpload(
      t.server.url,
      head("PUT", doc(CATULLUS, "&ref=10"), { Authorization: "Bearer wrong-token-0123456789", "Content-Length": String(FIFTY_MIB) }),
      FIFTY_MIB,
    );
    expect(r.answer).toMatch(/^HTTP\/1\.1 403/);
    expect(r.answer).toMatch(/connection: close/i);
    expect(r.sent).toBeLessThan(16 * 1024 * 1024);
  });

  it("no token with Expect: 100-continue: 401 without a 100 Continue", async () => {
    const r = await rawUpload(
      t.server.url,
      head("POST", doc(CATULLUS, "&after=9"), { "Content-Length": String(FIFTY_MIB), Expect: "100-continue" }),
      FIFTY_MIB,
      true,
    );
    expect(r.answer).toMatch(/^HTTP\/1\.1 401/);
    expect(r.answer).not.toMatch(/100 Continue/);
    expect(r.sent).toBe(0);
  });

  it("a declared 50 MiB upload with the right token: 413 without a 100 Continue, nothing read", async () => {
    const r = await rawUpload(
      t.server.url,
      head("PUT", doc(CATULLUS, "&ref=10"), {
        Authorization: `Bearer ${TOKEN}`,
        "Content-Length": String(FIFTY_MIB),
        Expect: "100-continue",
      }),
      FIFTY_MIB,
      true,
    );
    expect(r.answer).toMatch(/^HTTP\/1\.1 413/);
    expect(r.answer).not.toMatch(/100 Continue/);
    expect(r.answer).toMatch(/<error[\s\S]*larger than this server accepts/);
    expect(r.sent).toBe(0);
  });

  it("an admitted upload still gets its 100 Continue and is applied", async () => {
    const body = Buffer.from(line10("dein, cum milia multa fecerimus, continued,"));
    const url = new URL(t.server.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      let text = "";
      socket.on("data", (d: Buffer) => {
        text += d.toString("utf8");
        if (text.startsWith("HTTP/1.1 100") && !text.includes("200 OK") && text.endsWith("\r\n\r\n")) socket.write(body);
        if (/<\/TEI>/.test(text)) socket.end();
      });
      socket.on("close", () => resolve(text));
      socket.write(
        head("PUT", doc(CATULLUS, "&ref=10"), {
          Authorization: `Bearer ${TOKEN}`,
          "Content-Length": String(body.length),
          Expect: "100-continue",
          Connection: "close",
        }),
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200/);
    expect(t.file(CATULLUS_FILE)).toContain("multa fecerimus, continued,");
  });
});

describe("concurrent editors: ETag and If-Match", () => {
  let t: WriteTree;
  beforeAll(async () => (t = await writeTree()));
  afterAll(() => t?.close());

  const put = (params: string, body: string, ifMatch?: string): Promise<Response> =>
    t.fetch(doc(CATULLUS, params), {
      method: "PUT",
      body,
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/tei+xml", ...(ifMatch ? { "If-Match": ifMatch } : {}) },
    });

  it("every Document GET has a strong ETag: passages, documents and computed ranges", async () => {
    for (const params of ["&ref=10", "", "&start=2&end=4"]) {
      const r = await t.fetch(doc(CATULLUS, params));
      expect(r.status, params).toBe(200);
      expect(r.headers.get("etag"), params).toMatch(/^"[^"]+"$/);
      const again = await t.fetch(doc(CATULLUS, params), { headers: { "If-None-Match": r.headers.get("etag")! } });
      expect(again.status, params).toBe(304);
    }
  });

  it("two editors read line 10; the second save gets 412 and the first edit is kept", async () => {
    const [a, b] = await Promise.all([t.fetch(doc(CATULLUS, "&ref=10")), t.fetch(doc(CATULLUS, "&ref=10"))]);
    const tag = a.headers.get("etag")!;
    expect(b.headers.get("etag")).toBe(tag);
    const first = await put("&ref=10", line10("dein, cum milia multa fecerimus (editor A),"), tag);
    expect(first.status).toBe(200);
    const newTag = first.headers.get("etag");
    expect(newTag).toMatch(/^"[^"]+"$/);
    expect(newTag).not.toBe(tag);
    const second = await put("&ref=10", line10("dein, cum milia multa fecerimus (editor B),"), tag);
    const e = await errorOf(second);
    expect(e.status).toBe(412);
    expect(e.body).toMatch(/^<\?xml[\s\S]*<error/);
    expect(e.description).toMatch(/If-Match does not match the passage: it changed since it was read/);
    expect(second.headers.get("etag")).toBe(newTag);
    expect(t.file(CATULLUS_FILE)).toContain("(editor A)");
    expect(t.file(CATULLUS_FILE)).not.toContain("(editor B)");
    // With the tag of what is there now, B's save goes through; the tag a GET gives is the PUT's.
    expect((await t.fetch(doc(CATULLUS, "&ref=10"))).headers.get("etag")).toBe(newTag);
    expect((await put("&ref=10", line10("dein, cum milia multa fecerimus (A and B),"), newTag!)).status).toBe(200);
    // Without If-Match a write still works.
    expect((await put("&ref=10", line10("dein, cum milia multa fecerimus,"))).status).toBe(200);
  });

  it("two saves within one second to the same size still change the tag", async () => {
    const tag = (await t.fetch(doc(CATULLUS, "&ref=9"))).headers.get("etag")!;
    expect((await put("&ref=9", fragment(`<l n="9">deinde usque altera mille, deinde centum. X</l>`), tag)).status).toBe(200);
    const mid = (await t.fetch(doc(CATULLUS, "&ref=9"))).headers.get("etag")!;
    expect((await put("&ref=9", fragment(`<l n="9">deinde usque altera mille, deinde centum. Y</l>`), mid)).status).toBe(200);
    // The stale tag of the same-sized version in between must not match.
    expect((await put("&ref=9", fragment(`<l n="9">deinde usque altera mille, deinde centum. Z</l>`), mid)).status).toBe(412);
    expect(t.file(CATULLUS_FILE)).toContain("deinde centum. Y</l>");
  });

  it("DELETE honours If-Match on the passage, POST on the document; weak tags never match", async () => {
    const docTag = (await t.fetch(doc(CATULLUS))).headers.get("etag")!;
    const lineTag = (await t.fetch(doc(CATULLUS, "&ref=13"))).headers.get("etag")!;
    const del = (tag: string): Promise<Response> =>
      t.fetch(doc(CATULLUS, "&ref=13"), { method: "DELETE", headers: { Authorization: `Bearer ${TOKEN}`, "If-Match": tag } });
    expect((await del(`W/${lineTag}`)).status).toBe(412);
    expect((await del(docTag)).status).toBe(412);
    expect((await del(lineTag)).status).toBe(200);
    // The document changed with that DELETE: a POST with its old tag is refused.
    const post = await t.fetch(doc(CATULLUS, "&after=12"), {
      method: "POST",
      body: fragment(`<l n="13">nec sciat ipse neque invidere possit.</l>`),
      headers: { Authorization: `Bearer ${TOKEN}`, "If-Match": docTag },
    });
    expect(post.status).toBe(412);
    expect(t.file(CATULLUS_FILE)).not.toContain('<l n="13">');
    const fresh = (await t.fetch(doc(CATULLUS))).headers.get("etag")!;
    const ok = await t.fetch(doc(CATULLUS, "&after=12"), {
      method: "POST",
      body: fragment(`<l n="13">nec sciat ipse neque invidere possit.</l>`),
      headers: { Authorization: `Bearer ${TOKEN}`, "If-Match": fresh },
    });
    expect(ok.status).toBe(201);
  });
});

describe("token rules", () => {
  it("dts serve refuses a token shorter than 16 characters and says how to make one", () => {
    const r = spawnSync(process.execPath, ["bin/dts.js", "serve", "--corpus", "corpus", "--dist", "/nonexistent-dts-dist", "--port", "0"], {
      env: { ...process.env, DTS_TOKEN: "secret" },
      encoding: "utf8",
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/DTS_TOKEN is 6 characters long; a write token needs at least 16/);
    expect(r.stderr).toContain("openssl rand -hex 24");
  });

  it("wrong tokens from one address are limited: 429 with Retry-After, then allowed again", async () => {
    const t = await writeTree();
    try {
      const wrong = (): Promise<Response> =>
        t.fetch(doc(CATULLUS, "&ref=1"), { method: "DELETE", headers: { Authorization: "Bearer wrong-token-0123456789" } });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await wrong()).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
      const limited = await wrong();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await errorOf(limited)).description).toMatch(/Too many writes with a wrong token/);
      // Even the right token waits out the window from that address; then it works.
      expect((await t.write("DELETE", doc(CATULLUS, "&ref=1"))).status).toBe(429);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await t.write("DELETE", doc(CATULLUS, "&ref=1"))).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("cross-origin writes and Allow", () => {
  let open: WriteTree;
  let listed: WriteTree;
  beforeAll(async () => {
    open = await writeTree();
    listed = await writeTree({ corsOrigins: ["https://editor.example.org"] });
  });
  afterAll(async () => {
    await open?.close();
    await listed?.close();
  });

  const preflight = (t: WriteTree, origin: string, path = doc(CATULLUS, "&ref=1")): Promise<Response> =>
    t.fetch(path, { method: "OPTIONS", headers: { Origin: origin, "Access-Control-Request-Method": "PUT" } });

  it("without --cors-origin the preflight allows no writes and a cross-origin write is refused", async () => {
    const p = await preflight(open, "https://evil.example");
    expect(p.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(p.headers.get("vary")).toMatch(/Origin/);
    const r = await open.fetch(doc(CATULLUS, "&ref=10"), {
      method: "PUT",
      body: line10("x"),
      headers: { Authorization: `Bearer ${TOKEN}`, Origin: "https://evil.example" },
    });
    const e = await errorOf(r);
    expect(e.status).toBe(403);
    expect(e.description).toMatch(/another origin \(https:\/\/evil\.example\).*--cors-origin https:\/\/evil\.example/);
    expect(open.file(CATULLUS_FILE)).not.toContain('<l n="10">x</l>');
  });

  it("with --cors-origin that origin may write; others still may not; reads stay open to all", async () => {
    const p = await preflight(listed, "https://editor.example.org");
    expect(p.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS, POST, PUT, DELETE");
    expect(p.headers.get("access-control-allow-headers")).toMatch(/If-Match/);
    expect((await preflight(listed, "https://evil.example")).headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    const body = line10("dein, cum milia multa fecerimus (from the editor),");
    const ok = await listed.fetch(doc(CATULLUS, "&ref=10"), {
      method: "PUT",
      body,
      headers: { Authorization: `Bearer ${TOKEN}`, Origin: "https://editor.example.org" },
    });
    expect(ok.status).toBe(200);
    const evil = await listed.fetch(doc(CATULLUS, "&ref=10"), {
      method: "PUT",
      body,
      headers: { Authorization: `Bearer ${TOKEN}`, Origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    const read = await listed.fetch(doc(CATULLUS, "&ref=10"), { headers: { Origin: "https://evil.example" } });
    expect(read.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("PATCH is 405 with Allow listing what the resource accepts, as the preflight does", async () => {
    const patch = await listed.fetch(doc(CATULLUS, "&ref=10"), { method: "PATCH", body: "x" });
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST, PUT, DELETE");
    expect(patch.headers.get("allow")).toBe(
      (await preflight(listed, "https://editor.example.org")).headers.get("access-control-allow-methods"),
    );
    const navigation = await listed.fetch(nav(CATULLUS), { method: "PATCH" });
    expect(navigation.status).toBe(405);
    expect(navigation.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await preflight(listed, "https://editor.example.org", "/api/dts/navigation")).headers.get("access-control-allow-methods")).toBe(
      "GET, HEAD, OPTIONS",
    );
    // Without writes the Document endpoint accepts reads only, and says so.
    const ro = await writeTree({ token: undefined });
    try {
      const r = await ro.fetch(doc(CATULLUS, "&ref=10"), { method: "PATCH" });
      expect(r.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect((await preflight(ro, "https://editor.example.org")).headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    } finally {
      await ro.close();
    }
  });

  it("dts serve refuses a --cors-origin that is not an origin", () => {
    const r = spawnSync(
      process.execPath,
      [
        "bin/dts.js",
        "serve",
        "--corpus",
        "corpus",
        "--dist",
        "/nonexistent-dts-dist",
        "--cors-origin",
        "https://x.example/path",
        "--port",
        "0",
      ],
      {
        env: { ...process.env, DTS_TOKEN: TOKEN },
        encoding: "utf8",
      },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--cors-origin "https:\/\/x\.example\/path" is not an origin/);
  });
});
