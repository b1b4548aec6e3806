// The subset of XPath that citation declarations use, compiled to steps that are matched
// against the stack of open elements during a streaming scan. Supported: absolute and
// relative location paths with `/` and `//`, name tests (`tei:div`, `div`, `*`), and
// predicates over attributes (`@n='$1'`, `@type="x"`, `@n`), `self::name`, `and`, `or`,
// `not(...)`. Anything else is rejected with a message, so the caller can warn.

import { attr, type OpenTag } from "../xml/scan.js";

export const TEI_NS = "http://www.tei-c.org/ns/1.0";

export type Predicate =
  | { kind: "and" | "or"; args: Predicate[] }
  | { kind: "not"; arg: Predicate }
  | { kind: "attr"; name: string; equals?: string; capture?: number }
  | { kind: "self"; local: string | null };

export interface Step {
  axis: "child" | "descendant";
  /** Local name to match, or null for `*`. Names are matched in the TEI namespace or none. */
  local: string | null;
  predicates: Predicate[];
  /** The step's text as written, to compare steps of two patterns. */
  source: string;
}

export interface CompiledPath {
  absolute: boolean;
  steps: Step[];
}

export class XPathError extends Error {}

/** Compiles a path. Quotes escaped with a backslash (`\'`, seen in real files) are accepted. */
export function compilePath(text: string): CompiledPath {
  const src = text.replace(/\\(['"])/g, "$1").trim();
  let i = 0;
  let absolute = false;
  const steps: Step[] = [];
  let axis: Step["axis"] = "child";
  if (src.startsWith(".//")) {
    i = 3;
    axis = "descendant";
  } else if (src.startsWith("./")) {
    i = 2;
  } else if (src.startsWith("//")) {
    absolute = true;
    axis = "descendant";
    i = 2;
  } else if (src.startsWith("/")) {
    absolute = true;
    i = 1;
  }
  for (;;) {
    const stepStart = i;
    const name = /^(?:[A-Za-z_][\w.-]*:)?(?:[A-Za-z_][\w.-]*|\*)/.exec(src.slice(i));
    if (!name) throw new XPathError(`cannot read a step at "${src.slice(i)}" in ${src}`);
    i += name[0].length;
    const predicates: Predicate[] = [];
    while (src[i] === "[") {
      const close = matchingBracket(src, i);
      predicates.push(parsePredicate(src.slice(i + 1, close).trim(), src));
      i = close + 1;
    }
    const local = name[0] === "*" || name[0].endsWith(":*") ? null : name[0].replace(/^[^:]*:/, "");
    steps.push({ axis, local, predicates, source: src.slice(stepStart, i) });
    if (i >= src.length) break;
    if (src.startsWith("//", i)) {
      axis = "descendant";
      i += 2;
    } else if (src[i] === "/") {
      axis = "child";
      i += 1;
    } else {
      throw new XPathError(`unexpected "${src.slice(i)}" in ${src}`);
    }
  }
  return { absolute, steps };
}

function matchingBracket(src: string, open: number): number {
  let depth = 0;
  let quote = "";
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) return i;
  }
  throw new XPathError(`unclosed "[" in ${src}`);
}

function parsePredicate(text: string, whole: string): Predicate {
  const orParts = splitTopLevel(text, "or");
  if (orParts.length > 1) return { kind: "or", args: orParts.map((p) => parsePredicate(p, whole)) };
  const andParts = splitTopLevel(text, "and");
  if (andParts.length > 1) return { kind: "and", args: andParts.map((p) => parsePredicate(p, whole)) };
  let m = /^\((.*)\)$/s.exec(text);
  if (m) return parsePredicate(m[1].trim(), whole);
  m = /^not\s*\((.*)\)$/s.exec(text);
  if (m) return { kind: "not", arg: parsePredicate(m[1].trim(), whole) };
  m = /^self::(?:[\w.-]+:)?([\w.-]+|\*)$/.exec(text);
  if (m) return { kind: "self", local: m[1] === "*" ? null : m[1] };
  m = /^@([\w.:-]+)\s*=\s*(?:'([^']*)'|"([^"]*)")$/.exec(text);
  if (m) {
    const value = m[2] ?? m[3];
    const capture = /^\$(\d+)$/.exec(value);
    return capture ? { kind: "attr", name: m[1], capture: Number(capture[1]) } : { kind: "attr", name: m[1], equals: value };
  }
  m = /^@([\w.:-]+)$/.exec(text);
  if (m) return { kind: "attr", name: m[1] };
  throw new XPathError(`unsupported predicate [${text}] in ${whole}`);
}

