// An upload the client cuts off mid-body is the client's event: logged as aborted (499), never
// a 500 nor a stack trace (issue 8, finding 7).

import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentPath, GEORGICS } from "./helpers/embedded.js";
import { TOKEN, type WriteTree, writeTree } from "./helpers/write-server.js";

describe("a write whose client disconnects mid-body", () => {
  let t: WriteTree;
  beforeAll(async () => {
    t = await writeTree();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("is logged as aborted, with no 500 and no stack trace", async () => {
    const url = new URL(t.server.url);
    const path = documentPath(`id=${GEORGICS}&ref=1.1`);
    await new Promise<void>((done, fail) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `PUT ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/tei+xml\r\nContent-Length: 2000\r\n\r\n` +
            "<TEI>".padEnd(1000, " "),
        );
        setTimeout(() => {
          socket.destroy();
          done();
        }, 100);
      });
      socket.on("error", fail);
    });
    for (let i = 0; i < 50 && !t.log.some((l) => l.includes("PUT")); i++) await new Promise((r) => setTimeout(r, 20));
    const text = t.log.join("\n");
    const put = t.log.filter((l) => l.includes("PUT"));
    expect(put, text).toHaveLength(1);
    expect(put[0], text).toMatch(/ 499 .*aborted/);
    expect(text).not.toMatch(/ 500 |failed|\n\s+at /);
  });
});
