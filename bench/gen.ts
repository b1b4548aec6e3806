// A deterministic synthetic CapiTainS corpus, for build benchmarks at any scale.
//
//   npm run gen -- --docs N --passages M [--out dir] [--seed S] [--json]
//
// Writes `data/<textgroup>/__cts__.xml`, `data/<textgroup>/<work>/__cts__.xml` and one TEI file per
// edition or translation, in the Perseus layout: CTS `refsDecl` with `cRefPattern`s listed deepest
// level first, `div type="textpart"` containers and `l` or `div`/`p` leaves, one to four citation
// levels per document. The corpus has exactly N documents and exactly M citable units (passages
// at every level, as `dts build` counts them). Document sizes follow a capped Pareto law, so a few
// documents are large, and the largest document does not grow with the corpus: a corpus ten times
// larger has ten times as many documents of the same sizes. Same options, same bytes.

import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export interface GenOptions {
  docs: number;
  passages: number;
  out: string;
  seed?: number;
}

export interface GenReport {
  out: string;
  seed: number;
  documents: number;
  passages: number;
  textgroups: number;
  works: number;
  /** Documents per number of citation levels (index 0 unused). */
  depths: [number, number, number, number, number];
  verse: number;
  prose: number;
  files: number;
  bytes: number;
  /** Bytes of TEI text alone. */
  teiBytes: number;
  largest: { id: string; passages: number; bytes: number };
  seconds: number;
}

/** The file that marks a folder as written by this generator (so it may be replaced). */
export const MARKER = ".dts-gen.json";
export const NAMESPACE = "synthLit";

// ---------------------------------------------------------------------------------------------
// Randomness: one seeded PRNG per purpose, so a document's text depends only on the seed and
// its index.

/** mulberry32: a small, fast 32-bit PRNG with good enough statistics for test data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mix(seed: number, n: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n + 0x632be5ab, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

type Rng = () => number;
const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];

// ---------------------------------------------------------------------------------------------
// Words.

const LATIN = (
  "et in est non ad cum quod ut sed si qui quae quam atque enim nec per ab ex de iam tum nunc " +
  "arma virum cano troiae primus oris italiam fato profugus litora multum terris iactatus alto " +
  "superum saevae memorem iunonis iram bello passus conderet urbem deos latio genus albani patres " +
  "altae moenia romae musa causas memora quo numine laeso regina dolens tot volvere casus " +
  "insignem pietate virum adire labores animis caelestibus irae urbs antiqua fuit coloni tenuere " +
  "carthago contra longe ostia dives opum studiisque asperrima belli gallia omnis divisa partes " +
  "tres quarum unam incolunt belgae aliam aquitani tertiam ipsorum lingua celtae nostra galli " +
  "appellantur hi omnes institutis legibus inter se differunt flumen matrona sequana dividit " +
  "horum fortissimi sunt propterea cultu humanitate provinciae longissime absunt minime saepe " +
  "mercatores commeant effeminandos animos pertinent important proximi germanis trans rhenum " +
  "vivamus mea lesbia amemus rumoresque senum severiorum omnes unius aestimemus assis soles " +
  "occidere redire possunt nobis semel brevis lux nox perpetua una dormienda da mi basia mille " +
  "deinde centum dein altera usque populus senatus consul legio imperium virtus fortuna gloria " +
  "tempus annus dies ignis aqua terra caelum mare ventus silva mons campus via domus porta murus " +
  "rex dux miles hostis socius amicus pater mater filius frater soror puer puella vir femina " +
  "magnus parvus bonus malus novus vetus longus altus latus densus clarus obscurus laetus tristis " +
  "video audio dico facio venio capio mitto duco rego pono teneo habeo moveo sedeo iaceo curro " +
  "ergo igitur itaque tamen autem quoque vero quidem etiam adhuc semper numquam saepe interdum"
).split(" ");

const ENGLISH = (
  "the and of to in a that is was he for it with as his on be at by had not are but from or have " +
  "an they which one you were her all she there would their we him been has when who will more no " +
  "if out so said what up its about into than them can only other new some could time these two " +
  "may then do first any my now such like our over man me even most made after also did many " +
  "before must through back years where much your way well down should because each just those " +
  "arms hero sing troy shore fate exile land sea gods wrath queen city walls war fortune empire " +
  "gaul divided parts three people language laws river bravest province merchants germans rhine " +
  "live love kisses thousand hundred sun night light senate consul legion virtue glory army camp"
).split(" ");

const SYLLABLES = "ma ri us ti tul li ca ae ne sa pho ho ra ti li vi ju ve na lu ca nus ter ent pl au cor ne".split(" ");

function nameWord(rng: Rng, syllables: number): string {
  let s = "";
  for (let i = 0; i < syllables; i++) s += pick(rng, SYLLABLES);
  return s[0].toUpperCase() + s.slice(1);
}

const capital = (w: string): string => w[0].toUpperCase() + w.slice(1);

/** Running text of about `length` characters, in sentences. */
function prose(rng: Rng, words: readonly string[], length: number, markup: boolean): string {
  let out = "";
  let start = true;
  let chars = 0;
  while (chars < length) {
    let w = pick(rng, words);
    if (start) w = capital(w);
    start = false;
    if (markup && rng() < 0.012) w = `<persName>${capital(w)}</persName>`;
    out += chars === 0 ? w : " " + w;
    chars += w.length + 1;
    const r = rng();
    if (r < 0.05 && chars < length) {
      out += ".";
      start = true;
    } else if (r < 0.13) out += ",";
  }
  return out + ".";
}

