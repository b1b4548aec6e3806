// Write-to-visible latency: a write server started in this process, one-line PUTs on one
// passage, and for each the time from sending the PUT to a GET that returns the new text.
// The corpus given is written to: pass a copy.

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SITE_FILE } from "../../builder/request.js";
import { type Site, makeSite } from "../../builder/site.js";
import { documentUrl } from "../../builder/urls.js";
import { startServer } from "../serve.js";

export interface LatencyOptions {
  /** A copy of a corpus (it is written to). */
  corpus: string;
  dist: string;
  id: string;
  /** A passage of the document; each run changes one word on one of its lines. */
  ref: string;
  /** Measured PUTs (default 20), after `warmup` unmeasured ones (default 3). */
  runs?: number;
  warmup?: number;
  /** Validate against this RELAX NG schema, as `dts serve --schema` would. */
  schema?: string;
}

export interface LatencyReport {
  runs: number;
  /** PUT sent -> new text returned by a GET, in ms. */
  median: number;
  p90: number;
  min: number;
  max: number;
  /** PUT sent -> PUT answered, in ms (the median). */
  putMedian: number;
  /** Median of each phase the server reports in Server-Timing, in ms. */
  phases: Record<string, number>;
  /** The server's start (an incremental build of the corpus), in seconds. */
  startSeconds: number;
  samples: number[];
}

const FRAGMENT = /<dts:fragment[^>]*>([\s\S]*)<\/dts:fragment>/;

export async function measureWriteLatency(options: LatencyOptions): Promise<LatencyReport> {
  const token = randomBytes(16).toString("hex");
  const site = readSite(options.dist);
  const started = performance.now();
  const server = await startServer({
    dist: options.dist,
    site,
    port: 0,
    host: "127.0.0.1",
    corpus: options.corpus,
    token,
    schema: options.schema,
    waitForSchema: true,
  });
  const startSeconds = (performance.now() - started) / 1000;
  const url = server.url + documentUrl(site, options.id, { ref: options.ref });
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/tei+xml" };
  try {
    const first = await fetch(url);
    if (first.status !== 200) throw new Error(`GET ${url}: ${first.status} ${await first.text()}`);
    const original = FRAGMENT.exec(await first.text())?.[1];
    if (!original) throw new Error(`GET ${url}: no dts:fragment in the answer`);
    // The first text after a tag: one word inserted there changes exactly one line.
    const at = /<[^!?][^>]*>\s*(?=[^\s<])/.exec(original.slice(original.indexOf(">") + 1));
    if (!at) throw new Error(`the passage ${options.ref} has no text to change`);
    const insertAt = original.indexOf(">") + 1 + at.index + at[0].length;
    const body = (marker: string): string =>
      `<TEI xmlns="http://www.tei-c.org/ns/1.0"><dts:fragment xmlns:dts="https://w3id.org/dts/api#">` +
      `${original.slice(0, insertAt)}${marker}${original.slice(insertAt)}</dts:fragment></TEI>`;
    const samples: number[] = [];
    const puts: number[] = [];
    const phases = new Map<string, number[]>();
    const total = (options.warmup ?? 3) + (options.runs ?? 20);
    for (let i = 0; i < total; i++) {
      const marker = `edit${i}-${randomBytes(3).toString("hex")} `;
      const t0 = performance.now();
      const put = await fetch(url, { method: "PUT", headers, body: body(marker) });
      const t1 = performance.now();
      if (put.status !== 200) throw new Error(`PUT ${url}: ${put.status} ${await put.text()}`);
      await put.arrayBuffer();
      for (;;) {
        const text = await (await fetch(url)).text();
        if (text.includes(marker)) break;
        if (performance.now() - t0 > 10_000) throw new Error("the write was not visible after 10 s");
      }
      const t2 = performance.now();
      if (i < (options.warmup ?? 3)) continue;
      samples.push(t2 - t0);
      puts.push(t1 - t0);
      for (const part of (put.headers.get("server-timing") ?? "").split(",")) {
        const m = /^\s*([\w-]+);dur=([\d.]+)/.exec(part);
        if (m) phases.set(m[1], [...(phases.get(m[1]) ?? []), Number(m[2])]);
      }
    }
    // Leave the passage as it was.
    const restore = await fetch(url, {
      method: "PUT",
      headers,
      body: `<TEI xmlns="http://www.tei-c.org/ns/1.0"><dts:fragment xmlns:dts="https://w3id.org/dts/api#">${original}</dts:fragment></TEI>`,
    });
    await restore.arrayBuffer();
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      runs: samples.length,
      median: quantile(sorted, 0.5),
      p90: quantile(sorted, 0.9),
      min: sorted[0],
      max: sorted[sorted.length - 1],
      putMedian: quantile([...puts].sort((a, b) => a - b), 0.5),
      phases: Object.fromEntries([...phases].map(([k, v]) => [k, quantile(v.sort((a, b) => a - b), 0.5)])),
      startSeconds,
      samples,
    };
  } finally {
    await server.close();
  }
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
}

function readSite(dist: string): Site {
  try {
    return JSON.parse(readFileSync(join(dist, SITE_FILE), "utf8")) as Site;
  } catch {
    return makeSite();
  }
}
