// A real nginx (when installed) serving a built tree with the rules `dts build --host nginx`
// wrote, and a `dts serve` as its upstream.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, rawRequest } from "./hosts-conformance.js";

function nginxBinary(): string | null {
  for (const candidate of ["nginx", "/usr/sbin/nginx"]) {
    try {
      execFileSync(candidate, ["-v"], { stdio: "ignore" });
      return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** nginx's JavaScript module (Debian: libnginx-mod-http-js), which the generated rules need. */
export const NJS_MODULE = "/usr/lib/nginx/modules/ngx_http_js_module.so";

export const NGINX = existsSync(NJS_MODULE) ? nginxBinary() : null;
if (nginxBinary() && !NGINX)
  console.warn(
    `nginx's JavaScript module is not installed (apt-get install libnginx-mod-http-js; ${NJS_MODULE}): skipping the nginx tests`,
  );

export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

function readLog(work: string): string {
  try {
    return readFileSync(join(work, "error.log"), "utf8");
  } catch {
    return "";
  }
}

async function waitForPort(port: number, proc: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) throw new Error(`nginx exited (${proc.exitCode}): ${log()}`);
    try {
      await rawRequest(`http://127.0.0.1:${port}`, "/__ready");
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`nginx did not listen on ${port}: ${log()}`);
}

/**
 * Starts nginx in `work` (its config, pid, logs and temp folders go there) over the tree `dist`:
 * a server block that includes the rules, or (`example`) the generated nginx.conf.example as a
 * user would copy it, with only its listen address and upstream changed.
 */
export async function startNginx(
  work: string,
  dist: string,
  upstreamUrl: string,
  options: { example?: boolean; port?: number } = {},
): Promise<RunningNginx> {
  mkdirSync(work, { recursive: true });
  const port = options.port ?? (await freePort());
  const rules = join(dist, "_hosts/nginx");
  const upstream = `upstream dts_dynamic { server ${new URL(upstreamUrl).host}; keepalive 4; }`;
  const site = options.example
    ? readFileSync(join(rules, "nginx.conf.example"), "utf8")
        .replace(/^include .*dts-upstream\.conf";$/m, upstream)
        .replace(/^ {4}listen 80;$/m, `    listen 127.0.0.1:${port};`)
    : `${upstream}
    include ${join(rules, "dts-http.conf")};
    server {
        listen 127.0.0.1:${port};
        include ${join(rules, "dts-locations.conf")};
    }`;
  return launch(work, port, site, true);
}

/** The binary of a plain nginx (no JavaScript module needed): the file server of the static profile tests. */
export const PLAIN_NGINX = nginxBinary();

/**
 * A plain nginx serving `root` as files, with no rule but the two types its own mime.types
 * lacks (what a user adds for the DTS 1.0 static profile; docs/deploy.md says so), and any
 * `directives` of the server block.
 */
export async function startPlainNginx(work: string, root: string, port?: number, directives = ""): Promise<RunningNginx> {
  mkdirSync(work, { recursive: true });
  port ??= await freePort();
  const site = `include /etc/nginx/mime.types;
    types { application/ld+json jsonld; application/tei+xml tei; }
    server { listen 127.0.0.1:${port}; root ${root}; ${directives} }`;
  return launch(work, port, site, false);
}

async function launch(work: string, port: number, site: string, njs: boolean): Promise<RunningNginx> {
  const temp = (name: string): string => `${name}_temp_path ${join(work, name)};`;
  writeFileSync(
    join(work, "nginx.conf"),
    `${njs ? `load_module ${NJS_MODULE};` : ""}
daemon off;
worker_processes 1;
pid ${join(work, "nginx.pid")};
error_log ${join(work, "error.log")} warn;
${process.getuid?.() === 0 ? "user root root;" : ""}
events { worker_connections 128; }
http {
    access_log off;
    ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n    ")}
    ${site}
}
`,
  );
  let stderr = "";
  const nginx = spawn(nginxBinary()!, ["-p", work, "-c", join(work, "nginx.conf"), "-e", join(work, "error.log")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  nginx.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  await waitForPort(port, nginx, () => stderr + readLog(work));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (nginx.exitCode !== null) return;
      const exited = new Promise((r) => nginx.once("exit", r));
      nginx.kill("SIGQUIT");
      await exited;
    },
  };
}
