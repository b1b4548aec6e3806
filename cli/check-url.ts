// `dts check <url>`: the conformance crawl of a deployed service (check/), its options and
// exit status. `dts check` without a URL checks a corpus folder, as before.

import { InvalidArgumentError } from "commander";
import { DEFAULT_OPTIONS } from "../check/answers.js";

export interface UrlCheckOptions {
  json?: boolean;
  maxResources: number;
  sample: number;
  concurrency: number;
  timeout: number;
  offline?: boolean;
}

/** An http(s) URL: the positional argument that selects URL mode. */
export const isServiceUrl = (arg: string | undefined): arg is string => arg !== undefined && /^https?:\/\//i.test(arg);

/** A number of seconds (fractions allowed), for --timeout. */
export function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("--timeout takes a number of seconds above 0");
  return n;
}

export const URL_DEFAULTS = DEFAULT_OPTIONS;

/** Runs the crawl and prints its report; exit status 1 when a check failed, else 0. */
export async function runUrlCheck(url: string, opts: UrlCheckOptions): Promise<number> {
  // Loaded here: the crawler brings jsonld, which no other command needs.
  const [{ checkService }, { formatReport }] = await Promise.all([import("../check/crawl.js"), import("../check/report.js")]);
  const report = await checkService(url, {
    maxResources: opts.maxResources,
    sample: opts.sample,
    concurrency: opts.concurrency,
    timeoutMs: opts.timeout * 1000,
    offline: Boolean(opts.offline),
  });
  console.log(opts.json ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.counts.fail > 0 ? 1 : 0;
}
