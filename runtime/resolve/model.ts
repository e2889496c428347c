// The loose view of OSCAL documents the resolver works on: documents come from users and may break the schema, so
// every member is read defensively and a wrong shape counts as absent.

export type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The objects of an array member (the array itself when all its items are objects); anything else is no objects. */
export function objects(value: unknown): readonly Obj[] {
  if (!Array.isArray(value)) return [];
  return value.every(isObject) ? value : value.filter(isObject);
}

/** The strings of an array member; anything else is no strings. */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

export function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A copy the resolver may change without touching the imported document (plain JSON data only). */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (!isObject(value)) return value;
  const copy: Obj = {};
  for (const key in value) copy[key] = deepCopy(value[key]);
  return copy as T;
}

/** Spec "keep": an object with the prop name "keep" and value "always" is never pruned nor replaced by a plain one. */
export function keptAlways(object: Obj): boolean {
  return objects(object.props).some((prop) => prop.name === "keep" && prop.value === "always");
}

/** Sets `object[key]` to `items`, or drops the member when there are none (OSCAL arrays are never empty). */
export function setList(object: Obj, key: string, items: readonly unknown[]): void {
  if (items.length > 0) object[key] = items;
  else delete object[key];
}

/** The same members in the order `order` names first, then any others in their own order. */
export function ordered(object: Obj, order: readonly string[]): Obj {
  const result: Obj = {};
  for (const key of order) if (object[key] !== undefined) result[key] = object[key];
  for (const key in object) if (!(key in result)) result[key] = object[key];
  return result;
}

/** Whether `object`'s members already stand as `ordered` would put them. */
function isOrdered(object: Obj, order: readonly string[]): boolean {
  let rank = 0;
  let pastOrdered = false;
  for (const key in object) {
    const at = object[key] === undefined ? -1 : order.indexOf(key);
    if (at === -1) pastOrdered = true;
    else if (pastOrdered || at < rank) return false;
    else rank = at;
  }
  return true;
}

/**
 * Puts `object`'s members in `order` (then the rest as they were), in place: others hold references to it. An object
 * already in order is left alone, as deleting its members would turn it into a slow dictionary-mode object.
 */
export function reorderInPlace(object: Obj, order: readonly string[]): void {
  if (isOrdered(object, order)) return;
  const reordered = ordered(object, order);
  for (const key of Object.keys(object)) delete object[key];
  Object.assign(object, reordered);
}

/** Appends `value` to the list `map` holds for `key`. */
export function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Canonical member orders of the catalog model (OSCAL 1.2.2 metaschema), for objects the resolver builds or edits. */
export const CONTROL_ORDER = ["id", "class", "title", "params", "props", "links", "parts", "controls"] as const;
export const GROUP_ORDER = ["id", "class", "title", "params", "props", "links", "parts", "groups", "controls"] as const;
export const PARAM_ORDER = ["id", "class", "props", "links", "label", "usage", "constraints", "guidelines", "values", "select", "remarks"] as const;
