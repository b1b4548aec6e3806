// The entry of a write, decided from the request's head alone, before any of its body is
// read: the page's origin, the client's recent wrong tokens, the token, the declared length.
// A refused body is never read (the connection is closed instead), and a client that asked
// `Expect: 100-continue` gets no 100 for a request that will be refused.

import { DtsError } from "../../builder/error.js";
import { crossOriginRefusal, type MethodPolicy } from "../cors.js";
import { checkToken } from "./auth.js";
import { FailureLimiter } from "./rate-limit.js";

/** Shorter tokens are refused at start: they can be guessed. */
export const MIN_TOKEN_LENGTH = 16;

/** Why a token cannot be used, or null when it can. */
export function tokenProblem(token: string): string | null {
  if (token.length >= MIN_TOKEN_LENGTH) return null;
  return `DTS_TOKEN is ${token.length} characters long; a write token needs at least ${MIN_TOKEN_LENGTH} so that it cannot be guessed. Make one with \`openssl rand -hex 24\`.`;
}

export interface AdmissionOptions {
  /** The token writes must carry; undefined when writes are not enabled. */
  token?: string;
  maxBody: number;
  policy: MethodPolicy;
  docsPage: string;
}

export class WriteAdmission {
  readonly limiter = new FailureLimiter();

  constructor(private readonly options: AdmissionOptions) {}

  /** The 413 of a body over the limit, declared or found while reading. */
  tooLarge = (limit: number): DtsError =>
    new DtsError(
      413,
      `The body is larger than this server accepts (${limit} bytes). Send one passage or a few at a time; the limit is set with dts serve --max-body. See ${this.options.docsPage}#body-size.`,
      // The rest of the body is not read: the connection cannot carry another request.
      { headers: { Connection: "close" } },
    );

  /** Throws the request's refusal, counting a wrong token against its client address. */
  admit(url: URL, headers: Headers, client: string): void {
    const refused = this.refusal(url, headers, client);
    if (!refused) return;
    if (refused.wrongToken) this.limiter.fail(client);
    throw refused.error;
  }

  /** Whether the request gets past the entry (nothing counted): only then is a 100 Continue sent. */
  admits(url: URL, headers: Headers, client: string): boolean {
    return this.refusal(url, headers, client) === null;
  }

  private refusal(url: URL, headers: Headers, client: string): { error: DtsError; wrongToken: boolean } | null {
    const { token, maxBody, policy } = this.options;
    const foreign = crossOriginRefusal(policy, headers);
    if (foreign) return { error: new DtsError(403, foreign), wrongToken: false };
    const wait = this.limiter.retryAfter(client);
    if (wait > 0) {
      const error = new DtsError(429, `Too many writes with a wrong token from this address; try again in ${wait} s.`, {
        headers: { "Retry-After": String(wait) },
      });
      return { error, wrongToken: false };
    }
    const error = checkToken(token, url, headers);
    // Only a token that was given counts as a guess.
    if (error) return { error, wrongToken: token !== undefined && error.status === 403 };
    const declared = headers.get("content-length");
    if (declared !== null && Number(declared) > maxBody) return { error: this.tooLarge(maxBody), wrongToken: false };
    return null;
  }
}