/** Splits on a keyword (`and`, `or`) outside quotes and brackets. */
function splitTopLevel(text: string, word: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth === 0 && text.startsWith(word, i) && /\s/.test(text[i - 1] ?? "") && /\s/.test(text[i + word.length] ?? "")) {
      parts.push(text.slice(last, i).trim());
      last = i + word.length;
    }
  }
  parts.push(text.slice(last).trim());
  return parts;
}

/** Highest `$n` used in the path (0 when none). */
export function maxCapture(path: CompiledPath): number {
  let max = 0;
  const visit = (p: Predicate): void => {
    if (p.kind === "attr" && p.capture) max = Math.max(max, p.capture);
    else if (p.kind === "and" || p.kind === "or") p.args.forEach(visit);
    else if (p.kind === "not") visit(p.arg);
  };
  for (const s of path.steps) s.predicates.forEach(visit);
  return max;
}

/** Index of the step whose predicates capture `$n`, or -1. */
export function stepCapturing(path: CompiledPath, n: number): number {
  const has = (p: Predicate): boolean =>
    p.kind === "attr" ? p.capture === n : p.kind === "not" ? has(p.arg) : p.kind === "self" ? false : p.args.some(has);
  return path.steps.findIndex((s) => s.predicates.some(has));
}

/** The attribute whose value a step captures as `$n`. */
export function capturedAttribute(step: Step, n: number): string | undefined {
  let found: string | undefined;
  const visit = (p: Predicate): void => {
    if (p.kind === "attr" && p.capture === n) found = p.name;
    else if (p.kind === "and" || p.kind === "or") p.args.forEach(visit);
    else if (p.kind === "not") visit(p.arg);
  };
  step.predicates.forEach(visit);
  return found;
}

function elementNameMatches(local: string | null, tag: OpenTag): boolean {
  if (local !== null && tag.local !== local) return false;
  return tag.uri === TEI_NS || tag.uri === "";
}

function predicateHolds(p: Predicate, tag: OpenTag): boolean {
  switch (p.kind) {
    case "and":
      return p.args.every((a) => predicateHolds(a, tag));
    case "or":
      return p.args.some((a) => predicateHolds(a, tag));
    case "not":
      return !predicateHolds(p.arg, tag);
    case "self":
      return elementNameMatches(p.local, tag);
    case "attr": {
      const v = attr(tag, p.name);
      if (v === undefined) return false;
      return p.equals === undefined || p.equals === v;
    }
  }
}

export function stepMatches(step: Step, tag: OpenTag): boolean {
  if (!elementNameMatches(step.local, tag)) return false;
  for (const p of step.predicates) if (!predicateHolds(p, tag)) return false;
  return true;
}

/**
 * Whether the element at `stack[top]` is selected by `steps` evaluated from the context
 * element `stack[context]` (context -1 is the document node).
 */
export function pathMatches(steps: Step[], stack: OpenTag[], context: number, top: number): boolean {
  const m = (si: number, ei: number): boolean => {
    const step = steps[si];
    if (!stepMatches(step, stack[ei])) return false;
    if (step.axis === "child") {
      const prev = ei - 1;
      return si === 0 ? prev === context : prev > context && m(si - 1, prev);
    }
    if (si === 0) return true;
    for (let k = ei - 1; k > context; k--) if (m(si - 1, k)) return true;
    return false;
  };
  if (steps.length === 0 || top <= context) return false;
  return m(steps.length - 1, top);
}
