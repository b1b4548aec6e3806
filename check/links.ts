// The Link header (RFC 8288) as the crawler needs it: each target, resolved against the
// answer's URL, with its relations.

export interface Link {
  target: string;
  rels: string[];
}

/** Every `<target>; rel="a b"` of a Link header; targets resolved against `base`. */
export function parseLinks(header: string | null, base: string): Link[] {
  const out: Link[] = [];
  for (const m of (header ?? "").matchAll(/<([^>]*)>((?:\s*;\s*[^;,<]+(?:="[^"]*"|=[^;,]*)?)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(m[2]);
    if (!rel) continue;
    let target: string;
    try {
      target = new URL(m[1], base).href;
    } catch {
      target = m[1];
    }
    out.push({ target, rels: (rel[1] ?? rel[2]).trim().split(/\s+/) });
  }
  return out;
}

/** The target of the first link with relation `rel`, or undefined. */
export function linkTarget(links: Link[], rel: string): string | undefined {
  return links.find((l) => l.rels.includes(rel))?.target;
}
