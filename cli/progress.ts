// A progress bar on a terminal, shown only once a task has run for a second.

import type { WriteStream } from "node:tty";

export interface ProgressBar {
  update: (done: number, total: number) => void;
  done: () => void;
}

export function progressBar(stream: NodeJS.WriteStream | WriteStream, unit: string): ProgressBar | null {
  if (!stream.isTTY) return null;
  const started = Date.now();
  let shown = false;
  let last = 0;
  return {
    update(done, total) {
      const now = Date.now();
      if (now - started < 1000 || (now - last < 100 && done < total)) return;
      last = now;
      shown = true;
      const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 30));
      const filled = total ? Math.round((done / total) * width) : width;
      stream.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} ${unit}`);
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}
