// Option parsers and the options every command that builds a tree shares.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { LAYOUTS, type Site, type TreeLayout } from "../builder/site.js";
import { SITE_FILE } from "../builder/tree/layout.js";

/** A whole number between `min` and `max`, or a message naming the option. */
export function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    return n;
  };
}

/** `--corpus`, `--out`, `--base-path`, `--page-size`, `--local-context`, `--layout`. */
export function treeOptions(command: Command): Command {
  return command
    .option("--corpus <dir>", "corpus folder (CapiTainS or the native layout)", "corpus")
    .option("--out <dir>", "output folder", "dist")
    .option("--base-path <path>", "path of the API on the host", "/api/dts")
    .option("--page-size <n>", "members per Collection page", integer("--page-size", 1, 100000), 100)
    .option("--local-context", "reference the tree's own valid JSON-LD context instead of the published one")
    .addOption(
      new Option(
        "--layout <layout>",
        "how responses lie in the tree: packed (a few files per document) or files (one per response, for Apache); left out, the tree's own, else packed",
      ).choices(LAYOUTS),
    );
}

/**
 * The layout to build: the one asked for; else files when Apache is a target (it sends whole
 * files only); else the one the tree in `out` was built with; else packed.
 */
export function chooseLayout(asked: TreeLayout | undefined, targets: string[], out: string): TreeLayout {
  if (asked) return asked;
  if (targets.some((t) => t.split(",").some((name) => ["apache", "all"].includes(name.trim().toLowerCase())))) return "files";
  try {
    return (JSON.parse(readFileSync(join(out, SITE_FILE), "utf8")) as Site).layout ?? "packed";
  } catch {
    return "packed";
  }
}
