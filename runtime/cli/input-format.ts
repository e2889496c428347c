// Which parser an input goes to: JSON files to the core's byte entry point, YAML files to the core's YAML entry point.
import { validateBytes, type ValidateOptions, type ValidationOutcome } from "../core/validate.js";

export type InputFormat = "json" | "yaml";

export const INPUT_FORMATS: readonly InputFormat[] = ["json", "yaml"];

/** Extensions a directory walk picks up. */
export const DISCOVERED_EXTENSIONS: readonly string[] = [".json", ".yaml", ".yml"];

export function inputFormatOf(file: string): InputFormat {
  return /\.ya?ml$/i.test(file) ? "yaml" : "json";
}

/** The core entry point for a format, or undefined where the core has none yet. */
export function coreEntryPoint(format: InputFormat): ((bytes: Uint8Array, options: ValidateOptions) => ValidationOutcome) | undefined {
  // YAML: route to the core's YAML entry point once it exists (the one change YAML input needs here).
  return format === "json" ? validateBytes : undefined;
}
