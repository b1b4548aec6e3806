// `Expect: 100-continue`: Node answers 100 by itself unless the server handles
// checkContinue. Here a client is told to send its body only when the write entry admits the
// request (token, origin, declared length); any other request is answered from its head
// (401, 403, 413, 429, 405...) and its body is never read.

import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { WriteService } from "./write/service.js";

export function continueOnlyIfAdmitted(server: Server, writes: WriteService): void {
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    let admitted = false;
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
      admitted = writes.admission.admits(url, headers, req.socket.remoteAddress ?? "");
    } catch {
      // An unparsable target: the app answers it without the body.
    }
    if (admitted) res.writeContinue();
    server.emit("request", req, res);
  });
}
