// Apache rules: being rewritten (a RewriteMap program over the tree's manifests).

import type { HostContext, HostResult, HostRules } from "./common.js";
import { hostResult } from "./common.js";

export const HTACCESS = ".htaccess";

/** An Apache config string in double quotes, or null when it cannot be one. */
export function apacheString(text: string): string | null {
  if (/[\x00-\x1f\x7f\\]/.test(text)) return null;
  return `"${text.replace(/"/g, '\\"')}"`;
}

export class ApacheRules implements HostRules {
  constructor(private readonly ctx: HostContext) {}

  finish(): HostResult {
    return hostResult(this.ctx, "apache", [], 0, null, []);
  }
}
