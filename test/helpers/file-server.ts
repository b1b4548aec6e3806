// python3's http.server: the plain file server of the DTS 1.0 static profile tests (its
// Content-Types come from /etc/mime.types, Debian's media-types).

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { rawRequest } from "./hosts-conformance.js";

/**
 * Whether python3 can run http.server here with the types the static profile needs (they come
 * from /etc/mime.types, Debian's media-types).
 */
export const PYTHON = (() => {
  try {
    const check =
      "import http.server, mimetypes, sys; sys.exit(mimetypes.guess_type('a.jsonld')[0] != 'application/ld+json' or mimetypes.guess_type('a.tei')[0] != 'application/tei+xml')";
    execFileSync("python3", ["-c", check], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!PYTHON)
  console.warn(
    "python3 with /etc/mime.types (Debian's media-types) is not installed: skipping the static profile tests on python's http.server",
  );

export async function startPython(root: string, port: number): Promise<{ stop(): Promise<void> }> {
  const proc: ChildProcess = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", root], {
    stdio: "ignore",
  });
  for (let i = 0; i < 100; i++) {
    try {
      await rawRequest(`http://127.0.0.1:${port}`, "/");
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    stop: async () => {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill();
      await exited;
    },
  };
}
