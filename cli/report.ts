// The build report, for people (a short table and the warnings grouped by kind, those a user
// can act on first) or for tools (JSON, every warning).

import { isAbsolute, join, relative, resolve } from "node:path";
import type { BuildReport } from "../builder/build/build.js";
import type { CheckReport } from "../builder/build/check.js";
import type { Warning } from "../builder/catalog.js";
import { count } from "../builder/count.js";
import { formatLocation, type SourceLocation } from "../builder/error.js";
import type { HostReport } from "../builder/hosts/host-files.js";

/** Examples shown of each kind of warning. */
const EXAMPLES = 3;

/** Kinds of warning (one, many), in the order shown: first those a user can act on. */
const KINDS: { kind: [string, string]; test: RegExp }[] = [
  { kind: ["file that is not well-formed XML", "files that are not well-formed XML"], test: /not well-formed/ },
  { kind: ["duplicate reference", "duplicate references"], test: /duplicate reference/ },
  {
    kind: ["citation declaration that is broken or matches nothing", "citation declarations that are broken or match nothing"],
    test: /cRefPattern|citeStructure|matchPattern|no citable/,
  },
  { kind: ["empty citation value", "empty citation values"], test: /empty or missing @|empty citation value/ },
  {
    kind: ["metadata problem", "metadata problems"],
    test: /\.json|JSON|@urn|@path|identifier|duplicate id|not declared|file not found|not a (CTS|CapiTainS)|ignored|dropped/,
  },
  { kind: ["host limit", "host limits"], test: /^(nginx|apache|netlify|cloudflare):/ },
  { kind: ["DOCTYPE with entities (handled)", "DOCTYPEs with entities (handled)"], test: /DOCTYPE/ },
  {
    kind: ["file not listed in any metadata file (skipped)", "files not listed in any metadata file (skipped)"],
    test: /not listed in any/,
  },
];
const OTHER: [string, string] = ["other warning", "other warnings"];

/**
 * A file as the user named it: under one of the paths they gave (the corpus, the output), that
 * path as given (absolute stays absolute, relative stays relative) and the rest; else as it is.
 */
export function asGiven(file: string, given: (string | undefined)[]): string {
  for (const root of given) {
    if (!root) continue;
    const inside = relative(resolve(root), file);
    if (!inside) return root;
    if (!inside.startsWith("..") && !isAbsolute(inside)) return join(root, inside);
  }
  return file;
}

/** `file:line:column` of a warning or a corpus error. */
export function where(w: SourceLocation, ...given: (string | undefined)[]): string {
  return formatLocation({ ...w, file: asGiven(w.file, given) });
}

function size(bytes: number): string {
  return bytes >= 1e9
    ? `${(bytes / 1e9).toFixed(2)} GB`
    : bytes >= 1e6
      ? `${(bytes / 1e6).toFixed(1)} MB`
      : `${(bytes / 1e3).toFixed(1)} kB`;
}

/** Warnings grouped by kind with counts, a few examples of each, and how to see them all. */
export function warningLines(warnings: Warning[], given: (string | undefined)[], indent = "    "): string[] {
  const groups = new Map<[string, string], Warning[]>([...KINDS.map((k) => [k.kind, []] as [[string, string], Warning[]]), [OTHER, []]]);
  for (const w of warnings) groups.get(KINDS.find((k) => k.test.test(w.message))?.kind ?? OTHER)!.push(w);
  const lines: string[] = [];
  for (const [[one, many], list] of groups) {
    if (!list.length) continue;
    lines.push(`${indent}${count(list.length, one, many)}:`);
    for (const w of list.slice(0, EXAMPLES)) lines.push(`${indent}  ${where(w, ...given)}: ${w.message}`);
    if (list.length > EXAMPLES) lines.push(`${indent}  ... and ${list.length - EXAMPLES} more`);
  }
  if ([...groups.values()].some((list) => list.length > EXAMPLES))
    lines.push(`${indent}--json lists all ${count(warnings.length, "warning")}`);
  return lines;
}

