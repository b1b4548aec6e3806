// Resolves `ref`, or `start` and `end`, against a document's index: the one place that
// decides which units a request names and what is wrong when it names none.

import type { CitedText } from "../citation/cited-text.js";
import { count } from "../count.js";
import { DtsError } from "../error.js";

export interface Selection {
  /** Citation level of the selected units. */
  level: number;
  /** Units of that level, first and last (equal for a single `ref`). */
  first: number;
  last: number;
  isRange: boolean;
}

export type SelectionResult = Selection | DtsError;

/**
 * `mixedLevels` lets a range run between units of different levels (DTS 1.0 allows it; its
 * level is then the deeper one's); 1-draft2 ranges stay within one level.
 */
export function select(text: CitedText, p: { ref?: string; start?: string; end?: string }, mixedLevels = false): SelectionResult {
  const units = text.units;
  const missing = (name: string, ref: string): DtsError => {
    const parts = ref.split(/[.:]/).length;
    const deeper =
      parts > text.index.maxCiteDepth
        ? ` The reference has ${parts} parts, and the document is cited to ${count(text.index.maxCiteDepth, "level")}.`
        : "";
    return new DtsError(404, `The document "${text.id}" exists, but it has no passage with the reference ${name}="${ref}".${deeper}`);
  };
  if (p.ref !== undefined) {
    const u = text.find(p.ref);
    if (u === undefined) return missing("ref", p.ref);
    return { level: units[u].level, first: u, last: u, isRange: false };
  }
  const a = p.start !== undefined ? text.find(p.start) : undefined;
  if (p.start !== undefined && a === undefined) return missing("start", p.start);
  const b = p.end !== undefined ? text.find(p.end) : undefined;
  if (p.end !== undefined && b === undefined) return missing("end", p.end);
  if (a !== undefined && b !== undefined) {
    if (units[a].level !== units[b].level && !mixedLevels) {
      return new DtsError(
        400,
        `start="${p.start}" (level ${units[a].level}) and end="${p.end}" (level ${units[b].level}) are not at the same citation level`,
      );
    }
    if (units[a].start > units[b].start) {
      return new DtsError(400, `start="${p.start}" comes after end="${p.end}" in the document`);
    }
    return { level: Math.max(units[a].level, units[b].level), first: a, last: b, isRange: true };
  }
  if (a !== undefined) {
    const list = text.levels[units[a].level];
    return { level: units[a].level, first: a, last: list[list.length - 1], isRange: true };
  }
  const list = text.levels[units[b!].level];
  return { level: units[b!].level, first: list[0], last: b!, isRange: true };
}
