// The benchmark suite: `npm run bench [-- options]`. Not a timed test: it measures side by side
// in one run, prints a table and writes it to .bench/results.json.
//
//   1. build: full build of ../shared/corpora/latinLit and of the 184-file slice (wall, CPU, peak
//      RSS, files, bytes), each against a write-only baseline that writes the same files with the
//      same sizes right after, on the same disk (bench/write-baseline.ts);
//   2. scale: builds of synthetic corpora (bench/gen.ts) of 0.1x and 1x latinLit's passage count,
//      and of 10x / 100x with --scale 10 / --scale 100: time and peak RSS as the corpus grows;
//   3. serve: `dts serve` throughput and latency (autocannon) on whole documents, passages, a
//      range and a collection page, beside nginx with the rules of `dts build --target nginx`;
//   4. incremental: a second build with no change, a build after one document changed, and
//      write-to-visible through the write API;
//   7. deploy: `dts deploy` of the latinLit tree to s3rver: first, again, after a one-line edit.
//
// Builds and the baseline run as child processes under /usr/bin/time -v (bench/rusage.js where it
// is absent). Corpora and trees live in a temporary folder, removed in the background at the end.
// Parts that need ../shared or nginx are skipped with the reason. The default run takes about 4
// minutes on 2 cores; --scale 10 adds about 6.
//
// Options: --scale 1|10|100 (or DTS_BENCH_SCALE), --only build,slice,scale,serve,incremental,v1,deploy,
// --duration <s> (per load run, default 5), --connections <n> (default 32), --keep (keep the
// temporary folder), --results <file>. DTS_BENCH_SHARED points at another corpora folder.

