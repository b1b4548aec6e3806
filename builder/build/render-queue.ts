// Which document a render worker takes next. Largest first, so no worker is left with a big
// document at the end; and never more source bytes rendering at once than the largest document
// holds, so a build's memory is bounded by its largest document, not by how many large ones the
// workers happen to take together (two of latinLit's largest at once took 400 MB, one 290 MB).

export class RenderQueue {
  /** Documents not yet taken, largest first. */
  private readonly left: number[];
  private readonly budget: number;
  private inFlight = 0;

  constructor(private readonly sizes: number[]) {
    this.left = sizes.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a] || a - b);
    this.budget = sizes.reduce((max, s) => Math.max(max, s), 0);
  }

  get empty(): boolean {
    return this.left.length === 0;
  }

  /** The next document to render, or undefined when none is left or none fits beside those rendering. */
  take(): number | undefined {
    const i = this.inFlight === 0 ? 0 : this.left.findIndex((t) => this.inFlight + this.sizes[t] <= this.budget);
    if (i < 0 || i >= this.left.length) return undefined;
    const [task] = this.left.splice(i, 1);
    this.inFlight += this.sizes[task];
    return task;
  }

  /** A document taken is rendered: its bytes leave the budget. */
  done(task: number): void {
    this.inFlight -= this.sizes[task];
  }
}
