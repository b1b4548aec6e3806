// A real Apache (Debian's apache2, when installed) serving a built tree through the example
// site `dts build --target apache` writes (which includes its config snippet and RewriteMap
// program), with a `dts serve` as its upstream.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname, join } from "node:path";
import { freePort, rawRequest } from "./hosts-conformance.js";
import { PROJECT } from "./tree.js";

const MODULES = "/usr/lib/apache2/modules";

function apacheBinary(): string | null {
  for (const candidate of ["/usr/sbin/apache2", "apache2"]) {
    try {
      execFileSync(candidate, ["-v"], { stdio: "ignore" });
      return existsSync(join(MODULES, "mod_rewrite.so")) ? candidate : null;
    } catch {
      // not this one
    }
  }
  return null;
}

export const APACHE = apacheBinary();

/** True when every folder from the root down to `dir` lets other users through (o+x). */
function reachableByOthers(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (dirname(d) === d) return true;
  }
}
if (!APACHE) console.warn("apache2 is not installed (apt-get install apache2): skipping the Apache integration tests");

export interface RunningApache {
  url: string;
  /** Apache's error log, for a failure's message. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts Apache in `work` (its config, pid and log go there) on the example site of the tree `dist`. */
export async function startApache(work: string, dist: string): Promise<RunningApache> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Only what the snippet says it needs (mod_mime is not: the rules set the types).
  const modules = ["mpm_event", "authz_core", "rewrite", "headers", "proxy", "proxy_http"];
  const root = process.getuid?.() === 0;
  // As root, Apache's children run as nobody, and so does the map program when nobody can reach
  // this project (it imports the project's compiled code); a checkout inside a private folder
  // (`mktemp -d` is 0700) cannot be, and there the map runs as root.
  const own = `${userInfo().username}:${execFileSync("id", ["-gn"], { encoding: "utf8" }).trim()}`;
  const mapUser = !root ? own : reachableByOthers(PROJECT) ? "nobody:nogroup" : "root:root";
  // The example site as a user would copy it (it includes the snippet), on the test's address.
  const example = readFileSync(join(dist, "_hosts/apache/apache.conf.example"), "utf8").replace(
    "<VirtualHost *:80>",
    `<VirtualHost 127.0.0.1:${port}>`,
  );
  writeFileSync(
    join(work, "httpd.conf"),
    `ServerRoot ${work}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${join(work, "httpd.pid")}
DefaultRuntimeDir ${work}
DocumentRoot ${work}
ErrorLog ${join(work, "error.log")}
LogLevel warn ${process.env.DTS_APACHE_TRACE ? "rewrite:trace3" : ""}
${modules.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`).join("\n")}
${root ? "User nobody\nGroup nogroup" : ""}
Define DTS_MAP_USER ${mapUser}
<Directory />
    AllowOverride None
    Require all denied
</Directory>
${example}`,
  );
  let stderr = "";
  const log = (): string => {
    try {
      return stderr + readFileSync(join(work, "error.log"), "utf8");
    } catch {
      return stderr;
    }
  };
  const apache: ChildProcess = spawn(APACHE!, ["-f", join(work, "httpd.conf"), "-DFOREGROUND"], { stdio: ["ignore", "ignore", "pipe"] });
  apache.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; ; i++) {
    if (apache.exitCode !== null || i > 100) throw new Error(`apache did not start: ${log()}`);
    try {
      await rawRequest(url, "/__ready");
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    log,
    stop: async () => {
      if (apache.exitCode !== null) return;
      const exited = new Promise((r) => apache.once("exit", r));
      apache.kill("SIGTERM");
      await exited;
    },
  };
}
