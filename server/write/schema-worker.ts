// The schema worker: compiles RELAX NG schemas and validates documents off the main thread,
// so an 18-second compile or a 200 ms validation never holds up the server's reads.

import { parentPort } from "node:worker_threads";
import { SchemaEngine } from "./schema-engine.js";

const engine = new SchemaEngine();

type Message =
  | { seq: number; op: "compile"; schema: string }
  | { seq: number; op: "validate"; schema: string; source: Uint8Array; url: string };

parentPort!.on("message", (m: Message) => {
  try {
    if (m.op === "compile") {
      engine.compile(m.schema);
      parentPort!.postMessage({ seq: m.seq, result: null });
    } else {
      parentPort!.postMessage({ seq: m.seq, result: engine.validate(m.schema, m.source, m.url) });
    }
  } catch (e) {
    parentPort!.postMessage({ seq: m.seq, error: e instanceof Error ? e.message : String(e) });
  }
});