export function printReport(report: BuildReport, options: { json: boolean; corpus: string; out: string }): void {
  printSummary(report, {
    json: options.json,
    given: [options.corpus, options.out],
    heading: `Built ${options.out} from ${options.corpus} in ${report.seconds.toFixed(2)} s${report.incremental ? " (incremental)" : ""}`,
    details: [
      ...(report.incremental ? [`  rebuilt    ${rebuiltLine(report)}`] : []),
      `  passages   ${report.passages}`,
      `  files      ${report.files} (${size(report.bytes)})`,
      ...(report.staticSite
        ? [`  static     ${report.staticSite.files} files in the tree (${size(report.staticSite.bytes)}), for a file server`]
        : []),
      `  entry      ${report.entryPoint}`,
    ],
  });
}

/** What `dts check` found: the build's report without the tree. */
export function printCheck(report: CheckReport, options: { json: boolean; corpus: string }): void {
  printSummary(report, {
    json: options.json,
    given: [options.corpus],
    heading: `Checked ${options.corpus} in ${report.seconds.toFixed(2)} s (nothing written)`,
    details: [`  passages   ${report.passages}`],
  });
}

/** The report of `dts build` or `dts check`: JSON with paths as given, or the lines a user reads. */
function printSummary(
  report: (BuildReport | CheckReport) & { reused?: number },
  o: { json: boolean; given: string[]; heading: string; details: string[] },
): void {
  if (o.json) {
    const warnings = report.warnings.map((w) => ({ ...w, file: asGiven(w.file, o.given) }));
    console.log(JSON.stringify({ ...report, warnings, seconds: Number(report.seconds.toFixed(3)) }, null, 2));
    return;
  }
  const lines = [
    o.heading,
    `  documents  ${report.documents}${report.withoutText ? ` (${report.withoutText} without text)` : ""}${report.reused ? `, ${report.reused} unchanged` : ""}`,
    ...o.details,
    `  warnings   ${report.warnings.length}`,
    ...warningLines(report.warnings, o.given),
  ];
  console.log(lines.join("\n"));
}

/** The documents an incremental build wrote, by why: "2 (1 passages changed, 1 new document)". */
function rebuiltLine(report: BuildReport): string {
  const written = Object.entries(report.reasons).filter(([reason]) => reason !== "source unchanged");
  const total = written.reduce((n, [, c]) => n + (c ?? 0), 0);
  return total ? `${total} (${written.map(([reason, c]) => `${c} ${reason}`).join(", ")})` : "none";
}

const n = (x: number): string => x.toLocaleString("en");

/** A size in bytes as people read it (kB and MB of 1,000). */
export function bytes(x: number): string {
  return x >= 1e6 ? `${(x / 1e6).toFixed(1)} MB` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} kB` : `${x} B`;
}

/**
 * Per host: what it is handed (files, the largest, the fullest folder), its rules, and each
 * documented limit with the figure checked against it, so a deploy that would fail shows here.
 */
export function printHosts(hosts: HostReport | undefined): void {
  for (const h of hosts?.hosts ?? []) {
    const parts = [`rules ${bytes(h.bytes)}${h.rules ? ` (${count(h.rules, "rule")})` : ", none per response"}`];
    if (h.deploy.files) {
      parts.push(
        `${n(h.deploy.files)} files, largest ${bytes(h.deploy.largest.bytes)}, fullest folder ${n(h.deploy.fullest.files)} entries`,
      );
    }
    for (const c of h.limits)
      parts.push(`${c.limit.short} ${n(c.value)} of ${n(c.limit.limit)}${c.value > c.limit.limit ? " (OVER)" : ""}`);
    console.log(`  host ${h.host.padEnd(10)} ${parts.join("; ")}`);
  }
  const c = hosts?.compressed;
  if (c) console.log(`  compressed ${count(c.files, "response")} (.gz, .br)`);
}
