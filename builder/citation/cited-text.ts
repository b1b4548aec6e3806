// A document's source with its citation index, and the look-ups every response needs:
// a unit by reference, its neighbours at its level, its descendants at a deeper level.

import type { DocIndex, Unit } from "./indexer.js";

export class CitedText {
  private readonly byRef = new Map<string, number>();
  /** Unit indices of each level (1-based), in document order. */
  readonly levels: number[][] = [[]];
  /** Position of each unit in its level's list. */
  private readonly position: Int32Array;
  /** The document's other trees, built on first use. */
  private readonly trees = new Map<string, CitedText>();

  constructor(
    readonly id: string,
    readonly index: DocIndex,
    readonly source: Uint8Array,
  ) {
    const units = index.units;
    this.position = new Int32Array(units.length);
    for (let i = 0; i < units.length; i++) {
      const u = units[i];
      this.byRef.set(u.ref, i);
      while (this.levels.length <= u.level) this.levels.push([]);
      this.position[i] = this.levels[u.level].length;
      this.levels[u.level].push(i);
    }
  }

  get units(): Unit[] {
    return this.index.units;
  }

  /** The same document cited by another of its trees (refsDecl[@n]), or undefined if it has none by that name. */
  tree(identifier: string): CitedText | undefined {
    const known = this.trees.get(identifier);
    if (known) return known;
    const named = this.index.trees?.find((t) => t.identifier === identifier);
    if (!named) return undefined;
    const text = new CitedText(this.id, named.index, this.source);
    this.trees.set(identifier, text);
    return text;
  }

  /** Names of the trees other than the default, in declaration order. */
  treeIdentifiers(): string[] {
    return (this.index.trees ?? []).map((t) => t.identifier);
  }

  find(ref: string): number | undefined {
    return this.byRef.get(ref);
  }

  positionOf(unit: number): number {
    return this.position[unit];
  }

  /** Units of `level` inside unit `within` (or the whole document), in order. */
  unitsAt(level: number, within?: number): number[] {
    const list = this.levels[level] ?? [];
    if (within === undefined) return list;
    const { start, end } = this.index.units[within];
    return list.slice(this.lowerBound(list, start), this.lowerBound(list, end));
  }

  /** Units of `level` between two units of a (possibly shallower) level, inclusive. */
  unitsBetween(level: number, first: number, last: number): number[] {
    const list = this.levels[level] ?? [];
    const units = this.index.units;
    return list.slice(this.lowerBound(list, units[first].start), this.lowerBound(list, units[last].end));
  }

  private lowerBound(list: number[], offset: number): number {
    const units = this.index.units;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (units[list[mid]].start < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