/** One verse line of about `length` characters. */
function verse(rng: Rng, words: readonly string[], length: number): string {
  let out = capital(pick(rng, words));
  while (out.length < length) out += " " + pick(rng, words);
  const r = rng();
  return r < 0.25 ? out + "," : r < 0.4 ? out + "." : r < 0.45 ? out + ";" : out;
}

// ---------------------------------------------------------------------------------------------
// Documents.

type Kind = "verse" | "prose";

/** Citation level names, outermost first, by kind and depth (as in Perseus texts). */
const LEVELS: Record<Kind, string[][]> = {
  verse: [[], ["line"], ["book", "line"], ["book", "poem", "line"], ["part", "book", "poem", "line"]],
  prose: [[], ["section"], ["chapter", "section"], ["book", "chapter", "section"], ["book", "chapter", "section", "subsection"]],
};

/** Children per container: [min, max] by "container>child". */
const FANOUT: Record<string, [number, number]> = {
  "part>book": [2, 6],
  "book>poem": [5, 40],
  "book>line": [300, 1100],
  "poem>line": [8, 120],
  "book>chapter": [10, 60],
  "chapter>section": [3, 20],
  "section>subsection": [2, 6],
};

/** A container's children; a leaf has none (and sits at the deepest level). */
type Unit = Unit[];

/**
 * A citation tree of exactly `units` units in `depth` levels. Containers are filled to a random
 * fan-out while units remain; what is left at the end (fewer than `depth` units, too few to open
 * a new chain from the top) goes to the last deepest container.
 */
function citationTree(rng: Rng, units: number, levels: string[]): Unit[] {
  const depth = levels.length;
  let remaining = units;
  const grow = (level: number): Unit => {
    remaining--;
    const node: Unit = [];
    if (level === depth - 1) return node;
    const [lo, hi] = FANOUT[`${levels[level]}>${levels[level + 1]}`];
    const target = int(rng, lo, hi);
    while (node.length < target && remaining >= depth - level - 1) node.push(grow(level + 1));
    return node;
  };
  const top: Unit[] = [];
  while (remaining >= depth) top.push(grow(0));
  if (remaining > 0) {
    let parent = top[top.length - 1];
    for (let level = 1; level < depth - 1; level++) parent = parent[parent.length - 1];
    while (remaining-- > 0) parent.push([]);
  }
  return top;
}

interface DocPlan {
  index: number;
  textgroup: string;
  work: string;
  urn: string;
  file: string;
  lang: "lat" | "eng";
  units: number;
}

function cRefPatterns(kind: Kind, levels: string[]): string {
  const out: string[] = [];
  for (let k = levels.length; k >= 1; k--) {
    let xpath = "/tei:TEI/tei:text/tei:body/tei:div";
    for (let j = 1; j <= k; j++) xpath += kind === "verse" && j === levels.length ? `/tei:l[@n='$${j}']` : `/tei:div[@n='$${j}']`;
    const match = Array.from({ length: k }, () => "(\\w+)").join(".");
    const names = levels.slice(0, k).join(" and ");
    out.push(
      `<cRefPattern n="${levels[k - 1]}" matchPattern="${match}" replacementPattern="#xpath(${xpath})">\n` +
        `<p>This pointer pattern extracts ${names}.</p>\n</cRefPattern>`,
    );
  }
  return out.join("\n");
}

interface DocText {
  xml: string;
  kind: Kind;
  depth: number;
  title: string;
  author: string;
}

