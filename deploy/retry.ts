// Retries with exponential backoff and jitter, for what a store may fail once and answer the
// next time (a dropped connection, 500, 503, 429); an answer such as 403 or 404 is final.

export interface RetryOptions {
  attempts: number;
  /** The first wait; each next one doubles, with jitter. */
  baseMs: number;
}

export const RETRY_DEFAULTS: RetryOptions = { attempts: 4, baseMs: 250 };

/** The HTTP status an error carries (the AWS SDK's $metadata, or a status field), if any. */
function statusOf(e: unknown): number | undefined {
  const err = e as { $metadata?: { httpStatusCode?: number }; status?: number; statusCode?: number };
  return err?.$metadata?.httpStatusCode ?? err?.status ?? err?.statusCode;
}

export function retryable(e: unknown): boolean {
  const status = statusOf(e);
  return status === undefined || status === 429 || status >= 500;
}

export async function withRetries<T>(task: () => Promise<T>, o: RetryOptions = RETRY_DEFAULTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (e) {
      if (attempt >= o.attempts || !retryable(e)) throw e;
      const wait = o.baseMs * 2 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, wait / 2 + Math.random() * wait));
    }
  }
}
