// A Worker's fetch handler over an app built once per isolate from its bindings; a failed
// build (the tree unreadable) is not kept, so the next request tries again.

import type { Hono } from "hono";

export function workerHandler<Env>(makeApp: (env: Env) => Promise<Hono>): { fetch(request: Request, env: Env): Promise<Response> } {
  let app: Promise<Hono> | null = null;
  return {
    async fetch(request, env) {
      app ??= makeApp(env).catch((e) => {
        app = null;
        throw e;
      });
      return (await app).fetch(request);
    },
  };
}
