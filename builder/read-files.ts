// Reading the tree's and the corpus's files where a missing or unreadable file is an answer,
// not an error (a first build, a document without text, a tree of an older format).

import { readdirSync, readFileSync } from "node:fs";

/** A file's bytes, or null when it cannot be read (missing, a folder, no permission). */
export function readBytesOr(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** A file's text, or `fallback` when it cannot be read. */
export function readTextOr(file: string, fallback: string): string {
  const bytes = readBytesOr(file);
  return bytes === null ? fallback : bytes.toString("utf8");
}

/** A file's JSON, or null when it cannot be read or is not JSON. */
export function readJsonOr<T>(file: string): T | null {
  return parseOr(readTextOr(file, ""), (text) => JSON.parse(text) as T);
}

/** `text` read by `parse`, or null when it is empty or `parse` throws. */
export function parseOr<T>(text: string, parse: (text: string) => T): T | null {
  if (!text) return null;
  try {
    return parse(text);
  } catch {
    return null;
  }
}

/** The names in a folder, or none when it cannot be listed. */
export function listOr(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
