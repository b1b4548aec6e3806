// The one error type: what went wrong, as the API says it (a status, its title, a description
// for the reader, headers to send with it) and, for errors in a file, where. Raised anywhere
// (request parsing, selection, the write API, the build); rendered for its endpoint by
// `renderError` (render/response.ts), and printed by the CLI with `formatLocation`.

/** A place in a file; line and column when known. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

/** `file:line:column` (as far as known): how every message names a place in a file. */
export function formatLocation(l: SourceLocation): string {
  return `${l.file}${l.line ? `:${l.line}${l.column ? `:${l.column}` : ""}` : ""}`;
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  499: "Client Closed Request",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The standard title of a status. */
export function reason(status: number): string {
  return REASONS[status] ?? "Error";
}

export interface DtsErrorOptions {
  /** The title of the error body (default: the status's standard title). */
  title?: string;
  /** Headers sent with the answer (Retry-After, Connection: close, WWW-Authenticate...). */
  headers?: Record<string, string>;
  /** The file (and line, column) the error is in, for errors in the corpus or the tree. */
  location?: SourceLocation;
}

export class DtsError extends Error {
  readonly title: string;
  readonly headers: Record<string, string>;
  readonly location?: SourceLocation;

  constructor(
    readonly status: number,
    /** What is wrong, for the reader of the answer, without the place (see `location`). */
    readonly description: string,
    options: DtsErrorOptions = {},
  ) {
    super(options.location ? `${formatLocation(options.location)}: ${description}` : description);
    this.title = options.title ?? reason(status);
    this.headers = options.headers ?? {};
    this.location = options.location;
  }
}
