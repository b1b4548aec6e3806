// The GitHub Pages recipe of docs/deploy.md is a workflow GitHub accepts as written: valid YAML
// with the permissions Pages deployments need, a build that makes the static profile with the
// URL Pages gives, an artifact of that tree, and a deploy job after it. (GitHub itself cannot be
// reached from the tests; the tree it publishes is the one the static profile tests serve.)

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PROJECT } from "./helpers/tree.js";

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

describe("docs/examples/github-pages.yml", () => {
  const text = readFileSync(join(PROJECT, "docs/examples/github-pages.yml"), "utf8");
  const workflow = parse(text, { strict: true, uniqueKeys: true }) as {
    on: unknown;
    permissions: Record<string, string>;
    jobs: Record<string, { "runs-on": string; needs?: string; steps: Step[]; environment?: { name: string } }>;
  };

  it("asks for the permissions a Pages deployment needs", () => {
    expect(workflow.permissions).toEqual({ contents: "read", pages: "write", "id-token": "write" });
    expect(workflow.on).toMatchObject({ push: { branches: ["main"] } });
  });

  it("builds the static profile at the URL Pages gives, from the cached tree, and uploads that tree", () => {
    const steps = workflow.jobs.build.steps;
    const uses = steps.map((s) => s.uses?.split("@")[0]);
    expect(uses).toEqual(
      expect.arrayContaining([
        "actions/checkout",
        "actions/setup-node",
        "actions/configure-pages",
        "actions/cache",
        "actions/upload-pages-artifact",
      ]),
    );
    const build = steps.find((s) => s.run?.includes("dts build"))!;
    expect(build.run).toMatch(/--api 1\.0 --static-paths --site-url "\$\{\{ steps\.pages\.outputs\.base_url \}\}"/);
    const out = /--out (\S+)/.exec(build.run!)![1];
    expect(steps.find((s) => s.uses?.startsWith("actions/cache"))!.with!.path).toBe(out);
    expect(steps.find((s) => s.uses?.startsWith("actions/upload-pages-artifact"))!.with!.path).toBe(out);
    expect(steps.findIndex((s) => s.uses?.startsWith("actions/cache"))).toBeLessThan(steps.indexOf(build));
  });

  it("deploys after the build, in the github-pages environment", () => {
    const deploy = workflow.jobs.deploy;
    expect(deploy.needs).toBe("build");
    expect(deploy.environment?.name).toBe("github-pages");
    expect(deploy.steps.map((s) => s.uses?.split("@")[0])).toEqual(["actions/deploy-pages"]);
  });
});
