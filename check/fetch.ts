// Bounded HTTP for the crawler: a timeout per request, a cap on body size, and at most N
// requests in flight, so checking a large or misbehaving service stays polite and finite.
// Answers to GET are remembered per URL: links and templates often name the same resource.

import { concatBytes } from "../builder/bytes.js";

export interface Answer {
  url: string;
  /** 0 when no HTTP answer came (network error, timeout, body too large): see `error`. */
  status: number;
  headers: Headers;
  body: string;
  error?: string;
}

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  concurrency: number;
}

export type Get = (url: string, init?: { method?: string; headers?: Record<string, string> }) => Promise<Answer>;

/** A GET (or other method) with the limits applied; never throws. */
export function boundedFetch(limits: FetchLimits): Get {
  const slots = semaphore(limits.concurrency);
  const cache = new Map<string, Promise<Answer>>();
  const run = (url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> =>
    slots(() => fetchOnce(url, init, limits));
  return (url, init) => {
    if (init?.method && init.method !== "GET") return run(url, init);
    const key = `${url} ${JSON.stringify(init?.headers ?? {})}`;
    let answer = cache.get(key);
    if (!answer) cache.set(key, (answer = run(url, init)));
    return answer;
  };
}

async function fetchOnce(url: string, init: { method?: string; headers?: Record<string, string> }, limits: FetchLimits): Promise<Answer> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { method: init.method ?? "GET", headers: init.headers, signal, redirect: "follow" });
  } catch (e) {
    return failed(url, signal.aborted ? `no answer within ${limits.timeoutMs} ms` : describe(e));
  }
  try {
    const bytes = await readCapped(response, limits.maxBytes);
    if (bytes === null) return failed(url, `body larger than ${limits.maxBytes} bytes`, response);
    return { url, status: response.status, headers: response.headers, body: new TextDecoder().decode(bytes) };
  } catch (e) {
    return failed(url, signal.aborted ? `body not received within ${limits.timeoutMs} ms` : describe(e), response);
  }
}

function failed(url: string, error: string, response?: Response): Answer {
  return { url, status: 0, headers: response?.headers ?? new Headers(), body: "", error };
}

/** The body's bytes, or null past `max` (the stream is cancelled then, not read to its end). */
async function readCapped(response: Response, max: number): Promise<Uint8Array | null> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}

/** Runs at most `n` tasks at once, the others queued in order. */
function semaphore(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
