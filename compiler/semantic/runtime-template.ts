// Plain-JavaScript helpers copied verbatim into generated/semantic.cjs (which must have no imports).
// Kept as source text, not live functions, so the emitted module never depends on how this file is transpiled.

export const RUNTIME_HELPERS = String.raw`
// Path stack (JSON Pointer segments of the node being checked) and per-run state.
const P = [];
let PL = 0;
let FINDINGS = [];
let A = null; // A[ruleIndex] === 1 when the rule is active

function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
function isAtom(v) { return typeof v === "string" || typeof v === "number" || typeof v === "boolean"; }
function AT(v) { return isAtom(v) ? v : undefined; }
function AS(v) { return isAtom(v) ? String(v) : undefined; }
function HAS(v) { return v !== undefined && v !== null && (!Array.isArray(v) || v.length > 0); }
function SEQ(v) { return v === undefined ? [] : [v]; }
function NE(a, b) { return a !== undefined && a !== b; }
function SW(v, prefix) { return v === undefined ? prefix === "" : String(v).startsWith(prefix); }

// General comparison: true when some pair of atomised values satisfies the operator.
function CMP1(op, a, b) {
  if (typeof a !== "number" || typeof b !== "number") { a = String(a); b = String(b); }
  switch (op) {
    case "=": return a === b;
    case "!=": return a !== b;
    case "<": return a < b;
    case "<=": return a <= b;
    case ">": return a > b;
    default: return a >= b;
  }
}
function CMPG(op, left, right) {
  for (let i = 0; i < left.length; i++) for (let j = 0; j < right.length; j++) if (CMP1(op, left[i], right[j])) return true;
  return false;
}

// Index keys: one string per node, or null when every key field is empty (such nodes are not indexed).
function KEY1(v) { return v === undefined || v === null ? null : v; }
function KEYN(parts) {
  let any = false;
  for (let i = 0; i < parts.length; i++) if (parts[i] !== undefined && parts[i] !== null) any = true;
  return any ? parts.map((p) => (p === undefined || p === null ? "\u0000" : p)).join("\u001f") : null;
}
// key-field/@pattern: the key is the first capturing group of a full match.
function KEYPAT(re, v) {
  if (v === undefined) return null;
  const m = re.exec(v);
  return m === null || m[1] === undefined || m[1] === "" ? null : m[1];
}

// Short excerpt of document content for messages (never more than ~80 characters).
function EX(v) {
  let s = String(v);
  if (s.length > 80) s = s.slice(0, 77) + "...";
  return JSON.stringify(s);
}
function LIST(values) {
  const shown = values.slice(0, 12).map((v) => JSON.stringify(v)).join(", ");
  return values.length > 12 ? shown + ", ... (" + (values.length - 12) + " more)" : shown;
}

function REPORT(rule, message) {
  FINDINGS.push({ r: rule, p: P.slice(0, PL), m: message });
}
function REPORT_AT(rule, path, message) {
  FINDINGS.push({ r: rule, p: path, m: message });
}

// allowed-values that share a target node: a value passes when any applicable constraint enumerates it,
// or when every applicable constraint allows other values (Metaschema union semantics). Nodes are
// identified by (container, key); matches are remembered per key, misses are kept for the final verdict
// (with their path only when the constraint is strict: only strict misses are ever reported).
let AVOK = null; // key → Set of containers whose value at that key matched some constraint
let AVP = null; // misses: rule, container, key, value, path (null for allow-other constraints)
let AV_LAST_CONTAINER = null; // the node last recorded as matched: constraints sharing a loop check it in a row
let AV_LAST_KEY = null;
function AVU(rule, ok, container, key, value) {
  if (ok) {
    if (container === AV_LAST_CONTAINER && key === AV_LAST_KEY) return;
    AV_LAST_CONTAINER = container;
    AV_LAST_KEY = key;
    let matched = AVOK.get(key);
    if (matched === undefined) { matched = new Set(); AVOK.set(key, matched); }
    matched.add(container);
    return;
  }
  const matched = AVOK.get(key);
  if (matched === undefined || !matched.has(container)) AVP.push(rule, container, key, value, AV_ALLOW_OTHER[rule] ? null : P.slice(0, PL));
}
function AV_FINISH() {
  // Nodes with an unmatched strict miss, then every constraint that missed them (in the order they ran).
  let misses = null; // container → key → { rules, value, path }
  for (let i = 0; i < AVP.length; i += 5) {
    if (AVP[i + 4] === null) continue;
    const container = AVP[i + 1];
    const key = AVP[i + 2];
    const matched = AVOK.get(key);
    if (matched !== undefined && matched.has(container)) continue;
    if (misses === null) misses = new Map();
    let byKey = misses.get(container);
    if (byKey === undefined) { byKey = new Map(); misses.set(container, byKey); }
    if (!byKey.has(key)) byKey.set(key, { rules: [], value: AVP[i + 3], path: AVP[i + 4] });
  }
  if (misses === null) return;
  for (let i = 0; i < AVP.length; i += 5) {
    const byKey = misses.get(AVP[i + 1]);
    const miss = byKey === undefined ? undefined : byKey.get(AVP[i + 2]);
    if (miss !== undefined && miss.rules.indexOf(AVP[i]) < 0) miss.rules.push(AVP[i]);
  }
  for (const byKey of misses.values()) {
    for (const miss of byKey.values()) {
      let strict = -1;
      let allowed = [];
      const ids = [];
      for (let j = 0; j < miss.rules.length; j++) {
        const r = miss.rules[j];
        if (strict < 0 && !AV_ALLOW_OTHER[r]) strict = r;
        allowed = allowed.concat(AV_VALUES[r]);
        ids.push(SOURCE[r]);
      }
      allowed = Array.from(new Set(allowed)).sort();
      REPORT_AT(strict, miss.path, "Value " + EX(miss.value) + " is not allowed for " + AV_TARGET[strict] + "; allowed: " + LIST(allowed) + " [" + ids.join(", ") + "]");
    }
  }
}

// index-has-key references are resolved after the walk, when every index is complete.
let REFS = null;
function REF(rule, index, key, label) {
  if (key !== null && index.has(key)) return;
  REFS.push(rule, index, key, P.slice(0, PL), label);
}
function REFS_FINISH() {
  for (let i = 0; i < REFS.length; i += 5) {
    const index = REFS[i + 1];
    const key = REFS[i + 2];
    if (key !== null && index.has(key)) continue;
    REPORT_AT(REFS[i], REFS[i + 3], REFS[i + 4] + (key === null ? " (empty key)" : " " + EX(key)) + " [" + SOURCE[REFS[i]] + "]");
  }
}

// Fragment links (#id) must name an id or uuid declared in the document.
let HREFS = null;
let IDS = null;
let UUIDS = null;
let PARAM_IDS = null;
function HREFS_FINISH(rule) {
  // A link already reported by a NIST index-has-key (at the link, the href's parent) is not reported twice.
  let reported = null;
  for (let i = 0; i < HREFS.length; i += 2) {
    let fragment = HREFS[i];
    if (IDS.has(fragment)) continue;
    try { fragment = decodeURIComponent(fragment); } catch (e) { /* keep the raw fragment */ }
    if (IDS.has(fragment)) continue;
    if (reported === null) {
      reported = new Set();
      for (let j = 0; j < FINDINGS.length; j++) reported.add(POINTER(FINDINGS[j].p));
    }
    if (!reported.has(POINTER(HREFS[i + 1].slice(0, -1)))) REPORT_AT(rule, HREFS[i + 1], "Link target " + EX("#" + HREFS[i]) + " does not match any id or uuid in this document");
  }
}

// Findings in document order: compare the positions of their paths (array index or property order).
function ORDER(doc, findings) {
  const keyOrder = new Map();
  const position = (path) => {
    const out = [];
    let node = doc;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      if (Array.isArray(node)) { out.push(Number(seg)); node = node[seg]; }
      else if (isObj(node)) {
        let order = keyOrder.get(node);
        if (order === undefined) { order = new Map(Object.keys(node).map((k, j) => [k, j])); keyOrder.set(node, order); }
        out.push(order.has(seg) ? order.get(seg) : -1);
        node = node[seg];
      } else out.push(-1);
    }
    return out;
  };
  const keyed = findings.map((f, i) => ({ f: f, pos: position(f.p), i: i }));
  keyed.sort((a, b) => {
    const n = Math.min(a.pos.length, b.pos.length);
    for (let i = 0; i < n; i++) if (a.pos[i] !== b.pos[i]) return a.pos[i] - b.pos[i];
    return a.pos.length - b.pos.length || a.i - b.i;
  });
  return keyed.map((k) => k.f);
}
function POINTER(path) {
  let s = "";
  for (let i = 0; i < path.length; i++) s += "/" + String(path[i]).replace(/~/g, "~0").replace(/\//g, "~1");
  return s;
}

// Prose parameter insertions: {{ insert: param, some-id }}. One regular expression for the whole took quadratic time
// on prose such as "{{insert:param,{{insert:param,..." (each start rescans the id to its end), so the id and the
// closing braces are matched after the prefix; when they do not close, every later prefix that lies wholly inside the
// same id would fail the same way and is skipped. Linear in the length of the text.
const INSERT_PREFIX = /\{\{\s*insert:\s*param,\s*/g;
const INSERT_ID = /[^\s}]+/y;
const INSERT_CLOSE = /\s*\}\}/y;
const INSERT_SHORTEST_PREFIX = "{{insert:param,".length;
function INSERTS(text, rule) {
  if (typeof text !== "string" || text.indexOf("{{") < 0) return;
  INSERT_PREFIX.lastIndex = 0;
  let m;
  while ((m = INSERT_PREFIX.exec(text)) !== null) {
    INSERT_ID.lastIndex = INSERT_PREFIX.lastIndex;
    const id = INSERT_ID.exec(text);
    if (id === null) continue;
    INSERT_CLOSE.lastIndex = INSERT_ID.lastIndex;
    if (INSERT_CLOSE.test(text)) {
      REF(rule, PARAM_IDS, id[0], "Parameter insertion refers to an undefined parameter id");
      INSERT_PREFIX.lastIndex = INSERT_CLOSE.lastIndex;
    } else {
      INSERT_PREFIX.lastIndex = Math.max(m.index + 1, INSERT_ID.lastIndex - INSERT_SHORTEST_PREFIX + 1);
    }
  }
}
`;
