// A query string read as browsers and URLSearchParams read it (application/x-www-form-urlencoded:
// `&`-separated pairs, `+` for a space, percent-escapes decoded as UTF-8), written out here so
// that every reader of a request decodes it with the same code: `dts serve`, the Worker, the
// edge function and nginx's JavaScript module, which has no URLSearchParams. Plain functions and
// loops only (njs 0.7 has no classes, destructuring, spread or for-of).

const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The pairs of a query (`?` optional), decoded, in order; repeated names stay repeated. */
export function queryPairs(search: string): [string, string][] {
  const text = search.charAt(0) === "?" ? search.slice(1) : search;
  const out: [string, string][] = [];
  const parts = text.split("&");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? "" : part.slice(eq + 1);
    out.push([formDecode(name), formDecode(value)]);
  }
  return out;
}

/** The first value of `name` in decoded pairs (as URLSearchParams.get), or null. */
export function firstValue(pairs: [string, string][], name: string): string | null {
  for (let i = 0; i < pairs.length; i++) if (pairs[i][0] === name) return pairs[i][1];
  return null;
}

/** One name or value: `+` is a space, `%hh` a byte (a `%` not followed by two hex digits stays), bytes read as UTF-8. */
export function formDecode(text: string): string {
  if (text.indexOf("%") < 0 && text.indexOf("+") < 0) return text;
  const source = new TextEncoder().encode(text);
  const bytes = new Uint8Array(source.length);
  let n = 0;
  for (let i = 0; i < source.length; i++) {
    const b = source[i];
    if (b === 0x2b) {
      bytes[n++] = 0x20;
    } else if (b === 0x25 && i + 2 < source.length && isHex(source[i + 1]) && isHex(source[i + 2])) {
      bytes[n++] = (hexValue(source[i + 1]) << 4) | hexValue(source[i + 2]);
      i += 2;
    } else {
      bytes[n++] = b;
    }
  }
  return utf8Decoder.decode(bytes.subarray(0, n));
}

function isHex(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

function hexValue(b: number): number {
  return b <= 0x39 ? b - 0x30 : (b | 0x20) - 0x61 + 10;
}

// And the other way: the parameters of the URLs the service writes.

/** Parameters of a URL, in their order; undefined ones are left out. */
export type UrlParams = [string, string | number | undefined][];

/**
 * `name=value` for each given parameter, its value encoded, after `lead` and joined by `sep`
 * ("" when none is given): a query (`?`, `&`) or RFC 6570 path parameters (`;`, `;`).
 */
export function paramString(params: UrlParams, encode: (value: string) => string, lead: string, sep: string): string {
  const parts: string[] = [];
  for (let i = 0; i < params.length; i++) {
    const value = params[i][1];
    if (value !== undefined) parts.push(`${params[i][0]}=${encode(String(value))}`);
  }
  return parts.length ? lead + parts.join(sep) : "";
}
