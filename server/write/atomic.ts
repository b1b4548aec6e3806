// Atomic replacement of a corpus file: a temporary file in the same folder, written and
// fsynced, renamed over the original, then the folder fsynced so the rename itself is
// durable. A crash at any point leaves the old file or the new one, never a torn one.

import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chmod, type FileHandle, mkdir, open, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { temporaryName } from "../../builder/metadata/walk.js";

export async function writeFileAtomic(path: string, data: Uint8Array): Promise<void> {
  // A corpus may link in texts kept elsewhere: the text itself is replaced, not the link (a
  // rename over the link would turn it into a copy and leave the linked text behind).
  const file = await realpath(path).catch(() => path);
  const folder = dirname(file);
  await mkdir(folder, { recursive: true });
  const temp = join(folder, temporaryName(basename(file), randomBytes(6).toString("hex")));
  let handle: FileHandle | null = null;
  try {
    handle = await open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = null;
    // Keep the permissions of the file being replaced.
    const mode = await stat(file).then(
      (s) => s.mode & 0o7777,
      () => null,
    );
    if (mode !== null) await chmod(temp, mode);
    await rename(temp, file);
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw e;
  }
  await syncFolder(folder);
}

async function syncFolder(folder: string): Promise<void> {
  let dir: FileHandle | null = null;
  try {
    dir = await open(folder, constants.O_RDONLY);
    await dir.sync();
  } catch {
    // Some platforms cannot fsync a folder; the rename is still atomic.
  } finally {
    await dir?.close().catch(() => undefined);
  }
}
