// NIST's committed rule-id table (rule-ids.tsv: stable ids for NIST constraint keys and our own rules), the area
// code of each metaschema module, and the rules that are off by default (default-off.tsv).
import { readFileSync } from "node:fs";
import { readRuleIdTable, RULE_ID } from "../metaschema/rule-ids.js";

const RULE_ID_TABLE = new URL("./rule-ids.tsv", import.meta.url);
const DEFAULT_OFF_TABLE = new URL("./default-off.tsv", import.meta.url);

/** Rules available but not active by default: rule id → why. */
export function readDefaultOff(): Map<string, string> {
  const text = readFileSync(DEFAULT_OFF_TABLE, "utf8");
  const out = new Map<string, string>();
  for (const [n, line] of text.split("\n").entries()) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const [id, reason] = line.split("\t");
    if (!id || !RULE_ID.test(id) || !reason) throw new Error(`default-off.tsv:${n + 1}: expected "<rule id><TAB><reason>"`);
    out.set(id, reason);
  }
  return out;
}

/** Area code by metaschema module (where the constraint is declared); "ours" rules are DOC. */
export const AREAS: Record<string, string> = {
  oscal_metadata: "MET",
  "oscal_control-common": "CTL",
  oscal_catalog: "CAT",
  oscal_profile: "PRF",
  oscal_component: "CMP",
  "oscal_implementation-common": "IMP",
  oscal_ssp: "SSP",
  "oscal_assessment-common": "ASC",
  "oscal_assessment-plan": "AP",
  "oscal_assessment-results": "AR",
  oscal_poam: "POA",
  "oscal_mapping-common": "MAP",
  oscal_mapping: "MAP",
  ours: "DOC",
};

/** NIST's table. */
export function readNistRuleIds(): Map<string, string> {
  return readRuleIdTable(RULE_ID_TABLE);
}
