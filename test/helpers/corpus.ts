// The shared real-world corpus: ../shared/corpus next to the repository (OSCAL_CORPUS_DIR overrides), one directory per
// model, each document's root model being the directory it sits in.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../compiler/paths.js";
import { MODELS, type Model } from "../../runtime/core/report.js";

export { repoRoot };

export function corpusDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(repoRoot, env.OSCAL_CORPUS_DIR ?? "../shared/corpus");
}

export interface CorpusDocument {
  model: Model;
  /** Path relative to the corpus directory, with "/" separators: "catalog/basic.json". */
  file: string;
  absolutePath: string;
  size: number;
}

/** Every *.json document of the corpus, sorted by file, so that runs and seeded samples are reproducible. */
export function listCorpus(dir: string = corpusDir()): CorpusDocument[] {
  const documents: CorpusDocument[] = [];
  for (const model of MODELS) {
    const modelDir = path.join(dir, model);
    let names: string[];
    try {
      names = readdirSync(modelDir);
    } catch {
      continue;
    }
    for (const name of names.filter((entry) => entry.endsWith(".json"))) {
      const absolutePath = path.join(modelDir, name);
      documents.push({ model, file: `${model}/${name}`, absolutePath, size: statSync(absolutePath).size });
    }
  }
  return documents.sort((a, b) => a.file.localeCompare(b.file));
}

export function readCorpusBytes(document: CorpusDocument): Uint8Array {
  return readFileSync(document.absolutePath);
}
