// Modify phase: set-parameter and alter (add, remove) applied to the merged controls (spec "Modify Phase").
import { CONTROL_ORDER, deepCopy, isObject, objects, PARAM_ORDER, reorderInPlace, setList, text, type Obj } from "./model.js";

const OSCAL_NS = "http://csrc.nist.gov/ns/oscal";

/** Members of set-parameter that replace the target's (req-modify-set-param-objects1); `values` and `select` are one choice. */
const REPLACED = ["class", "label", "usage", "values", "select"] as const;
/** Members of set-parameter that are added to the target's (req-modify-set-param-objects2). */
const APPENDED = ["props", "links", "constraints", "guidelines"] as const;
/** What an add carries besides its title, in canonical order. */
const ADDED = ["params", "props", "links", "parts"] as const;

/** Arrays inside a control whose members can be targets of add and remove, and the singular names `item-name` uses. */
const ITEM_NAMES: Readonly<Record<string, string>> = { params: "param", props: "prop", links: "link", parts: "part", controls: "control" };

/** Where an object sits: its container, the container's array member and the index in it. */
interface Location {
  object: Obj;
  container: Obj;
  key: string;
}

/** Visits every object inside `container` at any depth, each before its contents. */
function visitContents(container: Obj, visit: (object: Obj, container: Obj, key: string) => void): void {
  for (const key in ITEM_NAMES) {
    const items = container[key];
    if (!Array.isArray(items)) continue;
    for (const object of items) {
      if (!isObject(object)) continue;
      visit(object, container, key);
      visitContents(object, visit);
    }
  }
}

/** Every object inside `container` at any depth, each before its contents. */
function contents(container: Obj): Location[] {
  const found: Location[] = [];
  visitContents(container, (object, container, key) => found.push({ object, container, key }));
  return found;
}

export function setParameter(param: Obj, directive: Obj): void {
  for (const key of REPLACED) {
    if (directive[key] === undefined) continue;
    if (key === "values") delete param.select;
    if (key === "select") delete param.values;
    param[key] = deepCopy(directive[key]);
  }
  for (const key of APPENDED) if (Array.isArray(directive[key])) param[key] = [...objects(param[key]), ...deepCopy(objects(directive[key]))];
  reorderInPlace(param, PARAM_ORDER);
}

function matchesRemove(location: Location, directive: Obj): boolean {
  const { object } = location;
  const criteria: [string, unknown][] = [
    ["by-id", object.id],
    ["by-name", object.name],
    ["by-class", object.class],
    ["by-ns", object.ns ?? (object.name === undefined ? undefined : OSCAL_NS)],
    ["by-item-name", ITEM_NAMES[location.key]],
  ];
  const given = criteria.filter(([key]) => typeof directive[key] === "string");
  return given.length > 0 && given.every(([key, value]) => directive[key] === value);
}

function remove(control: Obj, directive: Obj): void {
  const doomed = new Set<Obj>();
  for (const location of contents(control)) if (matchesRemove(location, directive)) doomed.add(location.object);
  if (doomed.size === 0) return;
  const prune = (container: Obj): void => {
    for (const key in ITEM_NAMES) {
      if (!Array.isArray(container[key])) continue;
      const kept = objects(container[key]).filter((object) => !doomed.has(object));
      setList(container, key, kept);
      for (const object of kept) prune(object);
    }
  };
  prune(control);
}

/** Adds an add's contents inside `target`, before (`starting`) or after (`ending`) what it holds; returns where they went. */
function addInside(target: Obj, add: Obj, starting: boolean): Location[] {
  if (typeof add.title === "string" || isObject(add.title)) target.title = add.title;
  const placed: Location[] = [];
  for (const key of ADDED) {
    const added = deepCopy(objects(add[key]));
    if (added.length === 0) continue;
    target[key] = starting ? [...added, ...objects(target[key])] : [...objects(target[key]), ...added];
    placed.push(...added.map((object) => ({ object, container: target, key })));
  }
  return placed;
}

/**
 * Adds an add's contents next to `location.object`: members of its own kind beside it, others at the start or end of
 * the container's; returns where they went.
 */
function addOutside(location: Location, add: Obj, before: boolean): Location[] {
  const { container, key, object } = location;
  const placed: Location[] = [];
  for (const addedKey of ADDED) {
    const added = deepCopy(objects(add[addedKey]));
    if (added.length === 0) continue;
    const siblings = objects(container[addedKey]);
    if (addedKey === key) {
      const index = siblings.indexOf(object) + (before ? 0 : 1);
      container[addedKey] = [...siblings.slice(0, index), ...added, ...siblings.slice(index)];
    } else container[addedKey] = before ? [...added, ...siblings] : [...siblings, ...added];
    placed.push(...added.map((added) => ({ object: added, container, key: addedKey })));
  }
  return placed;
}

/**
 * Objects inside a control by id (the first of an id wins), kept up to date with what adds bring. Only objects with an
 * id are recorded: most objects inside a control (props, links) have none.
 */
class IdIndex {
  private readonly byId = new Map<unknown, Location>();
  private readonly register = (object: Obj, container: Obj, key: string): void => {
    if (object.id !== undefined && !this.byId.has(object.id)) this.byId.set(object.id, { object, container, key });
  };

  constructor(control: Obj) {
    visitContents(control, this.register);
  }

  find(id: string): Location | undefined {
    return this.byId.get(id);
  }

  /** Indexes objects an add placed, and what they hold. */
  added(placed: readonly Location[]): void {
    for (const { object, container, key } of placed) {
      this.register(object, container, key);
      visitContents(object, this.register);
    }
  }
}

/**
 * Applies one alter to one control: removes first, then adds in order. An add bound to nothing inside the control is
 * inoperative and warned about (req-modify-alter-add-explicit-id-ignore; that includes a `by-id` naming the control).
 */
export function alterControl(control: Obj, alter: Obj, warn: (message: string) => void): void {
  for (const directive of objects(alter.removes)) remove(control, directive);
  const index = new IdIndex(control);
  for (const add of objects(alter.adds)) {
    const position = text(add.position) ?? "ending";
    const byId = text(add["by-id"]);
    if (byId === undefined) {
      index.added(addInside(control, add, position === "starting" || position === "before"));
      continue;
    }
    const target = index.find(byId);
    if (target === undefined) {
      warn(`an add in the alter of control "${text(control.id)}" is ignored: by-id "${byId}" names nothing inside the control`);
      continue;
    }
    index.added(position === "before" || position === "after" ? addOutside(target, add, position === "before") : addInside(target.object, add, position === "starting"));
  }
  reorderInPlace(control, CONTROL_ORDER);
}
