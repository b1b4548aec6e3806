// Reads a document's declared citation scheme into one model, whatever form it was written
// in: TEI `citeStructure`, CTS `cRefPattern`, or (when neither is declared) nested
// `div[@n]`, `l[@n]`, `p[@n]`. This is the only place that interprets declarations.

import { count } from "../count.js";
import { attr, type OpenTag } from "../xml/scan.js";
import { capturedAttribute, compilePath, maxCapture, type Step, stepCapturing, XPathError } from "./xpath.js";

/** One level of a citation tree: how to find its units and how to name them. */
export interface CiteNode {
  /** The level's name (`book`, `line`); with `typeFromElement`, a default only. */
  citeType: string;
  /** Take the citeType from the matched element (`@subtype`, `@type`, or its name). */
  typeFromElement?: boolean;
  steps: Step[];
  /** The steps start at the document node instead of the parent unit's element. */
  absolute: boolean;
  /** String placed between the parent's reference and this level's value. */
  delim: string;
  /** Attribute holding the level's value (`n`, `xml:id`). */
  valueAttribute: string;
  children: CiteNode[];
}

export type SchemeKind = "citeStructure" | "cts" | "fallback";

export interface CitationScheme {
  kind: SchemeKind;
  roots: CiteNode[];
  /** Number of declared levels (0 for the fallback, whose depth is what is found). */
  declaredDepth: number;
  /** Problems with the declaration, to report as warnings. */
  problems: string[];
  /** Byte offset of the declaration that was read (for the line of its warnings). */
  offset?: number;
}

/** What the header declares, as collected by the scan. */
export interface RawDeclarations {
  refsDecls: RawRefsDecl[];
}

export interface RawRefsDecl {
  n?: string;
  /** `@default="true"`: the document's default citation tree. */
  isDefault: boolean;
  /** Byte offset of the element, to place warnings. */
  offset: number;
  patterns: { n?: string; matchPattern?: string; replacementPattern?: string }[];
  structures: RawCiteStructure[];
}

export interface RawCiteStructure {
  unit?: string;
  match?: string;
  use?: string;
  delim?: string;
  children: RawCiteStructure[];
}

/** Collects `refsDecl` declarations from the elements of a teiHeader as they are scanned. */
export class DeclarationCollector {
  readonly raw: RawDeclarations = { refsDecls: [] };
  private current: RawRefsDecl | null = null;
  private structureStack: RawCiteStructure[] = [];

  open(tag: OpenTag): void {
    if (tag.local === "refsDecl") {
      this.current = { n: attr(tag, "n"), isDefault: attr(tag, "default") === "true", offset: tag.start, patterns: [], structures: [] };
      this.raw.refsDecls.push(this.current);
    } else if (this.current && tag.local === "cRefPattern") {
      this.current.patterns.push({
        n: attr(tag, "n"),
        matchPattern: attr(tag, "matchPattern"),
        replacementPattern: attr(tag, "replacementPattern"),
      });
    } else if (this.current && tag.local === "citeStructure") {
      const s: RawCiteStructure = {
        unit: attr(tag, "unit"),
        match: attr(tag, "match"),
        use: attr(tag, "use"),
        delim: attr(tag, "delim"),
        children: [],
      };
      const parent = this.structureStack[this.structureStack.length - 1];
      (parent ? parent.children : this.current.structures).push(s);
      this.structureStack.push(s);
    }
  }

  close(tag: OpenTag): void {
    if (tag.local === "refsDecl") this.current = null;
    else if (tag.local === "citeStructure") this.structureStack.pop();
  }
}

// `div1`..`div7` are the numbered divisions of TEI P4 files, still common in older corpora.
const FALLBACK_MATCH =
  "*[((self::div or self::div1 or self::div2 or self::div3 or self::div4 or self::div5 or self::div6 or self::div7) " +
  "and not(@type='edition' or @type='translation' or @type='commentary')) or self::l or self::p][@n]";

/** The scheme used when a document declares none: nested div/l/p carrying @n, inside body. */
export function fallbackScheme(problems: string[] = []): CitationScheme {
  const inner: CiteNode = {
    citeType: "section",
    typeFromElement: true,
    steps: compilePath(`.//${FALLBACK_MATCH}`).steps,
    absolute: false,
    delim: ".",
    valueAttribute: "n",
    children: [],
  };
  inner.children.push(inner);
  const top: CiteNode = { ...inner, steps: compilePath(`//body//${FALLBACK_MATCH}`).steps, absolute: true };
  return { kind: "fallback", roots: [top], declaredDepth: 0, problems };
}

/** Chooses and compiles the scheme: citeStructure first, then CTS cRefPattern, then the fallback. */
export function readScheme(raw: RawDeclarations): CitationScheme {
  const chosen = chosenDeclaration(raw);
  return chosen ? readDeclaration(chosen) : fallbackScheme();
}

