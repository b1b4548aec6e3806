// What a refused write says, for unit suites that call the write modules directly: the status
// and description the error carries (whichever error class carries them).

export interface Refusal {
  status: number;
  description: string;
}

function asRefusal(e: unknown): Refusal {
  const x = e as { status?: unknown; description?: unknown; message?: unknown };
  if (typeof x?.status !== "number") throw e;
  return { status: x.status, description: String(x.description ?? x.message) };
}

/** The refusal `fn` throws; fails when it returns instead. */
export function refusal(fn: () => unknown): Refusal {
  try {
    fn();
  } catch (e) {
    return asRefusal(e);
  }
  throw new Error("expected a refusal, and the call succeeded");
}

/** The refusal `promise` rejects with; fails when it resolves instead. */
export async function rejection(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (e) {
    return asRefusal(e);
  }
  throw new Error("expected a refusal, and the call succeeded");
}

export const bytes = (text: string): Buffer => Buffer.from(text, "utf8");