import { type ChildProcess, fork, spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { Agent, get as httpGet } from "node:http";
import { createServer } from "node:net";
import { cpus, freemem, release, tmpdir, totalmem } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { type GenReport, generateCorpus } from "./gen.js";
import { listTree, type TreeListing } from "./write-baseline.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const PROJECT = resolve(HERE, "../..");
const DTS = join(PROJECT, "bin/dts.js");
const WRITE_BASELINE = join(HERE, "write-baseline.js");
const RUSAGE = join(HERE, "rusage.js");
/** The shared corpora (DTS_BENCH_SHARED overrides, e.g. to try the run of a fresh clone). */
const SHARED = resolve(PROJECT, process.env.DTS_BENCH_SHARED ?? "../shared/corpora");
const LATIN = join(SHARED, "latinLit");
const SLICE_GROUPS = "phi0119 phi0448 phi0472 phi0588 phi0660 phi0690 phi0893 phi0959 phi1017 phi1242 stoa0045 phi2331".split(" ");
/** latinLit as `dts build` counts it: documents with text and passages. */
const LATIN_DOCS_WITH_TEXT = 454;
const LATIN_PASSAGES = 311_551;
const TIME = "/usr/bin/time";
/**
 * The trees served are built for a public URL, as a deployment behind nginx is: nginx sends the
 * stored JSON-LD as it is, so its context must be absolute in it for both servers to send the same
 * bytes (without one, `dts serve` writes each request's origin in).
 */
const SITE_URL = ["--site-url", "http://bench.example"];
const MB = 1e6;

// ---------------------------------------------------------------------------------------------
// Options.

interface Options {
  scale: number;
  only: Set<string> | null;
  duration: number;
  /** The mixed load on the largest synthetic tree (issue 14: 60 s). */
  mixedDuration: number;
  connections: number;
  keep: boolean;
  results: string;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    scale: Number(process.env.DTS_BENCH_SCALE ?? 1),
    only: null,
    duration: 5,
    mixedDuration: 60,
    connections: 32,
    keep: false,
    results: join(PROJECT, ".bench/results.json"),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--scale") o.scale = Number(value());
    else if (a === "--only") o.only = new Set(value().split(","));
    else if (a === "--duration") o.duration = Number(value());
    else if (a === "--mixed-duration") o.mixedDuration = Number(value());
    else if (a === "--connections") o.connections = Number(value());
    else if (a === "--keep") o.keep = true;
    else if (a === "--results") o.results = resolve(value());
    else if (a === "--help" || a === "-h") {
      console.log(
        "usage: npm run bench -- [--scale 1|10|100] [--only build,slice,scale,serve,incremental,v1,deploy] [--duration s] [--mixed-duration s] [--connections n] [--keep] [--results file]",
      );
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  if (![1, 10, 100].includes(o.scale)) throw new Error(`--scale must be 1, 10 or 100, not ${o.scale}`);
  if (!(o.duration > 0) || !(o.mixedDuration > 0) || !(o.connections > 0))
    throw new Error("--duration, --mixed-duration and --connections must be positive");
  return o;
}

// ---------------------------------------------------------------------------------------------
// Results.

interface Row {
  part: string;
  measure: string;
  value: string;
  target: string;
  /** true/false against the target; null when there is no target (a figure, or skipped). */
  pass: boolean | null;
}

const rows: Row[] = [];
const skipped: { part: string; reason: string }[] = [];
const data: Record<string, unknown> = {};
const startedAt = performance.now();

function row(part: string, measure: string, value: string, target = "", pass: boolean | null = null): void {
  rows.push({ part, measure, value, target, pass });
}

function skip(part: string, what: string, reason: string): void {
  skipped.push({ part, reason: `${what}: ${reason}` });
  rows.push({ part, measure: what, value: `skipped (${reason})`, target: "", pass: null });
  log(`${what}: skipped (${reason})`);
}

function log(message: string): void {
  const s = Math.round((performance.now() - startedAt) / 1000);
  process.stderr.write(`[bench ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}] ${message}\n`);
}

const secs = (s: number): string => (s >= 100 ? s.toFixed(0) : s >= 10 ? s.toFixed(1) : s.toFixed(2)) + " s";
const mb = (bytes: number): string => `${(bytes / MB).toFixed(bytes >= 100 * MB ? 0 : 1)} MB`;
const num = (n: number): string => Math.round(n).toLocaleString("en-US");
const ratio = (x: number): string => `${x >= 10 ? x.toFixed(1) : x.toFixed(2)}x`;
const ms = (x: number): string => `${x >= 10 ? x.toFixed(0) : x.toFixed(1)} ms`;
const size = (bytes: number): string => (bytes >= MB ? mb(bytes) : bytes >= 1000 ? `${(bytes / 1000).toFixed(1)} kB` : `${bytes} B`);

// ---------------------------------------------------------------------------------------------
// Child processes, measured with /usr/bin/time -v (or bench/rusage.js where it is absent).

interface Usage {
  wall: number;
  user: number;
  sys: number;
  cpu: number;
  maxRss: number;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  usage: Usage;
  timedOut: boolean;
}

const children = new Set<ChildProcess>();
let work = "";
let counter = 0;
const HAS_TIME = existsSync(TIME) && !process.env.DTS_BENCH_NO_TIME;

function parseGnuTime(text: string, fallbackWall: number): Usage {
  const get = (re: RegExp): number => Number(re.exec(text)?.[1] ?? NaN);
  const elapsed = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(text)?.[1];
  const wall = elapsed ? elapsed.split(":").reduce((acc, part) => acc * 60 + Number(part), 0) : fallbackWall;
  const user = get(/User time \(seconds\): ([\d.]+)/);
  const sys = get(/System time \(seconds\): ([\d.]+)/);
  return { wall, user, sys, cpu: user + sys, maxRss: get(/Maximum resident set size \(kbytes\): (\d+)/) * 1024 };
}

function runMeasured(script: string, args: string[], timeoutSeconds: number, env: Record<string, string> = {}): Promise<Run> {
  const usageFile = join(work, `usage-${++counter}`);
  const [cmd, argv] = HAS_TIME
    ? [TIME, ["-v", "-o", usageFile, process.execPath, script, ...args]]
    : [process.execPath, [RUSAGE, usageFile, script, ...args]];
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(cmd, argv, { cwd: PROJECT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    children.add(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on("data", (b: Buffer) => out.push(b));
    child.stderr!.on("data", (b: Buffer) => err.push(b));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutSeconds * 1000);
    child.on("close", (status) => {
      clearTimeout(timer);
      children.delete(child);
      const wall = (performance.now() - started) / 1000;
      let usage: Usage = { wall, user: NaN, sys: NaN, cpu: NaN, maxRss: NaN };
      try {
        const text = readFileSync(usageFile, "utf8");
        if (HAS_TIME) usage = parseGnuTime(text, wall);
        else {
          const u = JSON.parse(text) as { user: number; sys: number; maxRss: number };
          usage = { wall, user: u.user, sys: u.sys, cpu: u.user + u.sys, maxRss: u.maxRss };
        }
      } catch {
        // killed before the usage was written: wall time only
      }
      rmSync(usageFile, { force: true });
      done({ status, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), usage, timedOut });
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

interface BuildJson {
  documents: number;
  withoutText: number;
  passages: number;
  files: number;
  bytes: number;
  warnings: unknown[];
  seconds: number;
  reused?: number;
  incremental?: boolean;
  staticSite?: { files: number; bytes: number };
}

interface BuildRun {
  run: Run;
  report: BuildJson | null;
  error: string | null;
}

async function dtsBuild(corpus: string, out: string, timeoutSeconds: number, extra: string[] = []): Promise<BuildRun> {
  const run = await runMeasured(DTS, ["build", "--corpus", corpus, "--out", out, "--json", ...extra], timeoutSeconds);
  if (run.timedOut) return { run, report: null, error: `timed out after ${timeoutSeconds} s` };
  if (run.status !== 0) return { run, report: null, error: `exit ${run.status}: ${run.stderr.trim().split("\n").slice(-3).join(" ")}` };
  try {
    return { run, report: JSON.parse(run.stdout) as BuildJson, error: null };
  } catch {
    return { run, report: null, error: "the build did not print a JSON report" };
  }
}

const usageText = (u: Usage): string =>
  `${secs(u.wall)} wall, ${secs(u.cpu)} CPU (${u.user.toFixed(1)} user + ${u.sys.toFixed(1)} sys), ${mb(u.maxRss)} peak RSS`;

// ---------------------------------------------------------------------------------------------
// The write-only baseline.

interface BaselineResult {
  listing: TreeListing;
  run: Run;
  loopSeconds: number;
}

/**
 * Lists `tree` (not timed), then times writing the same files into a new folder beside it. The
 * tree is not removed first: on an ext4 file system without a journal (this machine's), creating
 * files in the minute or more after a mass deletion scans the recently deleted inodes
 * (`recently_deleted` in the kernel's inode allocator), which made the baseline 3 to 5 times
 * slower. For the same reason nothing is removed until the run ends (see `cleanup`).
 */
async function writeBaseline(tree: string, label: string, timeoutSeconds: number): Promise<BaselineResult | string> {
  const list = join(work, `${label}.list`);
  const listing = listTree(tree, list);
  const dest = join(work, `${label}-baseline`);
  const run = await runMeasured(WRITE_BASELINE, ["write", "--list", list, "--out", dest], timeoutSeconds);
  if (run.timedOut) return `timed out after ${timeoutSeconds} s`;
  if (run.status !== 0) return `exit ${run.status}: ${run.stderr.trim()}`;
  const result = JSON.parse(run.stdout) as { files: number; bytes: number; seconds: number };
  if (result.files !== listing.files || result.bytes !== listing.bytes) return "the baseline wrote a different tree";
  return { listing, run, loopSeconds: result.seconds };
}

// The temporary folder holds millions of files at the end of a run; removing them takes minutes,
// so a shell removes them in the background after the results are written, and records when it
// is done in CLEANUP_MARK. A new run waits for that removal to finish and for the deleted inodes
// to age (see writeBaseline), so it does not measure the previous run's clean-up.
const CLEANUP_MARK = join(tmpdir(), "dts-bench-cleanup");
const SETTLE_SECONDS = 90;

/** Seconds spent waiting for a previous run's clean-up (not part of the measurements). */
let waited = 0;

async function waitForPreviousCleanup(): Promise<void> {
  const started = performance.now();
  try {
    await waitForCleanupMark();
  } finally {
    waited = (performance.now() - started) / 1000;
  }
}

async function waitForCleanupMark(): Promise<void> {
  let text: string;
  try {
    text = readFileSync(CLEANUP_MARK, "utf8").trim();
  } catch {
    return;
  }
  const running = /^running (\d+)/.exec(text);
  if (running) {
    const pid = Number(running[1]);
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (alive()) log(`waiting for the previous run's clean-up (pid ${pid}) to finish (at most 20 minutes)`);
    for (let i = 0; i < 1200 && alive(); i++) await new Promise((r) => setTimeout(r, 1000));
    if (alive()) {
      row(
        "0 warning",
        "previous run's clean-up",
        `still removing files after 20 minutes (pid ${pid}): every figure below is disturbed by it`,
      );
      return;
    }
    text = readFileSync(CLEANUP_MARK, "utf8").trim();
  }
  const done = /^done (\d+)/.exec(text);
  const age = done ? Date.now() / 1000 - Number(done[1]) : Infinity;
  if (age < SETTLE_SECONDS) {
    log(`waiting ${Math.ceil(SETTLE_SECONDS - age)} s after the previous run's clean-up, for the file system to settle`);
    await new Promise((r) => setTimeout(r, (SETTLE_SECONDS - age) * 1000));
  }
}

function removeInBackground(dir: string): number | undefined {
  const child = spawn("sh", ["-c", 'rm -rf "$1"; echo "done $(date +%s)" > "$2"', "sh", dir, CLEANUP_MARK], {
    detached: true,
    stdio: "ignore",
  });
  child.unref();
  if (child.pid) writeFileSync(CLEANUP_MARK, `running ${child.pid}\n`);
  return child.pid;
}

// ---------------------------------------------------------------------------------------------
// Corpora staged in the temporary folder: mirrors with real folders and symbolic links to the
// files (the corpus loader follows linked files, not linked folders), so one file can be changed
// without touching ../shared.

function mirror(source: string, target: string, filter?: (name: string, depth: number) => boolean, depth = 0): number {
  mkdirSync(target, { recursive: true });
  let files = 0;
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    if (filter && !filter(entry.name, depth)) continue;
    const from = join(source, entry.name);
    const to = join(target, entry.name);
    if (entry.isDirectory()) files += mirror(from, to, filter, depth + 1);
    else if (entry.isFile()) {
      symlinkSync(from, to);
      files++;
    }
  }
  return files;
}

/** Replaces a link of a mirror by a copy of its file, so changing it never reaches ../shared. */
function materialize(file: string): void {
  if (!lstatSync(file).isSymbolicLink()) return;
  const bytes = readFileSync(file);
  rmSync(file);
  writeFileSync(file, bytes);
}

// ---------------------------------------------------------------------------------------------
// Part 1: builds of latinLit and of its slice against the write-only baseline. Part 4's rebuilds
// and the serving benchmark (part 3) use the latinLit tree before it is removed for the baseline.

interface LatinState {
  corpus: string;
  tree: string;
  full: BuildRun;
}

async function buildPart(
  label: string,
  corpus: string,
  tree: string,
  options: { targets: boolean; extra: string[] },
): Promise<BuildRun | null> {
  log(`${label}: full build`);
  const full = await dtsBuild(corpus, tree, 600, options.extra);
  data[`build ${label}`] = { usage: full.run.usage, report: full.report && { ...full.report, warnings: full.report.warnings.length } };
  if (!full.report) {
    row("1 build", `${label}: full build`, `failed (${full.error})`, options.targets ? "< 60 s" : "", options.targets ? false : null);
    return null;
  }
  const u = full.run.usage;
  const r = full.report;
  row(
    "1 build",
    `${label}: output`,
    `${num(r.documents)} documents (${r.withoutText} without text), ${num(r.passages)} passages, ${num(r.warnings.length)} warnings; ${num(r.files)} files, ${mb(r.bytes)}`,
  );
  row("1 build", `${label}: full build wall`, secs(u.wall), options.targets ? "< 60 s" : "", options.targets ? u.wall < 60 : null);
  row(
    "1 build",
    `${label}: CPU (user + sys)`,
    `${secs(u.cpu)} (${u.user.toFixed(1)} + ${u.sys.toFixed(1)}), ${(u.cpu / u.wall).toFixed(2)} cores`,
  );
  row("1 build", `${label}: peak RSS`, mb(u.maxRss), options.targets ? "<= 300 MB" : "", options.targets ? u.maxRss <= 300 * MB : null);
  return full;
}

async function baselinePart(label: string, tree: string, full: BuildRun, targets: boolean): Promise<void> {
  log(`${label}: write-only baseline`);
  const base = await writeBaseline(tree, label.replace(/\W+/g, "-"), 600);
  if (typeof base === "string") {
    skip("1 build", `${label}: write-only baseline`, base);
    return;
  }
  data[`baseline ${label}`] = { usage: base.run.usage, loopSeconds: base.loopSeconds, listing: base.listing };
  const r = full.run.usage.wall / base.run.usage.wall;
  row(
    "1 build",
    `${label}: write-only baseline`,
    `${secs(base.run.usage.wall)} wall, ${secs(base.run.usage.cpu)} CPU (${num(base.listing.files)} files, ${mb(base.listing.bytes)}, ${num(base.listing.dirs)} folders)`,
  );
  row("1 build", `${label}: build / baseline (wall)`, ratio(r), targets ? "<= 1.3x" : "", targets ? r <= 1.3 : null);
}

async function latinLit(): Promise<LatinState | null> {
  if (!existsSync(LATIN)) {
    skip("1 build", "latinLit", `${LATIN} is absent (a fresh clone without ../shared)`);
    return null;
  }
  const corpus = join(work, "latinLit");
  mirror(LATIN, corpus);
  const tree = join(work, "latinLit-tree");
  const full = await buildPart("latinLit", corpus, tree, { targets: true, extra: SITE_URL });
  return full ? { corpus, tree, full } : null;
}

async function slice(): Promise<void> {
  if (!existsSync(LATIN)) {
    skip("1 build", "latinLit slice", `${LATIN} is absent`);
    return;
  }
  const corpus = join(work, "slice");
  const files = mirror(LATIN, corpus, (name, depth) => depth !== 1 || SLICE_GROUPS.includes(name));
  const tree = join(work, "slice-tree");
  const teiFiles = spawnSync("find", [join(corpus, "data"), "-name", "*.xml", "!", "-name", "__cts__.xml"], { encoding: "utf8" })
    .stdout.trim()
    .split("\n").length;
  log(`slice: ${SLICE_GROUPS.length} textgroups, ${teiFiles} TEI files (${files} files)`);
  const label = `slice (${teiFiles} TEI files)`;
  const full = await buildPart(label, corpus, tree, { targets: false, extra: [] });
  if (full) await baselinePart(label, tree, full, false);
}

// ---------------------------------------------------------------------------------------------
// Part 2: synthetic corpora at growing scale.

interface ScaleRun {
  scale: number;
  gen: GenReport;
  build: BuildRun;
}

async function scalePart(options: Options): Promise<void> {
  const scales = [0.1, 1, 10, 100].filter((s) => s <= options.scale);
  const done: ScaleRun[] = [];
  for (const scale of scales) {
    const docs = Math.max(1, Math.round(LATIN_DOCS_WITH_TEXT * scale));
    const passages = Math.round(LATIN_PASSAGES * scale);
    const name = `synthetic ${scale}x`;
    // About 0.2 kB of corpus and 2.6 kB of packed tree on disk per passage (1x: 55 MB and 790 MB).
    const need = passages * 4_000;
    const free = diskFree(work);
    if (free < need * 1.2) {
      skip("2 scale", name, `needs about ${(need / 1e9).toFixed(0)} GB free in ${tmpdir()}, has ${(free / 1e9).toFixed(0)} GB`);
      continue;
    }
    const corpus = join(work, `synthetic-${scale}`);
    log(`${name}: generating ${num(docs)} documents, ${num(passages)} passages`);
    const gen = generateCorpus({ docs, passages, out: corpus, seed: 1 });
    log(`${name}: generated ${mb(gen.teiBytes)} of TEI in ${secs(gen.seconds)}; building`);
    const tree = join(work, `synthetic-${scale}-tree`);
    const build = await dtsBuild(corpus, tree, Math.max(300, 600 * scale));
    data[`build ${name}`] = {
      gen,
      usage: build.run.usage,
      report: build.report && { ...build.report, warnings: build.report.warnings.length },
    };
    const what = `${name}: ${num(docs)} docs, ${num(passages)} passages, ${mb(gen.teiBytes)} TEI, largest ${num(gen.largest.passages)} passages / ${mb(gen.largest.bytes)}`;
    if (!build.report) {
      row("2 scale", what, `build failed (${build.error})`);
      continue;
    }
    const u = build.run.usage;
    if (build.report.passages !== passages || build.report.documents !== docs || build.report.warnings.length) {
      row(
        "2 scale",
        `${name}: corpus check`,
        `built ${build.report.documents} documents, ${build.report.passages} passages, ${build.report.warnings.length} warnings`,
        `${docs}, ${passages}, 0`,
        false,
      );
    }
    row(
      "2 scale",
      what,
      `${usageText(u)}; ${num(passages / u.wall)} passages/s; ${num(build.report.files)} files, ${mb(build.report.bytes)}`,
    );
    done.push({ scale, gen, build });
  }
  for (let i = 1; i < done.length; i++) {
    const a = done[i - 1];
    const b = done[i];
    const k = b.scale / a.scale;
    const t = b.build.run.usage.wall / a.build.run.usage.wall;
    row("2 scale", `time ${a.scale}x -> ${b.scale}x (corpus ${k}x)`, ratio(t), `<= ${(k * 1.1).toFixed(0)}x`, t <= k * 1.1);
    const m = b.build.run.usage.maxRss / a.build.run.usage.maxRss;
    row(
      "2 scale",
      `peak RSS ${a.scale}x -> ${b.scale}x (largest document ${num(a.gen.largest.passages)} -> ${num(b.gen.largest.passages)} passages)`,
      `${ratio(m)} (${mb(a.build.run.usage.maxRss)} -> ${mb(b.build.run.usage.maxRss)})`,
      "<= 1.10x (bounded by the largest document)",
      m <= 1.1,
    );
  }
  if (options.scale < 10)
    skip("2 scale", "synthetic 10x and 100x", "opt-in: npm run bench -- --scale 10 (or 100); about 10 and 100 minutes");
  const largest = done.at(-1);
  if (largest) await mixedServe(options, `synthetic ${largest.scale}x`, join(work, `synthetic-${largest.scale}-tree`));
}

// dts serve on the largest synthetic tree (issue 14, goal 2): how soon it answers, and its memory
// under a load of many distinct answers (collections, navigation, passages, ranges, whole
// documents), not the few a cache would hold.

const MIXED_DOCUMENTS = 400;
const PASSAGES_PER_DOCUMENT = 20;

async function mixedServe(options: Options, label: string, tree: string): Promise<void> {
  const started = performance.now();
  const server = await startDts(tree, null, null);
  try {
    const root = await get(`${server.url}/api/dts/collection`);
    const startup = (performance.now() - started) / 1000;
    row("2 scale", `dts serve on the ${label} tree: start to first answer`, secs(startup), "< 2 s", root.status === 200 && startup < 2);
    log(`dts serve on the ${label} tree: gathering URLs`);
    const paths = await mixedPaths(server.url);
    const rss = (): number => {
      try {
        return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
      } catch {
        return 0;
      }
    };
    if (!rss()) {
      skip("2 scale", `dts serve on the ${label} tree: RSS under a mixed load`, "no /proc/<pid>/status to read it from");
      return;
    }
    log(`dts serve on the ${label} tree: ${options.mixedDuration} s of load over ${num(paths.all.length)} URLs`);
    let peak = rss();
    const timer = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 100);
    let next = 0;
    const r = await autocannon({
      url: server.url,
      connections: options.connections,
      duration: options.mixedDuration,
      requests: [{ setupRequest: (req) => ({ ...req, path: paths.all[next++ % paths.all.length] }) }],
    });
    clearInterval(timer);
    const kinds = Object.entries(paths.counts)
      .map(([k, n]) => `${num(n)} ${k}`)
      .join(", ");
    row(
      "2 scale",
      `dts serve on the ${label} tree: peak RSS under ${secs(options.mixedDuration)} of mixed load (${kinds})`,
      `${mb(peak)}; ${num(r.requests.average)} req/s${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ""}`,
      "< 200 MB",
      peak < 200 * MB && r.non2xx === 0 && r.errors === 0,
    );
  } finally {
    await server.stop();
  }
}

/** Distinct URLs of a tree: its collections, and of up to MIXED_DOCUMENTS documents their navigation, passages, a range and the whole. */
async function mixedPaths(url: string): Promise<{ all: string[]; counts: Record<string, number> }> {
  const api = "/api/dts";
  const q = encodeURIComponent;
  const groups: Record<string, string[]> = { collections: [], navigation: [], passages: [], ranges: [], documents: [] };
  const queue: string[] = [""];
  const documents: string[] = [];
  while (queue.length && documents.length < MIXED_DOCUMENTS) {
    const id = queue.shift()!;
    const path = `${api}/collection${id ? `?id=${q(id)}` : ""}`;
    groups.collections.push(path);
    const c = await getJson<{ member?: { "@id": string; "@type": string }[] }>(url + path);
    for (const m of c.member ?? []) (m["@type"] === "Resource" ? documents : queue).push(m["@id"]);
  }
  for (const id of documents.slice(0, MIXED_DOCUMENTS)) {
    const nav = await get(`${url}${api}/navigation?id=${q(id)}&down=max`);
    if (nav.status !== 200) continue;
    const refs = (JSON.parse(nav.body.toString()) as { member: { ref: string }[] }).member.map((m) => m.ref);
    groups.navigation.push(`${api}/navigation?id=${q(id)}`);
    const step = Math.max(1, Math.floor(refs.length / PASSAGES_PER_DOCUMENT));
    for (let i = 0; i < refs.length; i += step) groups.passages.push(`${api}/document?id=${q(id)}&ref=${q(refs[i])}`);
    if (refs.length > 3) groups.ranges.push(`${api}/document?id=${q(id)}&start=${q(refs[0])}&end=${q(refs[3])}`);
    groups.documents.push(`${api}/document?id=${q(id)}`);
  }
  // Interleaved, so that every stretch of the load asks for every kind.
  const all = Object.values(groups).flat();
  for (let i = all.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return { all, counts: Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v.length])) };
}

function diskFree(path: string): number {
  try {
    const s = statfsSync(path);
    return s.bavail * s.bsize;
  } catch {
    return Infinity;
  }
}

// ---------------------------------------------------------------------------------------------
// Part 3: serving.

interface Server {
  url: string;
  stop(): Promise<void>;
  /** The server's process, when it is one of ours. */
  pid?: number;
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const timer = setTimeout(() => killGroup(child), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      done();
    });
    killGroup(child, signal);
  });
}

