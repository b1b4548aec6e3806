// Counts in messages: "1 value", "2 values", never "1 values".

/** `n` and the noun, singular for one. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
