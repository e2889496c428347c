// The node view of a small hand-made rule pack, for the tests of the pack code emitter: an SSP whose metadata holds
// parties and whose components hold props.
import type { SourcePack } from "../../compiler/packs/emit/module.js";

// system-security-plan → metadata → parties; components → props.
export const SMALL_PACK_DEFINITIONS: SourcePack["definitions"] = [
  ["a", [["uuid", "uuid"]], [["metadata", "metadata", 1], ["component", "components", 2]]],
  ["a", [], [["party", "parties", 3]]],
  ["a", [["uuid", "uuid"], ["type", "type"]], [["prop", "props", 4]]],
  ["a", [["uuid", "uuid"]], []],
  ["a", [["name", "name"], ["value", "value"]], []],
];
