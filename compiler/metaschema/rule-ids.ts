// Rule-id tables: append-only TSV files mapping constraint keys to stable ids (AREA-NNN.letter), NIST's and each
// rule pack's. Ids are never renumbered; a constraint without an entry fails the build with the lines to append.
import { readFileSync } from "node:fs";

export const RULE_ID = /^([A-Z]{2,4})-(\d{3})\.([a-z])$/;

/** An append-only id table: NIST's or a rule pack's. */
export function readRuleIdTable(file: URL | string): Map<string, string> {
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
