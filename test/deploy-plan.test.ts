// The deploy's plan, pure: what is unchanged (size, and MD5 where the ETag is one), when the
// switch is written, and what is deleted; and the targets the command line names.

import { describe, expect, it } from "vitest";
import { listingKey, parseSwitch, SWITCH_KEY } from "../builder/tree/bucket-layout.js";
import type { LocalObject } from "../deploy/local-tree.js";
import { listingOf, planDeploy, sameObject } from "../deploy/plan.js";
import { parseTarget } from "../deploy/s3-store.js";

const object = (path: string, md5: string, size = 10, hash = ""): LocalObject => ({
  path,
  hash,
  key: hash ? `${path}.${hash}` : path,
  size,
  headers: { contentType: "application/json", cacheControl: "x", md5 },
});

const md5a = "a".repeat(32);
const md5b = "b".repeat(32);

describe("planDeploy", () => {
  it("uploads what the store lacks or holds with other bytes, and keeps what it holds", () => {
    expect(sameObject(object("p", md5a), { key: "p", size: 10, etag: md5a })).toBe(true);
    expect(sameObject(object("p", md5a), { key: "p", size: 10, etag: md5b })).toBe(false);
    expect(sameObject(object("p", md5a), { key: "p", size: 11, etag: md5a })).toBe(false);
    // A multipart upload's ETag is no MD5: the size decides (keys of tree files change with their bytes).
    expect(sameObject(object("p", md5a), { key: "p", size: 10, etag: `${md5b}-2` })).toBe(true);
    expect(sameObject(object("p", md5a), undefined)).toBe(false);
  });

  it("writes the switch unless it names this version's listing, and deletes what no longer is named", () => {
    const local = [object("_p.1", md5a), object("_manifest.json", md5b, 10, "h1")];
    const first = planDeploy(local, [], null);
    expect(first.uploads.map((o) => o.key)).toEqual(["_p.1", "_manifest.json.h1"]);
    expect(first.listing?.key).toBe(listingKey(first.version));
    const sw = parseSwitch(new TextDecoder().decode(first.switch!.body));
    expect(sw).toEqual({ v: 1, version: first.version, listing: listingKey(first.version) });
    expect(first.switch?.key).toBe(SWITCH_KEY);

    const held = [
      { key: "_p.1", size: 10, etag: md5a },
      { key: "_manifest.json.h1", size: 10, etag: md5b },
      { key: listingKey(first.version), size: 5 },
      { key: SWITCH_KEY, size: 5 },
      { key: "_p.old", size: 3 },
    ];
    const again = planDeploy(local, held, sw);
    expect([again.uploads.length, again.unchanged.length, again.listing, again.switch]).toEqual([0, 2, null, null]);
    expect(again.deletes.map((d) => d.key)).toEqual(["_p.old"]);
    // A switch naming another listing of the same files (an older format) is written again.
    expect(planDeploy(local, held, { ...sw!, listing: "_dts/deploys/x.json" }).switch).not.toBeNull();
  });

  it("names a version by its files, whatever their order", () => {
    const a = [object("a", md5a), object("b", md5b, 10, "h")];
    expect(listingOf(a).version).toBe(listingOf([...a].reverse()).version);
    expect(listingOf(a).version).not.toBe(listingOf([object("a", md5a), object("b", md5b, 10, "h2")]).version);
  });
});

describe("parseTarget", () => {
  it("reads s3:// and r2:// targets, R2's endpoint from the account or --endpoint", () => {
    expect(parseTarget("s3://b")).toEqual({ bucket: "b", prefix: "", endpoint: undefined, region: undefined });
    expect(parseTarget("s3://b/a/c/", { endpoint: "http://x", region: "eu" })).toEqual({
      bucket: "b",
      prefix: "a/c/",
      endpoint: "http://x",
      region: "eu",
    });
    expect(parseTarget("r2://ed/latin", { env: { CLOUDFLARE_ACCOUNT_ID: "acc" } })).toEqual({
      bucket: "ed",
      prefix: "latin",
      endpoint: "https://acc.r2.cloudflarestorage.com",
      region: "auto",
    });
    expect(() => parseTarget("r2://ed", { env: {} })).toThrow(/CLOUDFLARE_ACCOUNT_ID/);
    expect(() => parseTarget("https://b.s3.amazonaws.com")).toThrow(/s3:\/\/bucket/);
  });
});