async function startDts(tree: string, corpus: string | null, token: string | null, port?: number): Promise<Server> {
  const args = [DTS, "serve", "--dist", tree, "--port", String(port ?? (await freePort()))];
  if (corpus) args.push("--corpus", corpus);
  const env = { ...process.env };
  if (token) env.DTS_TOKEN = token;
  const child = spawn(process.execPath, args, { cwd: PROJECT, detached: true, stdio: ["ignore", "pipe", "pipe"], env });
  children.add(child);
  child.on("exit", () => children.delete(child));
  let text = "";
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`dts serve did not start: ${text}`)), 15_000);
    const onData = (b: Buffer): void => {
      text += b.toString();
      const m = /(https?:\/\/[^\s/]+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        done(m[1]);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (b: Buffer) => (text += b.toString()));
    child.on("exit", (code) => fail(new Error(`dts serve exited (${code}): ${text}`)));
  });
  return { url, stop: () => stopChild(child), pid: child.pid };
}

interface Site {
  basePath: string;
  pageSize: number;
}

interface Sample {
  kind: string;
  label: string;
  path: string;
  bytes: number;
  stored: boolean;
}

async function get(url: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const r = await fetch(url);
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()), headers: r.headers };
}

async function getJson<T>(url: string): Promise<T> {
  const r = await get(url);
  if (r.status !== 200) throw new Error(`GET ${url}: ${r.status}`);
  return JSON.parse(r.body.toString()) as T;
}

