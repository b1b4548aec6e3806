// Option parsers and the options every command that builds a tree shares.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { API_VERSIONS, type ApiVersion, LAYOUTS, makeSite, type Site, type TreeLayout } from "../builder/site.js";
import { SITE_FILE } from "../builder/tree/layout.js";

/** A whole number between `min` and `max`, or a message naming the option. */
export function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    return n;
  };
}

/** A comma list of API versions, each known. */
function apiList(value: string): ApiVersion[] {
  const asked = value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  const unknown = asked.filter((v) => !(API_VERSIONS as readonly string[]).includes(v));
  if (unknown.length || !asked.length) {
    throw new InvalidArgumentError(
      `--api takes ${API_VERSIONS.join(", ")} or both as a comma list (${API_VERSIONS.join(",")}), not "${value}"`,
    );
  }
  return [...new Set(asked)] as ApiVersion[];
}

/** `--corpus`, `--out`, `--base-path`, `--page-size`, `--published-context`, `--layout`, `--api`, `--site-url`, `--static-paths`. */
export function treeOptions(command: Command): Command {
  return (
    command
      .option("--corpus <dir>", "corpus folder (CapiTainS or the native layout)", "corpus")
      .option("--out <dir>", "output folder", "dist")
      .option("--base-path <path>", "path of the API on the host", "/api/dts")
      .option("--page-size <n>", "members per Collection page", integer("--page-size", 1, 100000), 100)
      .option(
        "--published-context",
        "name the published 1-draft2 context address in @context instead of the tree's own (that file is not valid JSON: JSON-LD processors fail on it)",
      )
      // The tree's own context became the default; the old switch is still accepted.
      .addOption(new Option("--local-context").hideHelp())
      .addOption(
        new Option(
          "--layout <layout>",
          "how responses lie in the tree: packed (a few files per document) or files (one per response, for Apache); left out, the tree's own, else packed",
        ).choices(LAYOUTS),
      )
      .option(
        "--api <versions>",
        `the DTS API versions to build: ${API_VERSIONS.join(", ")}, or both ("1-draft2,1.0"); 1.0 is served under <base-path>/v1`,
        apiList,
        ["1-draft2"],
      )
      .option(
        "--site-url <url>",
        "the public URL the tree is served at (e.g. https://user.github.io/edition): the JSON-LD context and DTS 1.0 templates become absolute under it",
      )
      .option("--static-paths", "with --api 1.0: the Level 0 static profile, every 1.0 URL a file any file server answers")
  );
}

/** The site a build command's options describe. */
export function siteFromOptions(
  opts: { basePath: string; pageSize: number; publishedContext?: boolean; api: ApiVersion[]; siteUrl?: string; staticPaths?: boolean },
  layout: TreeLayout,
): Site {
  if (opts.staticPaths && !opts.api.includes("1.0")) {
    throw new InvalidArgumentError("--static-paths is a profile of DTS 1.0: add --api 1.0 (or --api 1-draft2,1.0)");
  }
  return makeSite({
    basePath: opts.basePath,
    pageSize: opts.pageSize,
    publishedContext: Boolean(opts.publishedContext),
    layout,
    apis: opts.api,
    siteUrl: opts.siteUrl,
    staticPaths: Boolean(opts.staticPaths),
  });
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
