// SARIF 2.1.0 output for code-scanning tools: one run, one result per finding, located by file and JSON Pointer.
import type { ValidationReport } from "../core/report.js";

export interface FileOutcome {
  file: string;
  report?: ValidationReport;
  /** `resolution`: a next step specific to the cause, where there is one. */
  error?: { code: string; detail: string; resolution?: string };
}

const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

export function toSarif(outcomes: readonly FileOutcome[], toolVersion: string): object {
  const rules = new Map<string, { id: string; shortDescription: { text: string } }>();
  const results: object[] = [];
  const locate = (file: string, pointer?: string) => [
    {
      physicalLocation: { artifactLocation: { uri: file } },
      ...(pointer !== undefined ? { logicalLocations: [{ fullyQualifiedName: pointer === "" ? "/" : pointer, kind: "element" }] } : {}),
    },
  ];
  for (const outcome of outcomes) {
    if (outcome.error) {
      rules.set(outcome.error.code, { id: outcome.error.code, shortDescription: { text: "The input could not be validated" } });
      results.push({ ruleId: outcome.error.code, level: "error", message: { text: outcome.error.detail }, locations: locate(outcome.file) });
      continue;
    }
    for (const issue of outcome.report!.issues) {
      if (!rules.has(issue.ruleId)) rules.set(issue.ruleId, { id: issue.ruleId, shortDescription: { text: `OSCAL ${issue.keyword} rule` } });
      results.push({
        ruleId: issue.ruleId,
        level: issue.severity === "error" ? "error" : "warning",
        message: { text: issue.message },
        locations: locate(outcome.file, issue.path),
        properties: { jsonPointer: issue.path, keyword: issue.keyword },
      });
    }
  }
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [{ tool: { driver: { name: "oscal-validate", version: toolVersion, rules: [...rules.values()] } }, results }],
  };
}
