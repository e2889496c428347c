// The validation page's worker: runs the same core the service runs, on the document the page hands over, and never
// sends it anywhere. Validator chunks are fetched on demand, for the document's model only.
import { validateBytes, type ValidationOutcome } from "../core/validate.js";
import type { YamlValidationOutcome } from "../core/yaml.js";
import { ChunkNotLoaded, loadModel, loadSemantic } from "./validator-registry.js";
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
  }
  for (;;) {
    scope.postMessage({ kind: "progress", stage: "Validating…" });
    let outcome: ValidationOutcome | YamlValidationOutcome;
    try {
      outcome = validateYamlBytes !== undefined ? validateYamlBytes(bytes, options) : validateBytes(bytes, options);
    } catch (error) {
      // The document's model is known only once it is parsed: fetch that model's validators and run again.
      if (!(error instanceof ChunkNotLoaded) || error.chunk === "semantic") throw error;
      scope.postMessage({ kind: "progress", stage: `Loading the ${error.chunk} validators…` });
      await loadModel(error.chunk);
      continue;
    }
    return outcome.kind === "report" ? { kind: "report", report: outcome.report } : { kind: "error", error: outcome.error };
  }
}
