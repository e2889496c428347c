// The committed rule-id table (rule-ids.tsv): stable ids for NIST constraint keys and our own rules.
// Ids are never renumbered; a constraint without an entry fails the build with the lines to append.
import { readFileSync } from "node:fs";

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

const RULE_ID = /^([A-Z]{2,4})-(\d{3})\.([a-z])$/;

/** An append-only id table: NIST's (the default) or a rule pack's. */
export function readRuleIdTable(file: URL | string = RULE_ID_TABLE): Map<string, string> {
  const label = typeof file === "string" ? file : file.pathname.split("/").slice(-1)[0]!;
  const text = readFileSync(file, "utf8");
  const table = new Map<string, string>();
  const ids = new Set<string>();
  for (const [n, line] of text.split("\n").entries()) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const [id, key, extra] = line.split("\t");
    if (!id || !key || extra !== undefined || !RULE_ID.test(id)) throw new Error(`${label}:${n + 1}: expected "<AREA>-<NNN>.<letter><TAB><constraint key>"`);
    if (ids.has(id)) throw new Error(`${label}:${n + 1}: duplicate rule id ${id}`);
    if (table.has(key)) throw new Error(`${label}:${n + 1}: duplicate key ${key}`);
    ids.add(id);
    table.set(key, id);
  }
  return table;
}

/**
 * Proposed table lines for keys without an id: constraints sharing a NIST id (e.g. an index and its
 * index-has-key) share a number and take successive letters; otherwise the next free number in the area.
 */
export function proposeRuleIds(missing: { key: string; area: string; group: string }[], table: ReadonlyMap<string, string>): string[] {
  const used = new Set(table.values());
  const nextNumber = new Map<string, number>();
  for (const id of used) {
    const m = RULE_ID.exec(id)!;
    nextNumber.set(m[1]!, Math.max(nextNumber.get(m[1]!) ?? 1, Number(m[2]) + 1));
  }
  const groupNumber = new Map<string, string>();
  const lines: string[] = [];
  for (const { key, area, group } of missing) {
    let prefix = groupNumber.get(`${area} ${group}`);
    if (!prefix) {
      const n = nextNumber.get(area) ?? 1;
      nextNumber.set(area, n + 1);
      prefix = `${area}-${String(n).padStart(3, "0")}`;
      groupNumber.set(`${area} ${group}`, prefix);
    }
    let letter = 0;
    while (used.has(`${prefix}.${String.fromCharCode(97 + letter)}`)) letter++;
    if (letter > 25) throw new Error(`no letter left for ${prefix}`);
    const id = `${prefix}.${String.fromCharCode(97 + letter)}`;
    used.add(id);
    lines.push(`${id}\t${key}`);
  }
  return lines;
}
