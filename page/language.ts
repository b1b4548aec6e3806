// The language a text is written in, from its Dublin Core, as HTML's `lang` and `dir` take it.

import type { Text } from "./api.js";

/** Scripts written right to left (ISO 639 codes of languages usually written in them). */
const RTL = new Set([
  "ar",
  "ara",
  "arc",
  "ckb",
  "dv",
  "fa",
  "fas",
  "per",
  "he",
  "heb",
  "hbo",
  "ps",
  "syc",
  "syr",
  "ur",
  "urd",
  "yi",
  "yid",
  "ug",
  "sam",
]);

export function textLanguage(dublinCore: Record<string, Text[]>): { lang: string; dir: "rtl" | "ltr" } | null {
  const value = dublinCore.language?.[0]?.value?.trim();
  if (!value) return null;
  const primary = value.toLowerCase().split(/[-_]/)[0];
  return { lang: value, dir: RTL.has(primary) ? "rtl" : "ltr" };
}
