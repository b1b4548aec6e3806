// The order render workers take documents in: largest first, and never more source bytes at
// once than the largest document (issue 14: a build's memory bounded by its largest document).

import { describe, expect, it } from "vitest";
import { RenderQueue } from "../builder/build/render-queue.js";

/** Runs `workers` over the queue, the oldest document in flight finishing first; returns the order taken and the most bytes in flight. */
function simulate(sizes: number[], workers: number): { taken: number[]; peak: number } {
  const queue = new RenderQueue(sizes);
  const taken: number[] = [];
  const busy: number[] = [];
  let peak = 0;
  const inFlight = (): number => busy.reduce((n, t) => n + sizes[t], 0);
  for (let step = 0; step < 10 * sizes.length && !(queue.empty && busy.length === 0); step++) {
    // Every idle worker takes what fits; then the oldest document in flight finishes.
    while (busy.length < workers) {
      const t = queue.take();
      if (t === undefined) break;
      busy.push(t);
      taken.push(t);
      peak = Math.max(peak, inFlight());
    }
    const finished = busy.shift();
    if (finished !== undefined) queue.done(finished);
  }
  return { taken, peak };
}

describe("RenderQueue", () => {
  it("hands out every document once, largest first when nothing holds it back", () => {
    const sizes = [5, 40, 1, 40, 7];
    const { taken } = simulate(sizes, 1);
    expect(taken).toEqual([1, 3, 4, 0, 2]);
  });

  it("never renders more source bytes at once than the largest document", () => {
    const sizes = [100, 90, 80, 10, 10, 10, 5, 60, 30];
    const { taken, peak } = simulate(sizes, 3);
    expect([...taken].sort((a, b) => a - b)).toEqual(sizes.map((_, i) => i));
    expect(peak).toBeLessThanOrEqual(100);
    // The two largest never together; small ones fill in beside a large one.
    expect(peak).toBeGreaterThan(90);
  });

  it("takes nothing beside a document that fills the budget, and goes on once it is done", () => {
    const queue = new RenderQueue([50, 50, 1]);
    expect(queue.take()).toBe(0);
    expect(queue.take()).toBeUndefined();
    queue.done(0);
    expect(queue.take()).toBe(1);
    expect(queue.take()).toBeUndefined();
    queue.done(1);
    expect(queue.take()).toBe(2);
    expect(queue.empty).toBe(true);
  });

  it("lets documents of no size (unreadable files) through", () => {
    const { taken } = simulate([0, 0, 0], 2);
    expect(taken).toHaveLength(3);
  });
});
