import { escapeToken } from "../core/json-pointer.js";

// Checks that a value handed to the library is JSON data, as a parsed document would be. The validators assume JSON:
// a getter that throws, a cycle or a Date would otherwise surface as an exception or a verdict on data JSON cannot hold.

/** Where the value stops being JSON (a JSON Pointer) and what is there; undefined when the whole value is JSON. */
export interface NonJsonValue {
  path: string;
  found: string;
}

interface Visit {
  value: object;
  parent: Visit | undefined;
  key: string;
  /** Set once the children are queued; popping it again means leaving it (for cycle detection). */
  entered: boolean;
}

/** Nesting the fast check follows; real OSCAL nests a few dozen levels, and anything deeper takes the precise walk. */
const FAST_CHECK_DEPTH = 1000;

export function findNonJsonValue(root: unknown): NonJsonValue | undefined {
  try {
    return isJsonWithin(root, FAST_CHECK_DEPTH) ? undefined : walk(root);
  } catch {
    // A getter or a proxy trap threw: the value cannot be read as data.
    return { path: "", found: "a value whose properties cannot be read" };
  }
}

/**
 * The common case, a document that is JSON, checked without bookkeeping: false at the first non-JSON value, and past
 * `depth` levels (a cycle never ends), where the walk below takes over to say what and where.
 */
function isJsonWithin(value: unknown, depth: number): boolean {
  if (describeNonJson(value) !== undefined) return false;
  if (typeof value !== "object" || value === null) return true;
  if (depth === 0) return false;
  if (Array.isArray(value)) {
    // A hole reads as undefined, which fails like any undefined element.
    for (let index = 0; index < value.length; index++) if (!isJsonWithin(value[index], depth - 1)) return false;
    return true;
  }
  for (const key of Object.keys(value)) if (!isJsonWithin((value as Record<string, unknown>)[key], depth - 1)) return false;
  return true;
}

// The precise walk. Iterative, so that nesting depth is the validators' concern (they report it), not a stack overflow here.
function walk(root: unknown): NonJsonValue | undefined {
  const rootProblem = describeNonJson(root);
  if (rootProblem !== undefined) return { path: "", found: rootProblem };
  if (typeof root !== "object" || root === null) return undefined;
  const stack: Visit[] = [{ value: root, parent: undefined, key: "", entered: false }];
  const ancestors = new Set<object>();
  while (stack.length > 0) {
    const visit = stack[stack.length - 1]!;
    if (visit.entered) {
      stack.pop();
      ancestors.delete(visit.value);
      continue;
    }
    visit.entered = true;
    ancestors.add(visit.value);
    for (const key of memberKeys(visit.value)) {
      if (!(key in visit.value)) return { path: pointerOf(visit, key), found: "a hole in an array" };
      const child: unknown = (visit.value as Record<string, unknown>)[key];
      const problem = describeNonJson(child);
      if (problem !== undefined) return { path: pointerOf(visit, key), found: problem };
      if (typeof child !== "object" || child === null) continue;
      if (ancestors.has(child)) return { path: pointerOf(visit, key), found: "a reference to an enclosing value (a cycle)" };
      stack.push({ value: child, parent: visit, key, entered: false });
    }
  }
  return undefined;
}

/** What makes the value itself non-JSON (its children are checked separately), or undefined. */
function describeNonJson(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : String(value);
    case "object": {
      if (value === null) return undefined;
      if (Array.isArray(value)) return undefined;
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype === Object.prototype || prototype === null) return undefined;
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return `an instance of ${typeof name === "string" && name !== "" ? name.slice(0, 40) : "a class"}`;
    }
    case "undefined":
      return "undefined";
    default:
      return `a ${typeof value}`;
  }
}

/** The members JSON serializes: an array's elements by index (other properties of an array are not data), own keys. */
function memberKeys(value: object): string[] {
  return Array.isArray(value) ? Array.from(value, (_, index) => String(index)) : Object.keys(value);
}

function pointerOf(visit: Visit, key: string): string {
  const tokens = [key];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) tokens.push(at.key);
  return tokens
    .reverse()
    .map((token) => `/${escapeToken(token)}`)
    .join("");
}
