// A write's body, built from what a GET gave: the TEI root and the `dts:fragment` start tag
// as they came (with the namespaces in scope declared on it), the editor's text inside.

export interface Wrapping {
  before: string;
  after: string;
}

export function splitPassage(xml: string): { wrapping: Wrapping; content: string } | null {
  const open = /<([A-Za-z_][\w.-]*:)?fragment\b[^>]*>/.exec(xml);
  if (!open) return null;
  const start = open.index + open[0].length;
  const close = xml.lastIndexOf(`</${open[1] ?? ""}fragment>`);
  if (close < start) return null;
  return { wrapping: { before: `${xml.slice(0, start)}\n`, after: `\n${xml.slice(close)}` }, content: xml.slice(start, close) };
}

export const wrap = (w: Wrapping, content: string): string => w.before + content + w.after;

/** Lines of the body before the editor's first line. */
export const linesBefore = (w: Wrapping): number => w.before.split("\n").length - 1;

/** A new passage to start from: an empty element of the kind of `content`'s first one. */
export function newPassageTemplate(content: string): string {
  const name = /<([A-Za-z_][\w.:-]*)/.exec(content)?.[1] ?? "l";
  return `<${name} n=""></${name}>`;
}
