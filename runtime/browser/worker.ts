// The validation page's worker: runs the same core the service runs, on the document the page hands over, and never
// sends it anywhere. Validator chunks are fetched on demand, for the document's model only.
import { MODELS, type Model } from "../core/report.js";
import { validateBytes, type ValidationOutcome } from "../core/validate.js";
import type { YamlValidationOutcome } from "../core/yaml.js";
import { ChunkNotLoaded, loadModel, loadSemantic } from "./validator-registry.js";
import { loadPack } from "./pack-registry.js";
import { activePacks, resolveSemanticRules } from "../core/semantic.js";
import type { ValidationRequest, WorkerMessage } from "./worker-protocol.js";

const scope = self as unknown as { onmessage: (event: MessageEvent<ValidationRequest>) => void; postMessage(message: WorkerMessage): void };

scope.onmessage = (event) => {
  validate(event.data).then(scope.postMessage.bind(scope), (error: unknown) =>
    scope.postMessage({ kind: "failure", message: error instanceof Error ? error.message : String(error) }),
  );
};

async function validate(request: ValidationRequest): Promise<WorkerMessage> {
  const bytes = new Uint8Array(request.bytes);
  const options = { level: request.level, rules: request.rules };
  // The YAML reader is a chunk of its own: JSON documents never fetch it.
  const validateYamlBytes = request.format === "yaml" ? (await import("../core/yaml.js")).validateYamlBytes : undefined;
  if (request.level === "full") {
    scope.postMessage({ kind: "progress", stage: "Loading the semantic rules…" });
    await loadSemantic();
    // The packs with an active rule (on by default, or named among the rules) are fetched before the run, which reads
    // them synchronously. Rules that do not resolve are left to the run, which reports them.
    const rules = resolveSemanticRules(request.rules);
    for (const name of rules.ok ? activePacks(rules.active) : []) {
      scope.postMessage({ kind: "progress", stage: `Loading the ${name} rule pack…` });
      await loadPack(name);
    }
  }
  const model = leadingModel(bytes);
  if (model !== undefined) {
    scope.postMessage({ kind: "progress", stage: `Loading the ${model} validators…` });
    await loadModel(model);
  }
  for (;;) {
    scope.postMessage({ kind: "progress", stage: "Validating…" });
    let outcome: ValidationOutcome | YamlValidationOutcome;
    try {
      outcome = validateYamlBytes !== undefined ? validateYamlBytes(bytes, options) : validateBytes(bytes, options);
    } catch (error) {
      // The model is certain only once the document is parsed: fetch that model's validators and run again.
      if (!(error instanceof ChunkNotLoaded) || error.chunk === "semantic") throw error;
      scope.postMessage({ kind: "progress", stage: `Loading the ${error.chunk} validators…` });
      await loadModel(error.chunk);
      continue;
    }
    return outcome.kind === "report" ? { kind: "report", report: outcome.report } : { kind: "error", error: outcome.error };
  }
}

const MODEL_NAMES: ReadonlySet<string> = new Set(MODELS);
/** The first key of a JSON or YAML document (OSCAL names its model first), at most a few hundred bytes in. */
const LEADING_KEY = /^\uFEFF?\s*(?:---\s*)?\{?\s*"?([a-z-]+)"?\s*:/;

/** The model a document most likely is, so that its validators load before, not after, a parse of the whole text. */
function leadingModel(bytes: Uint8Array): Model | undefined {
  const key = LEADING_KEY.exec(new TextDecoder().decode(bytes.subarray(0, 512)))?.[1];
  return key !== undefined && MODEL_NAMES.has(key) ? (key as Model) : undefined;
}
