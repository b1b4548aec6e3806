// `dts check`: what a build would say of a corpus, without writing a tree. The catalogue is
// loaded and every document read as the build reads it, so the warnings are the build's.

import type { Warning } from "../catalog.js";
import { loadDocuments } from "../metadata/load.js";
import { readBytesOr } from "../read-files.js";
import { documentTask, readText } from "./document-output.js";

export interface CheckReport {
  documents: number;
  /** Documents with a metadata record but no readable text. */
  withoutText: number;
  passages: number;
  warnings: Warning[];
  seconds: number;
}

export async function checkCorpus(corpus: string): Promise<CheckReport> {
  const started = performance.now();
  const { catalog, resources } = await loadDocuments(corpus);
  const warnings = [...catalog.warnings];
  let passages = 0;
  let withoutText = 0;
  for (const resource of resources) {
    const task = documentTask(corpus, resource);
    const { text } = readText(task, readBytesOr(task.file), warnings);
    if (text) passages += text.units.length;
    else withoutText++;
  }
  return { documents: resources.length, withoutText, passages, warnings, seconds: (performance.now() - started) / 1000 };
}
