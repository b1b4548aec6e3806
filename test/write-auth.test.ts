// The write API's token check on its own (no server): where a token may come from, what a
// malformed Authorization gets, and that every given token must match.

import { describe, expect, it } from "vitest";
import { checkToken } from "../server/write/auth.js";

const SECRET = "s3cret-token-0123456789";
const url = (query = ""): URL => new URL(`http://host/api/dts/document?id=x${query}`);
const bearer = (value: string): Headers => new Headers({ Authorization: value });

describe("checkToken", () => {
  it("refuses every write with 403 when the server has no token, and says how to enable writes", () => {
    for (const configured of [undefined, ""]) {
      const r = checkToken(configured, url(`&token=${SECRET}`), bearer(`Bearer ${SECRET}`));
      expect(r).toMatchObject({ status: 403 });
      expect(r?.description).toMatch(/Writes are not enabled on this server.*DTS_TOKEN/);
    }
  });

  it("asks for a token with 401 and a Bearer challenge when none is given", () => {
    expect(checkToken(SECRET, url(), new Headers())).toMatchObject({
      status: 401,
      description: expect.stringMatching(/needs a token/),
      headers: { "WWW-Authenticate": 'Bearer realm="dts"' },
    });
  });

  it("accepts the token as the token parameter or as Authorization: Bearer (any case, surrounding spaces)", () => {
    expect(checkToken(SECRET, url(`&token=${SECRET}`), new Headers())).toBeNull();
    expect(checkToken(SECRET, url(), bearer(`Bearer ${SECRET}`))).toBeNull();
    expect(checkToken(SECRET, url(), bearer(`  bearer   ${SECRET} `))).toBeNull();
    expect(checkToken(SECRET, url(`&token=${SECRET}`), bearer(`Bearer ${SECRET}`))).toBeNull();
  });

  it.each([
    ["Basic", `Basic ${Buffer.from(`user:${SECRET}`).toString("base64")}`],
    ["a bare scheme", "Bearer"],
    ["a bare token", SECRET],
    ["two tokens", `Bearer ${SECRET} ${SECRET}`],
    ["an empty header", ""],
  ])("answers a malformed Authorization (%s) with 401 invalid_request, even beside a right token parameter", (_, value) => {
    const r = checkToken(SECRET, url(`&token=${SECRET}`), bearer(value));
    expect(r).toMatchObject({
      status: 401,
      description: "The Authorization header must be `Bearer <token>`.",
      headers: { "WWW-Authenticate": 'Bearer realm="dts", error="invalid_request"' },
    });
  });

  it.each([
    ["a wrong token", "wrong-token-0123456789"],
    ["a prefix of the token", SECRET.slice(0, -1)],
    ["the token and more", `${SECRET}x`],
    ["the token in another case", SECRET.toUpperCase()],
    ["a very long token", "x".repeat(100_000)],
  ])("refuses %s with 403, without echoing it", (_, token) => {
    for (const r of [
      checkToken(SECRET, url(`&token=${encodeURIComponent(token)}`), new Headers()),
      checkToken(SECRET, url(), bearer(`Bearer ${token}`)),
    ]) {
      expect(r).toMatchObject({ status: 403 });
      expect(r?.description).toBe("The token is not valid for writes on this server.");
    }
  });

  it("refuses a request when any one of the tokens it carries is wrong", () => {
    expect(checkToken(SECRET, url(`&token=${SECRET}`), bearer("Bearer wrong"))).toMatchObject({ status: 403 });
    expect(checkToken(SECRET, url("&token=wrong"), bearer(`Bearer ${SECRET}`))).toMatchObject({ status: 403 });
    expect(checkToken(SECRET, url(`&token=${SECRET}&token=wrong`), new Headers())).toMatchObject({ status: 403 });
    expect(checkToken(SECRET, url(`&token=wrong&token=${SECRET}`), new Headers())).toMatchObject({ status: 403 });
    // An empty parameter is a given token too, and a wrong one.
    expect(checkToken(SECRET, url(`&token=&token=${SECRET}`), new Headers())).toMatchObject({ status: 403 });
  });

  it("compares the decoded parameter, so a token with reserved characters works when percent-encoded", () => {
    const odd = "tök+én/=&?0123456789";
    expect(checkToken(odd, url(`&token=${encodeURIComponent(odd)}`), new Headers())).toBeNull();
    expect(checkToken(odd, url(`&token=${odd}`), new Headers())).toMatchObject({ status: 403 });
  });
});
