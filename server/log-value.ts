// Request values in log lines: JSON-quoted, with every character that could end a line or
// mislead a reader escaped too (C1 controls, U+2028/U+2029, bidi overrides), so a request can
// never forge a line of the log.

export function logValue(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