function documentText(seed: number, plan: DocPlan, title: string, author: string): DocText {
  const rng = mulberry32(mix(seed, plan.index + 1));
  const first = plan.index === 0;
  const kind: Kind = rng() < 0.5 && !first ? "verse" : "prose";
  const r = rng();
  const depth = Math.min(plan.units, first ? 3 : r < 0.15 ? 1 : r < 0.6 ? 2 : r < 0.9 ? 3 : 4);
  const levels = LEVELS[kind][depth];
  const tree = citationTree(rng, plan.units, levels);
  const words = plan.lang === "lat" ? LATIN : ENGLISH;
  const parts: string[] = [];

  const emit = (unit: Unit, level: number, n: string): void => {
    const name = levels[level];
    if (level === depth - 1) {
      if (kind === "verse") {
        if (rng() < 0.03) parts.push(`<milestone unit="card" n="${n}"/>`);
        let line = verse(rng, words, int(rng, 28, 75));
        if (rng() < 0.01) line += `<note type="app">${prose(rng, words, int(rng, 20, 80), false)}</note>`;
        parts.push(`<l n="${n}">${line}</l>`);
      } else {
        const u = rng();
        const length = name === "subsection" ? 40 + Math.floor(210 * u) : 60 + Math.floor(540 * u * u);
        parts.push(`<div type="textpart" subtype="${name}" n="${n}">\n<p>${prose(rng, words, length, true)}</p></div>`);
      }
      return;
    }
    parts.push(`<div type="textpart" subtype="${name}" n="${n}">`);
    if (level === 0) parts.push(`<head>${name === "book" ? "Liber" : name === "part" ? "Pars" : "Caput"} ${n}</head>`);
    unit.forEach((child, i) => {
      emit(child, level + 1, refValue(level + 1, i));
    });
    parts.push(`</div>`);
  };
  // Mostly numbers; a preface `pr` at the top, and now and then a split number (`12a`), as in
  // Perseus. Values stay unique among siblings.
  function refValue(level: number, i: number): string {
    if (level === 0 && i === 0 && depth > 1 && kind === "prose" && rng() < 0.15) return "pr";
    return rng() < 0.01 ? `${i + 1}a` : String(i + 1);
  }
  tree.forEach((unit, i) => {
    emit(unit, 0, refValue(0, i));
  });

  const language = plan.lang === "lat" ? "Latin" : "English";
  const divType = plan.lang === "lat" ? "edition" : "translation";
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0">
<teiHeader xml:lang="eng">
<fileDesc>
<titleStmt>
<title xml:lang="${plan.lang}">${title}</title>
<author>${author}</author>
<editor>${nameWord(rng, 2)} ${nameWord(rng, 3)}</editor>
<sponsor>dts-static benchmark</sponsor>
</titleStmt>
<publicationStmt>
<publisher>dts-static</publisher>
<authority>synthetic corpus generator</authority>
<idno type="filename">${plan.file}</idno>
<availability>
<licence target="https://creativecommons.org/publicdomain/zero/1.0/">CC0 1.0</licence>
</availability>
</publicationStmt>
<sourceDesc>
<p>Synthetic text generated with seed ${seed} (document ${plan.index + 1}): not a real work.</p>
</sourceDesc>
</fileDesc>
<encodingDesc>
<refsDecl n="CTS">
${cRefPatterns(kind, levels)}
</refsDecl>
<refsDecl>
${levels.map((l, i) => `<refState unit="${l}"${i < levels.length - 1 ? ' delim="."' : ""}/>`).join("\n")}
</refsDecl>
</encodingDesc>
<profileDesc>
<langUsage>
<language ident="${plan.lang}">${language}</language>
</langUsage>
</profileDesc>
</teiHeader>
<text>
<body>
<div type="${divType}" xml:lang="${plan.lang}" n="${plan.urn}">
${parts.join("\n")}
</div>
</body>
</text>
</TEI>
`;
  return { xml, kind, depth, title, author };
}

// ---------------------------------------------------------------------------------------------
// The corpus.

/** Pareto shape and cap (in multiples of the smallest weight), and the mean of that capped law. */
const PARETO_ALPHA = 1.2;
const PARETO_CAP = 100;
const PARETO_MEAN = (PARETO_ALPHA / (PARETO_ALPHA - 1)) * (1 - PARETO_CAP ** (1 - PARETO_ALPHA)) + PARETO_CAP ** (1 - PARETO_ALPHA);

/**
 * Units per document, summing to `passages`. The first document is the largest the law allows,
 * about 25 times the mean, at every scale: with the same mean (passages / docs) it is the very
 * same document (prose, three levels, the most bytes per unit) in a corpus of 45 documents or of
 * 45,000, so the memory a build needs for its largest document does not change with the scale.
 * (In a corpus of fewer than about 40 documents it is 60% of the passages.) The others, capped
 * at 60% of its weight, get one unit each and the rest by weight (largest remainder).
 */
function allocate(rng: Rng, docs: number, passages: number): number[] {
  // In a corpus of fewer than about 40 documents, 25 times the mean would be most of it: 60% at most.
  const target = Math.min((PARETO_CAP / PARETO_MEAN) * (passages / docs), 0.6 * passages);
  const largest = Math.max(1, Math.min(passages - (docs - 1), Math.round(target)));
  if (docs === 1) return [passages];
  const weights = Array.from({ length: docs - 1 }, () => Math.min(0.6 * PARETO_CAP, (1 - rng()) ** (-1 / PARETO_ALPHA)));
  const total = weights.reduce((a, b) => a + b, 0);
  const extra = passages - largest - (docs - 1);
  const exact = weights.map((w) => (extra * w) / total);
  const units = exact.map((x) => 1 + Math.floor(x));
  let left = passages - largest - units.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) units[order[k][1]]++;
  return [largest, ...units];
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

export function generateCorpus(options: GenOptions): GenReport {
  const started = performance.now();
  const { docs, passages } = options;
  const seed = (options.seed ?? 1) >>> 0;
  if (!Number.isInteger(docs) || docs < 1) throw new Error(`--docs must be a positive whole number, not ${docs}`);
  if (!Number.isInteger(passages) || passages < docs)
    throw new Error(`--passages must be a whole number of at least --docs (${docs}), not ${passages}`);
  const out = resolve(options.out);
  prepareOut(out);

  const rng = mulberry32(mix(seed, 0));
  const units = allocate(rng, docs, passages);

  // Textgroups of one to six works; a work has an edition and, one time in three, a translation.
  const tgWidth = Math.max(4, String(docs).length);
  const plans: DocPlan[] = [];
  const groups: { id: string; name: string; works: { id: string; title: string; docs: DocPlan[] }[] }[] = [];
  while (plans.length < docs) {
    const tg = `syn${pad(groups.length + 1, tgWidth)}`;
    const group = { id: tg, name: `${nameWord(rng, 2)} ${nameWord(rng, 3)}`, works: [] as (typeof groups)[0]["works"] };
    groups.push(group);
    const workCount = int(rng, 1, 6);
    for (let w = 1; w <= workCount && plans.length < docs; w++) {
      const work = `wrk${pad(w, 3)}`;
      const title = Array.from({ length: int(rng, 1, 3) }, () => capital(pick(rng, LATIN))).join(" ");
      const entry = { id: work, title, docs: [] as DocPlan[] };
      group.works.push(entry);
      const langs: ("lat" | "eng")[] = rng() < 1 / 3 ? ["lat", "eng"] : ["lat"];
      for (const lang of langs) {
        if (plans.length >= docs) break;
        const local = `${tg}.${work}.synth-${lang}1`;
        const plan: DocPlan = {
          index: plans.length,
          textgroup: tg,
          work,
          urn: `urn:cts:${NAMESPACE}:${local}`,
          file: `${local}.xml`,
          lang,
          units: units[plans.length],
        };
        plans.push(plan);
        entry.docs.push(plan);
      }
    }
  }

  const report: GenReport = {
    out,
    seed,
    documents: docs,
    passages,
    textgroups: groups.length,
    works: 0,
    depths: [0, 0, 0, 0, 0],
    verse: 0,
    prose: 0,
    files: 0,
    bytes: 0,
    teiBytes: 0,
    largest: { id: "", passages: 0, bytes: 0 },
    seconds: 0,
  };
  const write = (path: string, text: string): number => {
    const bytes = Buffer.byteLength(text);
    writeFileSync(path, text);
    report.files++;
    report.bytes += bytes;
    return bytes;
  };

  for (const group of groups) {
    const tgDir = join(out, "data", group.id);
    mkdirSync(tgDir, { recursive: true });
    write(
      join(tgDir, "__cts__.xml"),
      `<?xml version="1.0" encoding="UTF-8"?>
<ti:textgroup xmlns:ti="http://chs.harvard.edu/xmlns/cts" urn="urn:cts:${NAMESPACE}:${group.id}">
    <ti:groupname xml:lang="eng">${group.name}</ti:groupname>
</ti:textgroup>
`,
    );
    for (const work of group.works) {
      report.works++;
      const workDir = join(tgDir, work.id);
      mkdirSync(workDir);
      const workUrn = `urn:cts:${NAMESPACE}:${group.id}.${work.id}`;
      const entries: string[] = [];
      for (const plan of work.docs) {
        const text = documentText(seed, plan, plan.lang === "lat" ? work.title : `The ${work.title}`, group.name);
        const bytes = write(join(workDir, plan.file), text.xml);
        report.teiBytes += bytes;
        report.depths[text.depth]++;
        report[text.kind]++;
        if (plan.units > report.largest.passages) report.largest = { id: plan.urn, passages: plan.units, bytes };
        const element = plan.lang === "lat" ? "edition" : "translation";
        entries.push(`    <ti:${element} workUrn="${workUrn}" urn="${plan.urn}" xml:lang="${plan.lang}">
        <ti:label xml:lang="${plan.lang}">${text.title}</ti:label>
        <ti:description xml:lang="eng">${group.name}. ${text.title}. Synthetic ${text.kind} in ${text.depth} citation level${text.depth > 1 ? "s" : ""}.</ti:description>
    </ti:${element}>`);
      }
      write(
        join(workDir, "__cts__.xml"),
        `<?xml version="1.0" encoding="UTF-8"?>
<ti:work xmlns:ti="http://chs.harvard.edu/xmlns/cts" groupUrn="urn:cts:${NAMESPACE}:${group.id}" urn="${workUrn}" xml:lang="lat">
    <ti:title xml:lang="lat">${work.title}</ti:title>
${entries.join("\n")}
</ti:work>
`,
      );
    }
  }
  const { seconds: _, out: __, ...summary } = report;
  writeFileSync(join(out, MARKER), JSON.stringify({ generator: "dts-static bench/gen", docs, passages, seed, summary }, null, 2) + "\n");
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** Empties `out` if this generator wrote it; refuses to touch any other non-empty folder. */
function prepareOut(out: string): void {
  if (existsSync(out)) {
    const entries = readdirSync(out);
    if (entries.length > 0 && !entries.includes(MARKER)) {
      throw new Error(`${out} is not empty and was not written by this generator (no ${MARKER}); choose another --out`);
    }
    rmSync(out, { recursive: true, force: true });
  }
  mkdirSync(out, { recursive: true });
}

// ---------------------------------------------------------------------------------------------
// Command line.

function parseArgs(argv: string[]): GenOptions & { json: boolean } {
  const opts: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") json = true;
    else if (a === "--help" || a === "-h") {
      console.log("usage: npm run gen -- --docs N --passages M [--out dir] [--seed S] [--json]");
      process.exit(0);
    } else if (/^--(docs|passages|out|seed)$/.test(a) && i + 1 < argv.length) opts[a.slice(2)] = argv[++i];
    else if (/^--(docs|passages|out|seed)=/.test(a)) opts[a.slice(2, a.indexOf("="))] = a.slice(a.indexOf("=") + 1);
    else throw new Error(`unknown argument ${a}`);
  }
  const whole = (name: string, fallback?: number): number => {
    const v = opts[name];
    if (v === undefined) {
      if (fallback === undefined) throw new Error(`--${name} is required`);
      return fallback;
    }
    if (!/^\d+$/.test(v)) throw new Error(`--${name} must be a whole number, not ${v}`);
    return Number(v);
  };
  const docs = whole("docs");
  const passages = whole("passages");
  return { docs, passages, seed: whole("seed", 1), out: opts.out ?? `.bench/corpus-${docs}-${passages}`, json };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    const { json, ...options } = parseArgs(process.argv.slice(2));
    const r = generateCorpus(options);
    if (json) console.log(JSON.stringify(r, null, 2));
    else {
      const mb = (n: number): string => (n / 1e6).toFixed(1);
      console.log(`Generated ${r.out} in ${r.seconds.toFixed(1)} s (seed ${r.seed})`);
      console.log(`  documents  ${r.documents} in ${r.textgroups} textgroups, ${r.works} works (${r.verse} verse, ${r.prose} prose)`);
      console.log(`  levels     ${[1, 2, 3, 4].map((d) => `${d}: ${r.depths[d]}`).join(", ")}`);
      console.log(`  passages   ${r.passages}`);
      console.log(`  files      ${r.files}, ${mb(r.bytes)} MB (TEI ${mb(r.teiBytes)} MB)`);
      console.log(`  largest    ${r.largest.id}: ${r.largest.passages} passages, ${mb(r.largest.bytes)} MB`);
    }
  } catch (e) {
    console.error(`gen: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
