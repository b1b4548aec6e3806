// What a check of a deployed service found: one finding per check made on one URL, collected
// as the crawl goes, then printed for people (failures and warnings grouped by check) or as JSON.

export type Outcome = "pass" | "fail" | "warn";

export interface Finding {
  /** The check's name, e.g. `cors`, `content-type`, `range-concatenation`. */
  check: string;
  outcome: Outcome;
  url: string;
  /** What was expected and what came (failures and warnings). */
  expected?: string;
  got?: string;
  /** What usually causes it, or how to fix it. */
  hint?: string;
}

export interface CheckReport {
  entry: string;
  /** The API version detected at the entry point, or null when none could be. */
  version: "1-draft2" | "1.0" | null;
  findings: Finding[];
  /** Why the crawl did not see everything (the --max-resources bound), if it did not. */
  notes: string[];
  counts: Record<Outcome, number>;
  seconds: number;
}

/** Collects findings during a crawl. */
export class Findings {
  readonly list: Finding[] = [];
  readonly notes: string[] = [];
  /** One answer is often read by several checks (a passage, then a unit of a range): each finding counts once. */
  private readonly seen = new Set<string>();

  private add(finding: Finding): void {
    const key = JSON.stringify(finding);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(finding);
  }

  pass(check: string, url: string): void {
    this.add({ check, outcome: "pass", url });
  }

  fail(check: string, url: string, detail: { expected?: string; got?: string; hint?: string } = {}): void {
    this.add({ check, outcome: "fail", url, ...detail });
  }

  warn(check: string, url: string, detail: { expected?: string; got?: string; hint?: string } = {}): void {
    this.add({ check, outcome: "warn", url, ...detail });
  }

  /** Passes when `ok`, else fails with the detail: most checks are one condition. */
  expect(ok: boolean, check: string, url: string, detail: { expected?: string; got?: string; hint?: string }): boolean {
    if (ok) this.pass(check, url);
    else this.fail(check, url, detail);
    return ok;
  }

  note(text: string): void {
    this.notes.push(text);
  }
}

export function makeReport(entry: string, version: CheckReport["version"], findings: Findings, seconds: number): CheckReport {
  const counts: Record<Outcome, number> = { pass: 0, fail: 0, warn: 0 };
  for (const f of findings.list) counts[f.outcome]++;
  return { entry, version, findings: findings.list, notes: findings.notes, counts, seconds };
}

export function summaryLine(report: CheckReport): string {
  const { pass, fail, warn } = report.counts;
  return `${pass} checks passed, ${fail} failed, ${warn} warnings`;
}

/** Distinct failures of one check shown in full; the rest counted, so a broken header on every answer stays readable. */
const SHOWN = 10;

/** The report for people: per check, its passes and each failure and warning with its URL. */
export function formatReport(report: CheckReport): string {
  const lines = [`dts check ${report.entry}: DTS ${report.version ?? "(unknown version)"}`];
  const byCheck = new Map<string, Finding[]>();
  for (const f of report.findings) byCheck.set(f.check, [...(byCheck.get(f.check) ?? []), f]);
  const order = [...byCheck.keys()].sort((a, b) => rank(byCheck.get(a)!) - rank(byCheck.get(b)!) || a.localeCompare(b));
  for (const check of order) {
    const all = byCheck.get(check)!;
    const bad = all.filter((f) => f.outcome !== "pass");
    const passed = all.length - bad.length;
    const mark = bad.some((f) => f.outcome === "fail") ? "FAIL" : bad.length ? "WARN" : "ok";
    lines.push(`${mark.padEnd(4)} ${check}: ${passed} passed${bad.length ? `, ${bad.length} not` : ""}`);
    // One cause often fails many URLs (a header rule, a context): each cause shown once, with its count.
    const causes = new Map<string, Finding[]>();
    for (const f of bad) {
      const key = `${f.outcome}|${f.expected}|${f.got}|${f.hint}`;
      causes.set(key, [...(causes.get(key) ?? []), f]);
    }
    for (const same of [...causes.values()].slice(0, SHOWN)) {
      const f = same[0];
      const more = same.length > 1 ? ` (and ${same.length - 1} other URL${same.length > 2 ? "s" : ""})` : "";
      lines.push(`     ${f.outcome === "fail" ? "failed" : "warning"}: ${f.url}${more}`);
      if (f.expected !== undefined) lines.push(`       expected: ${f.expected}`);
      if (f.got !== undefined) lines.push(`       got:      ${f.got}`);
      if (f.hint !== undefined) lines.push(`       hint:     ${f.hint}`);
    }
    if (causes.size > SHOWN) lines.push(`     ... and ${causes.size - SHOWN} more (--json lists all)`);
  }
  for (const note of report.notes) lines.push(`note: ${note}`);
  lines.push(`${summaryLine(report)} (${report.seconds.toFixed(1)} s)`);
  return lines.join("\n");
}

/** Failing checks first, then those with warnings, then the clean ones. */
function rank(findings: Finding[]): number {
  if (findings.some((f) => f.outcome === "fail")) return 0;
  return findings.some((f) => f.outcome === "warn") ? 1 : 2;
}
