// Which parser an input goes to: JSON files to the core's byte entry point, YAML files to the core's YAML entry point.
// The YAML parser is loaded only when a YAML input comes: it takes longer to load than a JSON file takes to validate.
import { validateBytes, type ValidateOptions } from "../core/validate.js";
import type { YamlValidationOutcome } from "../core/yaml.js";

export type InputFormat = "json" | "yaml";

export const INPUT_FORMATS: readonly InputFormat[] = ["json", "yaml"];

/** Extensions a directory walk picks up. */
export const DISCOVERED_EXTENSIONS: readonly string[] = [".json", ".yaml", ".yml"];

export function inputFormatOf(file: string): InputFormat {
  return /\.ya?ml$/i.test(file) ? "yaml" : "json";
}

/** The core words its UTF-8 and JSON details for HTTP clients ("The body is not ..."); a CLI user handed in a file. */
export function asFileDetail(detail: string): string {
  return detail.replace(/^The (?:body|text) is not/, "Not");
}

/** The core entry point for a format (a JSON outcome is a YAML outcome without YAML's own body errors). */
export async function coreEntryPoint(format: InputFormat): Promise<(bytes: Uint8Array, options: ValidateOptions) => YamlValidationOutcome> {
  return format === "yaml" ? (await import("../core/yaml.js")).validateYamlBytes : validateBytes;
}
