// What a deploy does, decided from the local tree and the store's listing alone (pure): the
// objects to upload (those the store does not hold with the same bytes), the listing and the
// switch to write after them, and the objects to delete after the switch.

import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { BUCKET_FORMAT, type DeployListing, type DeploySwitch, listingKey, SWITCH_KEY } from "../builder/tree/bucket-layout.js";
import type { LocalObject } from "./local-tree.js";
import { IMMUTABLE, SWITCH_CACHE_CONTROL } from "./object-headers.js";
import type { ObjectHeaders, RemoteObject } from "./store.js";

/** An object the deploy writes itself (the listing, the switch), with its bytes. */
export interface WrittenObject {
  key: string;
  body: Uint8Array;
  headers: ObjectHeaders;
}

export interface DeployPlan {
  version: string;
  /** Tree files the store lacks or holds with other bytes. */
  uploads: LocalObject[];
  unchanged: LocalObject[];
  /** The listing, when the store does not hold it yet. */
  listing: WrittenObject | null;
  /** The switch, when the store serves another version (or none). */
  switch: WrittenObject | null;
  /** Keys under the prefix the new version does not name: deleted after the switch. */
  deletes: RemoteObject[];
}

const utf8 = new TextEncoder();

function written(key: string, body: Uint8Array, contentType: string, cacheControl: string): WrittenObject {
  return { key, body, headers: { contentType, cacheControl, md5: createHash("md5").update(body).digest("hex") } };
}

/** Whether the store's object holds the local bytes: same size, and same MD5 where its ETag is one (not a multipart tag). */
export function sameObject(local: LocalObject, remote: RemoteObject | undefined): boolean {
  if (!remote || remote.size !== local.size) return false;
  const etag = remote.etag?.toLowerCase();
  return etag === undefined || !/^[0-9a-f]{32}$/.test(etag) || etag === local.headers.md5;
}

/** The listing of a tree's objects, and its version: a hash of it, so the same tree is the same version. */
export function listingOf(objects: LocalObject[]): { version: string; text: string } {
  const files: Record<string, string> = {};
  for (const o of [...objects].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) files[o.path] = o.hash;
  const version = createHash("sha256").update(JSON.stringify(files)).digest("hex").slice(0, 20);
  const listing: DeployListing = { v: BUCKET_FORMAT, version, files };
  return { version, text: JSON.stringify(listing) };
}

/** `served`: the switch the store holds, if any. */
export function planDeploy(local: LocalObject[], remote: RemoteObject[], served: DeploySwitch | null): DeployPlan {
  const held = new Map(remote.map((r) => [r.key, r]));
  const uploads: LocalObject[] = [];
  const unchanged: LocalObject[] = [];
  for (const o of local) (sameObject(o, held.get(o.key)) ? unchanged : uploads).push(o);
  const { version, text } = listingOf(local);
  const listKey = listingKey(version);
  const sw: DeploySwitch = { v: BUCKET_FORMAT, version, listing: listKey };
  const keep = new Set([...local.map((o) => o.key), listKey, SWITCH_KEY]);
  return {
    version,
    uploads,
    unchanged,
    listing: held.has(listKey) ? null : written(listKey, gzipSync(text), "application/gzip", IMMUTABLE),
    // Rewritten unless it names this version's listing already (the same tree deployed again).
    switch:
      served?.version === version && served.listing === listKey
        ? null
        : written(SWITCH_KEY, utf8.encode(JSON.stringify(sw)), "application/json", SWITCH_CACHE_CONTROL),
    deletes: remote.filter((r) => !keep.has(r.key)),
  };
}
