// Documented limits of the hosts, and the build's warnings when a corpus exceeds them. Each
// number names its source, so the warning can say which limit and where it is written.

import type { Warning } from "../catalog.js";

export interface Limit {
  what: string;
  /** A few words for the build's report. */
  short: string;
  limit: number;
  source: string;
}

export const LIMITS = {
  cloudflareFilesFree: {
    short: "asset files (Workers Free)",
    what: "static asset files per Worker version (Workers Free)",
    limit: 20_000,
    source: "developers.cloudflare.com/workers/platform/limits",
  },
  cloudflareFilesPaid: {
    short: "asset files (Workers Paid)",
    what: "static asset files per Worker version (Workers Paid)",
    limit: 100_000,
    source: "developers.cloudflare.com/workers/platform/limits",
  },
  cloudflareFileSize: {
    short: "bytes of the largest asset",
    what: "bytes per static asset file",
    limit: 25 * 1024 * 1024,
    source: "developers.cloudflare.com/workers/platform/limits",
  },
  netlifyRedirects: {
    short: "_redirects rules",
    what: "rules in _redirects before Netlify advises Edge Functions instead (large files can fail the deploy)",
    limit: 10_000,
    source: "docs.netlify.com/manage/routing/redirects/overview",
  },
  netlifyFilesPerFolder: {
    short: "entries of the fullest folder",
    what: "files in one folder of the publish directory (the deploy fails above it)",
    limit: 54_000,
    source: "docs.netlify.com/site-deploys/overview",
  },
  githubPagesSize: {
    short: "bytes of the published site",
    what: "bytes of a published GitHub Pages site (the static profile's whole --out folder)",
    limit: 1_000_000_000,
    source: "docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits",
  },
} satisfies Record<string, Limit>;

/** A warning when `count` exceeds `limit`, with both numbers and the source. */
export function checkLimit(file: string, host: string, count: number, limit: Limit, detail = ""): Warning | null {
  if (count <= limit.limit) return null;
  const n = (x: number): string => x.toLocaleString("en");
  return {
    file,
    message: `${host}: ${n(count)} ${limit.what}${detail ? ` (${detail})` : ""}, over the limit of ${n(limit.limit)} (${limit.source})`,
  };
}