/** The refsDecl readScheme reads: the first with a citeStructure, else the CTS one, else any with cRefPatterns. */
function chosenDeclaration(raw: RawDeclarations): RawRefsDecl | undefined {
  return (
    raw.refsDecls.find((d) => d.structures.length > 0) ??
    raw.refsDecls.find((d) => d.n === "CTS" && d.patterns.length > 0) ??
    raw.refsDecls.find((d) => d.patterns.length > 0)
  );
}

/** One refsDecl's scheme, or the fallback with a problem saying why it was not understood. */
function readDeclaration(d: RawRefsDecl): CitationScheme {
  const compiled = compileDeclaration(d);
  if (!(compiled instanceof XPathError)) return compiled;
  return { ...fallbackScheme([`${declarationForm(d)} not understood (${compiled.message}); using div/l/p[@n]`]), offset: d.offset };
}

/** One refsDecl's scheme (its citeStructure if it has one, else its cRefPatterns), or why it cannot be read. */
function compileDeclaration(d: RawRefsDecl): CitationScheme | XPathError {
  try {
    const scheme = d.structures.length > 0 ? fromCiteStructure(d.structures) : fromCRefPatterns(d.patterns);
    return { ...scheme, offset: d.offset };
  } catch (e) {
    if (!(e instanceof XPathError)) throw e;
    return e;
  }
}

function declarationForm(d: RawRefsDecl): string {
  return d.structures.length > 0 ? "citeStructure" : "cRefPattern";
}

/** A citation tree other than the default, named by its refsDecl's @n. */
export interface NamedScheme {
  identifier: string;
  scheme: CitationScheme;
}

/** The document's citation trees: the default one, the others, and why any were left out. */
export interface SchemeChoice {
  scheme: CitationScheme;
  others: NamedScheme[];
  /** Warnings about declarations left out, each at its refsDecl. */
  skipped: { offset: number; message: string }[];
}

/**
 * Reads every citation tree declared. The default is the readable refsDecl marked
 * `@default="true"`, else what readScheme chooses (so documents without the mark read as
 * before). Each other readable refsDecl is a tree named by its @n; one that cannot be named
 * apart from the rest is left out, since a `tree` parameter could not reach it.
 */
export function readTrees(raw: RawDeclarations): SchemeChoice {
  const skipped: SchemeChoice["skipped"] = [];
  // refState-only refsDecls (older TEI) declare no tree we read: not considered at all.
  const readable = raw.refsDecls.filter((d) => d.structures.length > 0 || d.patterns.length > 0);
  const compiled = new Map(readable.map((d) => [d, compileDeclaration(d)] as const));
  const marked = readable.filter((d) => d.isDefault);
  let defaultDecl = marked.find((d) => !(compiled.get(d) instanceof XPathError));
  let scheme: CitationScheme;
  if (defaultDecl) {
    scheme = compiled.get(defaultDecl) as CitationScheme;
  } else {
    defaultDecl = chosenDeclaration(raw);
    scheme = defaultDecl ? readDeclaration(defaultDecl) : fallbackScheme();
  }
  for (const d of marked) {
    const problem = compiled.get(d);
    if (problem instanceof XPathError && d !== defaultDecl) {
      skipped.push({
        offset: d.offset,
        message: `refsDecl${nameOf(d)} is marked @default="true" but its ${declarationForm(d)} is not understood (${problem.message}); not the default`,
      });
    } else if (d !== defaultDecl) {
      skipped.push({ offset: d.offset, message: `refsDecl${nameOf(d)} is marked @default="true" after another; the first is the default` });
    }
  }
  const taken = new Set<string>();
  const defaultName = defaultDecl?.n?.trim();
  if (defaultName) taken.add(defaultName);
  const others: NamedScheme[] = [];
  for (const d of readable) {
    const problem = compiled.get(d);
    // A marked refsDecl not understood was reported above.
    if (d === defaultDecl || (d.isDefault && problem instanceof XPathError)) continue;
    const identifier = d.n?.trim();
    if (!identifier) {
      skipped.push({ offset: d.offset, message: "refsDecl without @n: its citation tree cannot be named, so it is not offered" });
    } else if (taken.has(identifier)) {
      skipped.push({
        offset: d.offset,
        message: `refsDecl n="${identifier}" repeats the @n of another citation tree; only the ${identifier === defaultName ? "default" : "first"} is offered`,
      });
    } else if (problem instanceof XPathError) {
      skipped.push({
        offset: d.offset,
        message: `refsDecl n="${identifier}": ${declarationForm(d)} not understood (${problem.message}); the tree is not offered`,
      });
    } else if (problem) {
      taken.add(identifier);
      others.push({ identifier, scheme: problem });
    }
  }
  return { scheme, others, skipped };
}

function nameOf(d: RawRefsDecl): string {
  return d.n ? ` n="${d.n}"` : "";
}

/** Elements that stand for the whole text: a top-level structure matching one is not a level. */
const WHOLE_TEXT = new Set(["TEI", "text", "body"]);

