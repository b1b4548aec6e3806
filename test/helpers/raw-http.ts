// Bytes sent to a server exactly as written, for requests no HTTP client will send (a
// malformed header, a request line over the server's buffers), and the answer as read.

import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  /** Header names in lower case; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `bytes` to `base`'s host and port, and reads one answer: up to its Content-Length, or
 * until the server closes the connection (a server that refused a body may linger for it).
 */
export function exchange(base: string, bytes: string | Buffer): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    const parse = (): RawAnswer | null => {
      const split = received.indexOf("\r\n\r\n");
      if (split < 0) return null;
      const [statusLine, ...lines] = received.subarray(0, split).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = received.subarray(split + 4);
      const length = headers["content-length"] === undefined ? Number.POSITIVE_INFINITY : Number(headers["content-length"]);
      if (body.length < length && !socket.readableEnded) return null;
      return { status: Number(statusLine.split(" ")[1]), headers, body: body.toString("utf8") };
    };
    const settle = (): void => {
      const answer = parse();
      if (!answer) return;
      socket.destroy();
      resolve(answer);
    };
    socket.on("data", (c: Buffer) => {
      received = Buffer.concat([received, c]);
      settle();
    });
    socket.on("end", settle);
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`no complete answer: ${JSON.stringify(received.subarray(0, 200).toString("latin1"))}`)));
    socket.write(bytes);
  });
}