interface Member {
  "@id": string;
  "@type": string;
}

/** Finds a document with a top-level passage of at least 3 children, walking the collections. */
async function pickSamples(origin: string, site: Site, preferred: string[]): Promise<Sample[]> {
  const api = origin + site.basePath;
  const q = (s: string): string => encodeURIComponent(s);
  const candidates: string[] = [...preferred];
  const queue: string[] = [""];
  let requests = 0;
  while (queue.length && candidates.length < preferred.length + 20 && requests < 200) {
    const id = queue.shift()!;
    requests++;
    const c = await getJson<{ member?: Member[] }>(`${api}/collection${id ? `?id=${q(id)}` : ""}`);
    for (const m of c.member ?? []) (m["@type"] === "Resource" ? candidates : queue).push(m["@id"]);
  }
  for (const doc of candidates) {
    const nav = await get(`${api}/navigation?id=${q(doc)}`);
    if (nav.status !== 200) continue;
    const tops = (JSON.parse(nav.body.toString()) as { member: { ref: string }[] }).member;
    for (let i = Math.floor(tops.length / 2); i < tops.length; i++) {
      const ref = tops[i].ref;
      const children = (await getJson<{ member: { ref: string }[] }>(`${api}/navigation?id=${q(doc)}&ref=${q(ref)}`)).member;
      if (children.length < 3) continue;
      const paths: [string, string, string][] = [
        ["document", `whole document ${doc}`, `/document?id=${q(doc)}`],
        ["passage", `passage ${children[0].ref} (deepest level)`, `/document?id=${q(doc)}&ref=${q(children[0].ref)}`],
        ["container", `passage ${ref} (${children.length} units)`, `/document?id=${q(doc)}&ref=${q(ref)}`],
        [
          "range",
          `range ${children[0].ref}-${children[children.length - 1].ref} (the same ${children.length} units)`,
          `/document?id=${q(doc)}&start=${q(children[0].ref)}&end=${q(children[children.length - 1].ref)}`,
        ],
        ["collection", "root collection page", `/collection`],
      ];
      const samples: Sample[] = [];
      for (const [kind, label, path] of paths) {
        const r = await get(api + path);
        if (r.status !== 200) throw new Error(`GET ${path}: ${r.status}`);
        samples.push({ kind, label, path: site.basePath + path, bytes: r.body.length, stored: r.headers.has("etag") });
      }
      return samples;
    }
  }
  throw new Error("no document with a passage of 3 or more units");
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Runs of each serving measure, alternating dts serve and nginx (issue 14: three, the median ratio). */
const SERVE_RUNS = 3;
/** dts serve / nginx req/s to reach, by kind of answer (stored ones; ranges are computed). */
const SERVE_TARGETS: Record<string, number> = { passage: 0.6, container: 0.6, document: 0.8, collection: 0.8 };

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The element whose key is the median (the lower middle of an even count). */
function medianBy<T>(xs: T[], key: (x: T) => number): T {
  const s = [...xs].sort((a, b) => key(a) - key(b));
  return s[Math.floor((s.length - 1) / 2)];
}

async function load(url: string, options: Options): Promise<Load> {
  await autocannon({ url, connections: options.connections, duration: 1 }); // warm-up: JIT, caches
  const r = await autocannon({ url, connections: options.connections, duration: options.duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

const loadText = (l: Load): string =>
  `${num(l.rps)} req/s, p50 ${ms(l.p50)}, p99 ${ms(l.p99)}${l.errors || l.non2xx ? ` (${l.errors} errors, ${l.non2xx} non-2xx)` : ""}`;

interface Latency {
  n: number;
  p50: number;
  p99: number;
}

/**
 * Service time of two requests on one keep-alive connection each, alternating A and B so that
 * both see the same machine: autocannon's latencies are whole milliseconds, too coarse here.
 */
async function pairedLatency(a: string, b: string, seconds: number): Promise<[Latency, Latency]> {
  const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];
  const once = (url: string, agent: Agent): Promise<number> =>
    new Promise((done, fail) => {
      const t0 = performance.now();
      httpGet(url, { agent }, (res) => {
        res.on("data", () => undefined);
        res.on("end", () => (res.statusCode === 200 ? done(performance.now() - t0) : fail(new Error(`GET ${url}: ${res.statusCode}`))));
        res.on("error", fail);
      }).on("error", fail);
    });
  const times: [number[], number[]] = [[], []];
  const urls = [a, b];
  for (let i = 0; i < 200; i++) for (const k of [0, 1]) await once(urls[k], agents[k]); // warm-up
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) for (const k of [0, 1]) times[k].push(await once(urls[k], agents[k]));
  for (const agent of agents) agent.destroy();
  const stats = (t: number[]): Latency => {
    const sorted = [...t].sort((x, y) => x - y);
    return { n: t.length, p50: sorted[Math.floor(sorted.length * 0.5)], p99: sorted[Math.floor(sorted.length * 0.99)] };
  };
  return [stats(times[0]), stats(times[1])];
}

// nginx with the rules `dts build --target nginx` writes (dist/_hosts/nginx), and `dts serve` as its
// upstream for what the tree does not hold, set up as test/nginx.test.ts does.

interface Nginx extends Server {
  /** Seconds nginx took to load the rules and answer. */
  startup: number;
  /** The same nginx serving plain files from `staticRoot` (a baseline: the bytes, no lookup). */
  staticUrl: string;
  staticRoot: string;
}

/** nginx's JavaScript module, which the generated rules need (Debian: libnginx-mod-http-js). */
const NJS_MODULE = "/usr/lib/nginx/modules/ngx_http_js_module.so";

function nginxAvailable(): string | null {
  const r = spawnSync("nginx", ["-v"], { encoding: "utf8" });
  if (r.status !== 0) return "nginx is not installed (apt-get install nginx-light)";
  return existsSync(NJS_MODULE) ? null : "nginx's JavaScript module is not installed (apt-get install libnginx-mod-http-js)";
}

async function startNginx(tree: string, upstream: string): Promise<Nginx> {
  const rules = join(tree, "_hosts/nginx");
  for (const f of ["dts-http.conf", "dts-locations.conf"]) {
    if (!existsSync(join(rules, f))) throw new Error(`the tree has no ${join("_hosts/nginx", f)}`);
  }
  const dir = join(work, "nginx");
  mkdirSync(join(dir, "tmp"), { recursive: true });
  const staticRoot = join(dir, "static");
  mkdirSync(staticRoot, { recursive: true });
  const port = await freePort();
  const staticPort = await freePort();
  const conf = join(dir, "nginx.conf");
  const temp = (name: string): string => `${name}_temp_path ${join(dir, "tmp", name)};`;
  writeFileSync(
    conf,
    `${existsSync(NJS_MODULE) ? `load_module ${NJS_MODULE};` : ""}
daemon off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
${process.getuid?.() === 0 ? "user root root;" : ""}
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n    ")}
    upstream dts_dynamic { server ${new URL(upstream).host}; keepalive 64; }
    include ${join(rules, "dts-http.conf")};
    server {
        listen 127.0.0.1:${port};
        include ${join(rules, "dts-locations.conf")};
    }
    server {
        listen 127.0.0.1:${staticPort};
        root ${staticRoot};
        default_type application/octet-stream;
    }
}
`,
  );
  const started = performance.now();
  const child = spawn("nginx", ["-p", dir + "/", "-c", conf, "-e", join(dir, "error.log")], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.add(child);
  let stderr = "";
  child.stderr!.on("data", (b: Buffer) => (stderr += b.toString()));
  child.on("exit", () => children.delete(child));
  // The rules hold no per-response entries: nginx starts at once whatever the corpus.
  for (let i = 0; i < 1200 && child.exitCode === null; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/__ready`);
      return {
        url: `http://127.0.0.1:${port}`,
        staticUrl: `http://127.0.0.1:${staticPort}`,
        staticRoot,
        startup: (performance.now() - started) / 1000,
        stop: () => stopChild(child, "SIGQUIT"),
      };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stopChild(child);
  const log = existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : "";
  throw new Error(`nginx did not start: ${(stderr + log).trim().split("\n").slice(-2).join(" ")}`);
}

/**
 * `dts serve` (and nginx with the generated rules when it can run) on `tree`. `rules` builds the
 * rules into the tree when nginx is to run; null when they cannot be had (the reason is given).
 */
async function servePart(
  options: Options,
  tree: string,
  corpusLabel: string,
  preferred: string[],
  rules: (() => Promise<string | null>) | string,
): Promise<void> {
  const site = JSON.parse(readFileSync(join(tree, "_site.json"), "utf8")) as Site;
  // The rules first: building them rewrites no response, but does write into the tree.
  let noNginx: string | null = typeof rules === "string" ? rules : await rules();
  log(`serve: dts serve on the ${corpusLabel} tree`);
  const dts = await startDts(tree, null, null);
  let nginx: Nginx | null = null;
  try {
    const samples = await pickSamples(dts.url, site, preferred);
    data.serveSamples = samples;
    if (!noNginx) {
      try {
        log("serve: starting nginx with the generated rules");
        nginx = await startNginx(tree, dts.url);
        // The same bytes, or no comparison.
        for (const s of samples) {
          const a = await get(dts.url + s.path);
          const b = await get(nginx.url + s.path);
          if (b.status !== a.status || !a.body.equals(b.body))
            throw new Error(`nginx answered ${s.path} with ${b.status} and other bytes than dts serve`);
        }
      } catch (e) {
        noNginx = e instanceof Error ? e.message : String(e);
        await nginx?.stop();
        nginx = null;
      }
    }
    if (nginx)
      row("3 serve", "nginx", `generated rules (_hosts/nginx), 1 worker process, dts serve as upstream; ready in ${secs(nginx.startup)}`);
    else skip("3 serve", "nginx", noNginx ?? "not started");
    row(
      "3 serve",
      "load",
      `autocannon, ${options.connections} connections, ${options.duration} s per run after 1 s warm-up, loopback, ${cpus().length} cores shared by client and servers`,
    );

    const results: Record<string, { dts: Load; nginx?: Load; staticNginx?: Load; ratios?: number[] }> = {};
    for (const s of samples) {
      log(`serve: ${s.label}`);
      // Alternating runs, the ratio of each pair, their median: the machine's noise hits both.
      const runs: { d: Load; n?: Load }[] = [];
      for (let i = 0; i < (nginx ? SERVE_RUNS : 1); i++) {
        const d = await load(dts.url + s.path, options);
        runs.push({ d, n: nginx ? await load(nginx.url + s.path, options) : undefined });
      }
      const d = medianBy(
        runs.map((r) => r.d),
        (l) => l.rps,
      );
      const n = nginx
        ? medianBy(
            runs.map((r) => r.n!),
            (l) => l.rps,
          )
        : undefined;
      const ratios = nginx ? runs.map((r) => r.d.rps / r.n!.rps) : undefined;
      // The baseline: the same bytes as a plain file, sent by the same nginx with no lookup.
      let plain: Load | undefined;
      if (nginx) {
        writeFileSync(join(nginx.staticRoot, `${s.kind}.bin`), (await get(dts.url + s.path)).body);
        plain = await load(`${nginx.staticUrl}/${s.kind}.bin`, options);
      }
      results[s.kind] = { dts: d, nginx: n, staticNginx: plain, ratios };
      const label = `${s.label}, ${size(s.bytes)}${s.stored ? "" : ", computed"}`;
      row("3 serve", `dts serve: ${label}`, loadText(d));
      const target = SERVE_TARGETS[s.kind];
      if (n && ratios) {
        const r = median(ratios);
        const via = s.stored ? "nginx" : "nginx -> dts serve";
        row(
          "3 serve",
          `${via}: ${label}`,
          `${loadText(n)}; dts/nginx ${ratio(r)} (median of ${ratios.map(ratio).join(", ")})`,
          target ? `dts >= ${target}x nginx req/s` : "",
          target ? r >= target : null,
        );
        if (plain) {
          row(
            "3 serve",
            `plain nginx, the same bytes from a file: ${label}`,
            `${loadText(plain)}; dts/plain nginx ${ratio(d.rps / plain.rps)}; nginx rules/plain nginx ${ratio(n.rps / plain.rps)}`,
          );
        }
      } else if (target) {
        row("3 serve", `dts serve / nginx: ${label}`, "not measured (no nginx)", `dts >= ${target}x nginx req/s`, null);
      }
    }
    data.serve = results;

    // A computed range against the stored passage of the same units: service time, one request
    // at a time, and under load.
    const rs = samples.find((s) => s.kind === "range")!;
    const cs = samples.find((s) => s.kind === "container")!;
    log("serve: range and passage latency, one request at a time");
    const [r1, c1] = await pairedLatency(dts.url + rs.path, dts.url + cs.path, Math.min(4, options.duration));
    data.latency = { range: r1, passage: c1 };
    const single = r1.p50 / c1.p50;
    row(
      "3 serve",
      `range / stored passage of the same units (${size(rs.bytes)} vs ${size(cs.bytes)}), latency one at a time`,
      `${ratio(single)} (p50 ${ms(r1.p50)} vs ${ms(c1.p50)}, p99 ${ms(r1.p99)} vs ${ms(c1.p99)}; ${num(r1.n)} requests each)`,
      "<= 2x",
      single <= 2,
    );
    const range = results.range.dts;
    const container = results.container.dts;
    row(
      "3 serve",
      `the same under load (${options.connections} connections)`,
      `p50 ${ms(range.p50)} vs ${ms(container.p50)}, p99 ${ms(range.p99)} vs ${ms(container.p99)}; ${num(range.rps)} vs ${num(container.rps)} req/s`,
    );
  } finally {
    await nginx?.stop();
    await dts.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Part 4: incremental builds and writes.

async function rebuildPart(state: LatinState): Promise<void> {
  log("latinLit: second build, no change");
  // With the settings of the full build: other settings are another tree, rebuilt whole.
  const again = await dtsBuild(state.corpus, state.tree, 600, SITE_URL);
  data["rebuild latinLit no change"] = {
    usage: again.run.usage,
    report: again.report && { ...again.report, warnings: again.report.warnings.length },
  };
  const fullWall = state.full.run.usage.wall;
  if (!again.report) {
    row("4 incremental", "latinLit: second build, no change", `failed (${again.error})`, "< 5% of the full build", false);
    return;
  }
  const share = again.run.usage.wall / fullWall;
  const note =
    again.report.incremental === undefined
      ? ""
      : again.report.incremental
        ? `, incremental, ${again.report.reused ?? "?"} documents reused`
        : ", not incremental";
  row(
    "4 incremental",
    "latinLit: second build, no change",
    `${secs(again.run.usage.wall)} = ${(share * 100).toFixed(1)}% of the full build (${mb(again.run.usage.maxRss)} RSS${note})`,
    "< 5% of the full build",
    share < 0.05,
  );

  if (share > 0.5) {
    skip(
      "4 incremental",
      "latinLit: build after one document changed",
      "the build is not incremental (a no-change rebuild costs as much as a full build)",
    );
    return;
  }
  // Change one line of one mid-size document (a copy replaces the link to ../shared).
  const file = join(state.corpus, "data/phi0472/phi001/phi0472.phi001.perseus-lat2.xml");
  if (!existsSync(file)) {
    skip("4 incremental", "latinLit: build after one document changed", `${file} is absent`);
    return;
  }
  materialize(file);
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.replace("Cui dono lepidum novum libellum", "Cui dono lepidum novum libellum (bench)"));
  log("latinLit: build after one document changed");
  const one = await dtsBuild(state.corpus, state.tree, 600, SITE_URL);
  data["rebuild latinLit one change"] = {
    usage: one.run.usage,
    report: one.report && { ...one.report, warnings: one.report.warnings.length },
  };
  if (!one.report) {
    row("4 incremental", "latinLit: build after one document changed", `failed (${one.error})`);
    return;
  }
  row(
    "4 incremental",
    "latinLit: build after one document changed (Catullus, 290 kB)",
    `${secs(one.run.usage.wall)} = ${((one.run.usage.wall / fullWall) * 100).toFixed(1)}% of the full build`,
  );
}

/** Write-to-visible through the write API: PUT a changed line, then GET it until it shows. */
async function writePart(state: LatinState | null): Promise<void> {
  const token = `bench-${process.pid}-${Date.now()}`;
  let corpus: string;
  let tree: string;
  let doc: string;
  if (state) {
    corpus = state.corpus;
    tree = state.tree;
    doc = "urn:cts:latinLit:phi0472.phi001.perseus-lat2";
    // Writes go to copies: the corpus is a mirror of links to ../shared.
    const file = join(corpus, "data/phi0472/phi001/phi0472.phi001.perseus-lat2.xml");
    if (!existsSync(file)) return skip("4 incremental", "write-to-visible", `${file} is absent`);
    materialize(file);
  } else {
    corpus = join(work, "embedded");
    cpSync(join(PROJECT, "corpus"), corpus, { recursive: true });
    tree = join(work, "embedded-tree");
    const b = await dtsBuild(corpus, tree, 120);
    if (!b.report) return skip("4 incremental", "write-to-visible", `the embedded corpus did not build: ${b.error}`);
    doc = "";
  }
  const site = JSON.parse(readFileSync(join(tree, "_site.json"), "utf8")) as Site;
  let server: Server;
  try {
    server = await startDts(tree, corpus, token);
  } catch (e) {
    return skip("4 incremental", "write-to-visible", `dts serve --corpus did not start: ${e instanceof Error ? e.message : e}`);
  }
  try {
    const api = server.url + site.basePath;
    if (!doc) {
      const samples = await pickSamples(server.url, site, ["urn:cts:latinLit:phi0690.phi003.sample-lat1"]);
      doc = decodeURIComponent(/id=([^&]+)/.exec(samples[0].path)![1]);
    }
    const q = encodeURIComponent;
    const nav = await getJson<{ member: { ref: string }[] }>(`${api}/navigation?id=${q(doc)}&down=max`);
    const refs = nav.member.map((m) => m.ref);
    const times: number[] = [];
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ref = refs[Math.floor(((i + 1) * refs.length) / 7)];
      const url = `${api}/document?id=${q(doc)}&ref=${q(ref)}`;
      const before = (await get(url)).body.toString();
      const marker = `benchmark${i}x${Date.now()}`;
      // The fragment as served, with a word added at the end of the cited element.
      const body = before.replace(/<\/([\w:.-]+)>(\s*<\/(?:dts:)?fragment>)/, ` ${marker}</$1>$2`).replace(/^<\?xml[^>]*\?>\s*/, "");
      const started = performance.now();
      const put = await fetch(url, {
        method: "PUT",
        body,
        headers: { "Content-Type": "application/tei+xml", Authorization: `Bearer ${token}` },
      });
      const answered = performance.now() - started;
      if (put.status >= 300) {
        const reason = (await put.text()).replace(/\s+/g, " ").slice(0, 200);
        return skip(
          "4 incremental",
          "write-to-visible",
          put.status === 405 || put.status === 404 || put.status === 501
            ? `the write API does not exist yet (PUT answered ${put.status})`
            : `PUT answered ${put.status}: ${reason}`,
        );
      }
      let visible = NaN;
      while (performance.now() - started < 30_000) {
        const now = (await get(url)).body.toString();
        if (now.includes(marker)) {
          visible = performance.now() - started;
          break;
        }
      }
      times.push(visible);
      answers.push(answered);
      data[`write ${i}`] = { ref, answered, visible };
    }
    const lost = times.filter((t) => Number.isNaN(t)).length;
    if (lost) {
      row(
        "4 incremental",
        `write-to-visible (PUT one line of ${doc}, then GET until it shows)`,
        `${lost} of 5 writes not visible after 30 s`,
      );
      return;
    }
    const sorted = [...times].sort((a, b) => a - b);
    const put = [...answers].sort((a, b) => a - b);
    row(
      "4 incremental",
      `write-to-visible (PUT one line of ${doc}, then GET until it shows; 5 writes)`,
      `median ${ms(sorted[2])}, max ${ms(sorted[4])} (PUT answered in ${ms(put[2])} median)`,
    );
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Part 6: DTS 1.0 beside 1-draft2, on the slice: what building it costs against the 1-draft2
// build of the same corpus, and serving a stored 1.0 passage against the same 1-draft2 one.

const V1_PASSAGE = { id: "urn:cts:latinLit:phi0448.phi001.perseus-lat2", ref: "1.1.1" };

async function v1Part(options: Options): Promise<void> {
  if (!existsSync(LATIN)) {
    skip("6 dts 1.0", "latinLit slice", `${LATIN} is absent`);
    return;
  }
  const corpus = join(work, "v1-slice");
  mirror(LATIN, corpus, (name, depth) => depth !== 1 || SLICE_GROUPS.includes(name));
  const port = await freePort();
  const siteUrl = `http://127.0.0.1:${port}`;
  const variants: [string, string, string[]][] = [
    ["1-draft2", "v1-draft2", ["--api", "1-draft2"]],
    ["1-draft2 and 1.0", "v1-both", ["--api", "1-draft2,1.0", "--site-url", siteUrl]],
    ["1.0 static profile", "v1-static", ["--api", "1.0", "--static-paths", "--site-url", siteUrl]],
  ];
  let base: BuildRun | null = null;
  for (const [label, folder, extra] of variants) {
    log(`slice: build ${label}`);
    const b = await dtsBuild(corpus, join(work, folder), 900, extra);
    data[`v1 build ${label}`] = { usage: b.run.usage, report: b.report && { ...b.report, warnings: b.report.warnings.length } };
    if (!b.report) {
      row("6 dts 1.0", `slice, ${label}: build`, `failed (${b.error})`);
      continue;
    }
    const size = b.report.staticSite
      ? `; a file server is handed ${num(b.report.staticSite.files)} files, ${mb(b.report.staticSite.bytes)}`
      : "";
    const than = base ? `; wall ${ratio(b.run.usage.wall / base.run.usage.wall)} the 1-draft2 build's` : "";
    row(
      "6 dts 1.0",
      `slice, ${label}: build`,
      `${usageText(b.run.usage)}; ${num(b.report.files)} files, ${mb(b.report.bytes)}${size}${than}`,
    );
    base ??= b;
  }
  const both = join(work, "v1-both");
  if (!existsSync(join(both, "_site.json"))) return;
  log("slice: serve a stored passage, 1-draft2 and 1.0, alternately");
  const server = await startDts(both, null, null, port);
  try {
    const q = (v: string): string => encodeURIComponent(v);
    const draft = `${server.url}/api/dts/document?id=${q(V1_PASSAGE.id)}&ref=${V1_PASSAGE.ref}`;
    const v1 = `${server.url}/api/dts/v1/document?resource=${q(V1_PASSAGE.id)}&ref=${V1_PASSAGE.ref}`;
    const ratios: number[] = [];
    let last: [Load, Load] | null = null;
    for (let i = 0; i < 3; i++) {
      const a = await load(draft, options);
      const b = await load(v1, options);
      ratios.push(b.rps / a.rps);
      last = [a, b];
    }
    ratios.sort((x, y) => x - y);
    row("6 dts 1.0", "dts serve: 1-draft2 passage (last run)", loadText(last![0]));
    row("6 dts 1.0", "dts serve: the same passage in 1.0 (last run)", loadText(last![1]));
    row("6 dts 1.0", "1.0 / 1-draft2 req/s (median of 3 alternating)", ratio(ratios[1]), ">= 0.9x", ratios[1] >= 0.9);
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Part 7: `dts deploy` of the latinLit tree to an S3-compatible server (s3rver, a dev dependency,
// on loopback): a first deploy, the same tree again, and a one-line edit rebuilt incrementally.
// Runs last: it changes one line of the staged corpus.

interface DeployJson {
  uploaded: number;
  uploadedBytes: number;
  unchanged: number;
  deleted: number;
  records: string[];
}

/** s3rver in its own process (test/helpers/s3rver-child.mjs says why), its port once it listens. */
function startS3rver(directory: string): Promise<{ port: number; child: ChildProcess }> {
  const child = fork(join(PROJECT, "test/helpers/s3rver-child.mjs"), [directory, "bench"], {
    execArgv: ["--openssl-legacy-provider"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  children.add(child);
  return new Promise((done, fail) => {
    child.on("message", (m: { port?: number }) => m.port && done({ port: m.port, child }));
    child.on("exit", (code) => fail(new Error(`s3rver exited (${code})`)));
  });
}

async function deployPart(state: LatinState | null): Promise<void> {
  if (!state) return skip("7 deploy", "latinLit deploy", `${LATIN} is absent, or its build failed`);
  if (!existsSync(join(PROJECT, "node_modules/s3rver")))
    return skip("7 deploy", "latinLit deploy", "s3rver is not installed (npm install)");
  const { port, child } = await startS3rver(mkdtempSync(join(work, "s3rver-")));
  const env = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };
  const deploy = async (label: string): Promise<void> => {
    log(`latinLit: deploy, ${label}`);
    const args = ["deploy", "--dist", state.tree, "--to", "s3://bench/latin", "--endpoint", `http://127.0.0.1:${port}`, "--json"];
    const run = await runMeasured(DTS, args, 900, env);
    if (run.status !== 0)
      return row("7 deploy", `latinLit: ${label}`, `failed (exit ${run.status}: ${run.stderr.trim().split("\n").pop()})`);
    const r = JSON.parse(run.stdout) as DeployJson;
    data[`deploy latinLit ${label}`] = { usage: run.usage, report: { ...r, uploads: undefined, deletes: undefined } };
    row(
      "7 deploy",
      `latinLit: ${label}`,
      `${num(r.uploaded)} objects uploaded (${size(r.uploadedBytes)}) + ${r.records.length} records, ${num(r.unchanged)} unchanged, ${num(r.deleted)} deleted; ${secs(run.usage.wall)}, ${mb(run.usage.maxRss)} RSS`,
    );
  };
  try {
    await deploy("first deploy");
    await deploy("same tree again");
    const file = join(state.corpus, "data/phi0472/phi001/phi0472.phi001.perseus-lat2.xml");
    materialize(file);
    const text = readFileSync(file, "utf8");
    if (!text.includes("lepidum novum libellum")) return skip("7 deploy", "latinLit: one-line edit", "the line of Catullus 1 is not there");
    writeFileSync(file, text.replace("lepidum novum libellum", "lepidum novom libellum"));
    log("latinLit: one-line edit, rebuilt incrementally");
    // With the first build's site URL: without it every JSON-LD answer changes (the deletion cap refuses that deploy).
    const rebuilt = await dtsBuild(state.corpus, state.tree, 600, SITE_URL);
    if (!rebuilt.report) return skip("7 deploy", "latinLit: one-line edit", `the rebuild failed: ${rebuilt.error}`);
    await deploy("one-line edit");
  } finally {
    killGroup(child, "SIGTERM");
  }
}

// ---------------------------------------------------------------------------------------------
// The run.

function printTable(): string {
  const header: Row = { part: "part", measure: "measure", value: "value", target: "target", pass: null };
  const cells = (r: Row): string[] => [r.part, r.measure, r.value, r.target, r.pass === null ? "" : r.pass ? "pass" : "FAIL"];
  const all = [header, ...rows].map(cells);
  const widths = [0, 1, 2, 3, 4].map((c) => Math.min(c === 2 ? 110 : 70, Math.max(...all.map((r) => r[c].length))));
  const line = (r: string[]): string =>
    r
      .map((cell, c) => cell.padEnd(widths[c]))
      .join("  ")
      .trimEnd();
  const out = [line(all[0]), widths.map((w) => "-".repeat(w)).join("  ")];
  let part = "";
  for (const r of all.slice(1)) {
    if (r[0] !== part && part) out.push("");
    part = r[0];
    out.push(line(r));
  }
  return out.join("\n");
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const want = (part: string): boolean => !options.only || options.only.has(part);
  await waitForPreviousCleanup();
  work = mkdtempSync(join(tmpdir(), "dts-bench-"));
  log(`working in ${work}${HAS_TIME ? "" : " (no /usr/bin/time: resource usage from bench/rusage.js)"}`);
  let cleaned = false;
  const cleanup = (): void => {
    if (cleaned) return;
    cleaned = true;
    for (const c of children) killGroup(c);
    if (options.keep) log(`kept ${work}`);
    else log(`removing ${work} in the background (pid ${removeInBackground(work)})`);
  };
  process.on("SIGINT", () => {
    cleanup();
    process.exit(130);
  });

  const help = spawnSync(process.execPath, [DTS, "build", "--help"], { encoding: "utf8" }).stdout;
  const noRules = !/--target\b/.test(help) ? "`dts build --target nginx` does not exist" : nginxAvailable();

  try {
    // Measured steps that create many files come first, while the file system holds no recently
    // deleted files; the tree of latinLit stays for the rebuilds, the serving and the writes.
    let latin: LatinState | null = null;
    if (want("build") || want("serve") || want("incremental") || want("deploy")) latin = await latinLit();
    if (latin && want("build")) await baselinePart("latinLit", latin.tree, latin.full, true);
    if (want("slice")) await slice();
    if (want("scale")) await scalePart(options);
    if (latin && want("incremental")) await rebuildPart(latin);
    if (want("v1")) await v1Part(options);
    if (want("serve")) {
      if (latin) {
        const state = latin;
        const rules = async (): Promise<string | null> => {
          if (noRules) return noRules;
          log("latinLit: build again with --target nginx (writes the nginx rules)");
          const b = await dtsBuild(state.corpus, state.tree, 600, [...SITE_URL, "--target", "nginx"]);
          if (!b.report) return `dts build --target nginx failed: ${b.error}`;
          row("3 serve", "latinLit: build again with --target nginx (incremental, adds the rules)", `${usageText(b.run.usage)}`);
          return null;
        };
        await servePart(options, latin.tree, "latinLit", ["urn:cts:latinLit:phi0472.phi001.perseus-lat2"], rules);
      } else {
        const tree = join(work, "embedded-serve-tree");
        const b = await dtsBuild(join(PROJECT, "corpus"), tree, 120, [...SITE_URL, ...(noRules ? [] : ["--target", "nginx"])]);
        const georgics = ["urn:cts:latinLit:phi0690.phi003.sample-lat1"];
        if (b.report) await servePart(options, tree, "embedded corpus", georgics, noRules ?? (async () => null));
        else skip("3 serve", "serving", `the embedded corpus did not build: ${b.error}`);
      }
    }
    if (want("incremental")) await writePart(latin);
    if (want("deploy")) await deployPart(latin);
  } finally {
    cleanup();
  }

  rows.sort((a, b) => a.part.localeCompare(b.part)); // stable: each part keeps its order
  const table = printTable();
  console.log(
    `\ndts-static benchmark, ${new Date().toISOString()}, ${cpus().length} x ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 1e9).toFixed(0)} GB, Node ${process.version}\n`,
  );
  console.log(table);
  const failed = rows.filter((r) => r.pass === false).length;
  const passed = rows.filter((r) => r.pass === true).length;
  const total = (performance.now() - startedAt) / 1000;
  const wait = waited >= 1 ? ` (and ${secs(waited)} waiting for the previous run's clean-up)` : "";
  console.log(`\n${passed} targets met, ${failed} missed, ${skipped.length} parts skipped; ${secs(total - waited)} in all${wait}.`);
  mkdirSync(dirname(options.results), { recursive: true });
  writeFileSync(
    options.results,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: {
          cpus: cpus().length,
          model: cpus()[0]?.model,
          memory: totalmem(),
          free: freemem(),
          os: release(),
          node: process.version,
        },
        options: { ...options, only: options.only && [...options.only] },
        measuredWith: HAS_TIME ? TIME : "bench/rusage.js",
        rows,
        skipped,
        details: data,
        seconds: (performance.now() - startedAt) / 1000 - waited,
        waitedForPreviousCleanup: waited,
      },
      null,
      2,
    ) + "\n",
  );
  const shown = relative(process.cwd(), options.results);
  console.log(`Written to ${shown.startsWith("..") ? options.results : shown}`);
}

main().catch((e) => {
  console.error(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
