// How a tree lies in an object store (S3, R2, GCS) after `dts deploy`: what the deploy writes
// and what a reader of the bucket (the R2 Worker, any reader over a bucket) reads. Pure.
//
// Objects are never overwritten in place where a reader could see half a version: pack and
// block files keep their names (already named by their content), every other tree file is
// stored under its path plus a hash of its bytes, and a listing (`_dts/deploys/<version>.json.gz`,
// gzipped JSON, itself named by its content) maps each tree path to its object. The switch (`_dts/current.json`),
// written last, names the listing: a reader that reads the switch sees one whole version.
// The DTS 1.0 static profile's files are the exception: a bucket served as a website answers
// them by their own path, so they lie there.

import { isPackingFile } from "./packed-folder.js";

/** The switch: which version the bucket serves. Written last, read first. */
export const SWITCH_KEY = "_dts/current.json";
/** Where each version's listing lies. */
export const DEPLOYS_FOLDER = "_dts/deploys";

export const BUCKET_FORMAT = 1;

export interface DeploySwitch {
  v: typeof BUCKET_FORMAT;
  /** The version's id: a hash of its listing. Readers take it as the tree's generation. */
  version: string;
  /** The listing's key, relative to the deploy's prefix. */
  listing: string;
}

/**
 * A version's listing: each tree path and the hash its object's key ends with, or "" when the
 * object lies under the path itself (packs and blocks, named by their content already, and the
 * static profile's files).
 */
export interface DeployListing {
  v: typeof BUCKET_FORMAT;
  version: string;
  files: Record<string, string>;
}

/** True when a tree path's own name already changes with its bytes (so it may lie under it). */
export function namedByContent(path: string): boolean {
  return isPackingFile(path.slice(path.lastIndexOf("/") + 1));
}

/** The key (relative to the prefix) of a tree path's object, given the hash the listing holds. */
export function objectKey(path: string, hash: string): string {
  return hash ? `${path}.${hash}` : path;
}

/** The listing is gzipped: latinLit's is 783 kB of JSON, 122 kB gzipped, and every deploy writes one. */
export function listingKey(version: string): string {
  return `${DEPLOYS_FOLDER}/${version}.json.gz`;
}

/** The switch as stored, or null when the bytes are not one this version reads. */
export function parseSwitch(text: string): DeploySwitch | null {
  try {
    const s = JSON.parse(text) as DeploySwitch;
    return s && s.v === BUCKET_FORMAT && typeof s.version === "string" && typeof s.listing === "string" ? s : null;
  } catch {
    return null;
  }
}

export function parseListing(text: string): DeployListing | null {
  try {
    const l = JSON.parse(text) as DeployListing;
    return l && l.v === BUCKET_FORMAT && typeof l.files === "object" && l.files !== null ? l : null;
  } catch {
    return null;
  }
}
