// Option parsers and the options every command that builds a tree shares.

import { type Command, InvalidArgumentError } from "commander";

/** A whole number between `min` and `max`, or a message naming the option. */
export function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    return n;
  };
}

/** `--corpus`, `--out`, `--base-path`, `--page-size`, `--local-context`. */
export function treeOptions(command: Command): Command {
  return command
    .option("--corpus <dir>", "corpus folder (CapiTainS or the native layout)", "corpus")
    .option("--out <dir>", "output folder", "dist")
    .option("--base-path <path>", "path of the API on the host", "/api/dts")
    .option("--page-size <n>", "members per Collection page", integer("--page-size", 1, 100000), 100)
    .option("--local-context", "reference the tree's own valid JSON-LD context instead of the published one");
}
