// The build report, for people (a short table and the first warnings) or for tools (JSON).

import { relative } from "node:path";
import type { BuildReport } from "../builder/build.js";
import type { Warning } from "../builder/catalog.js";

const SHOWN_WARNINGS = 20;

function where(w: Warning): string {
  const file = relative(process.cwd(), w.file) || w.file;
  return `${file}${w.line ? `:${w.line}${w.column ? `:${w.column}` : ""}` : ""}`;
}

function size(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}

export function printReport(report: BuildReport, options: { json: boolean; corpus: string; out: string }): void {
  if (options.json) {
    const warnings = report.warnings.map((w) => ({ ...w, file: relative(process.cwd(), w.file) || w.file }));
    console.log(JSON.stringify({ ...report, warnings, seconds: Number(report.seconds.toFixed(3)) }, null, 2));
    return;
  }
  const lines = [
    `Built ${options.out} from ${options.corpus} in ${report.seconds.toFixed(2)} s${report.incremental ? " (incremental)" : ""}`,
    `  documents  ${report.documents}${report.withoutText ? ` (${report.withoutText} without text)` : ""}${report.reused ? `, ${report.reused} unchanged` : ""}`,
    `  passages   ${report.passages}`,
    `  files      ${report.files} (${size(report.bytes)})`,
    `  warnings   ${report.warnings.length}`,
  ];
  for (const w of report.warnings.slice(0, SHOWN_WARNINGS)) lines.push(`    ${where(w)}: ${w.message}`);
  if (report.warnings.length > SHOWN_WARNINGS) {
    lines.push(`    ... and ${report.warnings.length - SHOWN_WARNINGS} more (--json lists them all)`);
  }
  console.log(lines.join("\n"));
}