function fromCiteStructure(structures: RawCiteStructure[]): CitationScheme {
  const problems: string[] = [];
  const convert = (s: RawCiteStructure, top: boolean): CiteNode => {
    if (!s.match) throw new XPathError("a citeStructure has no @match");
    const path = compilePath(s.match);
    const use = (s.use ?? "@n").trim();
    const m = /^@([\w.:-]+)$/.exec(use);
    if (!m) throw new XPathError(`@use="${use}" is not an attribute`);
    return {
      citeType: s.unit ?? path.steps[path.steps.length - 1]?.local ?? "unit",
      steps: path.steps,
      absolute: top || path.absolute,
      delim: s.delim ?? "",
      valueAttribute: m[1],
      children: s.children.map((c) => convert(c, false)),
    };
  };
  // A top-level structure with no @unit that matches the body (seen with use="@xml:base")
  // wraps the whole text: its children are the real top levels, and their leading
  // delimiter is dropped, so references read as in the CTS form of the same text.
  const tops: CiteNode[] = [];
  for (const s of structures) {
    const node = convert(s, true);
    const last = node.steps[node.steps.length - 1];
    if (!s.unit && last?.local && WHOLE_TEXT.has(last.local) && node.children.length > 0) {
      for (const child of node.children) {
        tops.push({ ...child, steps: [...node.steps, ...child.steps], absolute: true, delim: "" });
      }
    } else {
      tops.push(node);
    }
  }
  const depth = (nodes: CiteNode[]): number => (nodes.length ? 1 + Math.max(...nodes.map((n) => depth(n.children))) : 0);
  return { kind: "citeStructure", roots: tops, declaredDepth: depth(tops), problems };
}

function fromCRefPatterns(patterns: RawRefsDecl["patterns"]): CitationScheme {
  const problems: string[] = [];
  const compiled = patterns.map((p) => {
    const rp = p.replacementPattern ?? "";
    const m = /^#xpath\((.*)\)$/s.exec(rp.trim());
    if (!m) throw new XPathError(`replacementPattern "${rp}" is not #xpath(...)`);
    const path = compilePath(m[1]);
    return { n: p.n, path, captures: maxCapture(path), groups: countGroups(p.matchPattern ?? "") };
  });
  // Perseus lists patterns deepest first. Order by the values the XPath takes, then by the
  // groups of matchPattern: real files get one or the other wrong (a level-1 pattern using
  // $2, a matchPattern with one group too many), rarely both.
  compiled.sort((a, b) => a.captures - b.captures || a.groups - b.groups);
  const nodes: CiteNode[] = [];
  let previous: { steps: Step[]; captureStep: number } | null = null;
  compiled.forEach((c, i) => {
    const level = i + 1;
    if (c.groups !== level) {
      problems.push(`cRefPattern "${c.n ?? ""}": matchPattern takes ${count(c.groups, "value")}, but the pattern is level ${level}`);
    }
    const at = stepCapturing(c.path, level);
    if (at < 0) throw new XPathError(`cRefPattern "${c.n ?? ""}" has no $${level}`);
    if (at < c.path.steps.length - 1) {
      problems.push(`cRefPattern "${c.n ?? ""}" selects below its own value $${level}; steps after it are ignored`);
    }
    const steps = c.path.steps.slice(0, at + 1);
    const valueAttribute = capturedAttribute(steps[at], level) ?? "n";
    let relative: Step[] | null = null;
    if (previous) {
      const prefix = steps.slice(0, previous.captureStep + 1).map((s) => s.source);
      const prevSteps = previous.steps.map((s) => s.source);
      if (prefix.length === prevSteps.length && prefix.every((s, k) => s === prevSteps[k])) {
        relative = steps.slice(previous.captureStep + 1);
      }
    }
    const node: CiteNode = {
      citeType: c.n ?? `level${level}`,
      steps: relative ?? steps,
      absolute: relative === null,
      delim: ".",
      valueAttribute,
      children: [],
    };
    if (relative !== null && relative.length === 0) throw new XPathError(`cRefPattern "${c.n ?? ""}" adds no step`);
    if (nodes.length) nodes[nodes.length - 1].children.push(node);
    nodes.push(node);
    previous = { steps, captureStep: at };
  });
  return { kind: "cts", roots: nodes.slice(0, 1), declaredDepth: nodes.length, problems };
}

/** Number of capturing groups in a regular expression source. */
function countGroups(source: string): number {
  let n = 0;
  for (let i = 0; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "(" && source[i + 1] !== "?") n++;
  }
  return n;
}

/** The `citeStructure` JSON of the Collection endpoint, from the declared tree. */
export interface CiteStructureJson {
  citeType: string;
  citeStructure?: CiteStructureJson[];
}

export function declaredCiteStructure(scheme: CitationScheme): CiteStructureJson[] {
  const seen = new Set<CiteNode>();
  const convert = (n: CiteNode): CiteStructureJson => {
    seen.add(n);
    const children = n.children.filter((c) => !seen.has(c)).map(convert);
    return children.length ? { citeType: n.citeType, citeStructure: children } : { citeType: n.citeType };
  };
  return scheme.roots.map(convert);
}
