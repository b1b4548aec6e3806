// What a reader of the tree forgets after a rebuild, for the write API and the watcher alike
// (the rule itself is the workspace's staleAfter).

import type { Stale } from "../../builder/build/workspace.js";
import type { TreeReader } from "../reader.js";

export function forgetStale(reader: TreeReader, stale: Stale): void {
  if (stale === "all") reader.invalidate();
  // The catalogue did not change: collectionsChanged would have made it "all".
  else reader.invalidateDocument(stale.id, { navigation: stale.keepNavigation, catalog: true });
}
