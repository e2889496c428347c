// Modify phase: set-parameter and alter (add, remove) applied to the merged controls (spec "Modify Phase"). The merged
// controls are shallow copies: what they hold is shared with the imported catalog, and what adds bring with the
// profile, until a change copies the object it changes and those holding it (a baseline alters nearly all its
// controls, each in a few of its many parts).
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

/** Where an object sits: the object holding it and the array member it is in there. */
export interface Location {
  object: Obj;
  /** Absent for an object the resolver made itself (a merged control, a loose or a group's param): changed in place. */
  holder: Location | undefined;
  key: string;
}

/** The objects and arrays of the resolved catalog that are the resolver's own, changed in place; the rest is shared. */
export class Copies {
  private readonly own = new Set<object>();

  /** Records objects the resolver made (the merged controls). */
  add(object: Obj): void {
    this.own.add(object);
  }

  /** `object` itself when it is the resolver's own, else a shallow copy, which is. */
  ownCopy(object: Obj): Obj {
    if (this.own.has(object)) return object;
    const copy = { ...object };
    this.own.add(copy);
    return copy;
  }

  /** The object at `location`, made the resolver's own first: copied, as are the objects holding it, into their places. */
  writable(location: Location): Obj {
    const { object, holder, key } = location;
    if (holder === undefined || this.own.has(object)) return object;
    const items = this.ownArray(this.writable(holder), key);
    const copy = this.ownCopy(object);
    items[items.indexOf(object)] = copy;
    location.object = copy;
    return copy;
  }

  /** The array member `key` of an object of the resolver's own, made its own too (copied once for all its items). */
  private ownArray(container: Obj, key: string): unknown[] {
    const items = container[key] as unknown[];
    if (this.own.has(items)) return items;
    const copy = [...items];
    this.own.add(copy);
    container[key] = copy;
    return copy;
  }
}

/** Visits every object inside `container` at any depth, each before its contents, with the array member it is in. */
function visitContents(container: Obj, visit: (object: Obj, key: string) => void): void {
  for (const key in ITEM_NAMES) {
    const items = container[key];
    if (!Array.isArray(items)) continue;
    for (const object of items) {
      if (!isObject(object)) continue;
      visit(object, key);
      visitContents(object, visit);
    }
  }
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

function matchesRemove(object: Obj, key: string, directive: Obj): boolean {
  const criteria: [string, unknown][] = [
    ["by-id", object.id],
    ["by-name", object.name],
    ["by-class", object.class],
    ["by-ns", object.ns ?? (object.name === undefined ? undefined : OSCAL_NS)],
    ["by-item-name", ITEM_NAMES[key]],
  ];
  const given = criteria.filter(([criterion]) => typeof directive[criterion] === "string");
  return given.length > 0 && given.every(([criterion, value]) => directive[criterion] === value);
}

/**
 * `object` without the doomed objects at any depth, with its arrays tidied as a removal leaves them (no empty arrays,
 * only objects): itself when nothing changes or it is the resolver's own, else a copy.
 */
function withoutDoomed(object: Obj, doomed: ReadonlySet<Obj>, copies: Copies): Obj {
  let changed: Obj | undefined;
  for (const key in ITEM_NAMES) {
    const items = object[key];
    if (!Array.isArray(items)) continue;
    const kept: Obj[] = [];
    let same = items.length > 0;
    for (const item of items) {
      if (!isObject(item) || doomed.has(item)) {
        same = false;
        continue;
      }
      const keptItem = withoutDoomed(item, doomed, copies);
      if (keptItem !== item) same = false;
      kept.push(keptItem);
    }
    if (!same) setList((changed ??= copies.ownCopy(object)), key, kept);
  }
  return changed ?? object;
}

function remove(control: Obj, directive: Obj, copies: Copies): void {
  const doomed = new Set<Obj>();
  visitContents(control, (object, key) => {
    if (matchesRemove(object, key, directive)) doomed.add(object);
  });
  if (doomed.size > 0) withoutDoomed(control, doomed, copies);
}

/** Adds an add's contents inside `target`, before (`starting`) or after (`ending`) what it holds; returns where they went. */
function addInside(target: Location, add: Obj, starting: boolean, copies: Copies): Location[] {
  const object = copies.writable(target);
  if (typeof add.title === "string" || isObject(add.title)) object.title = add.title;
  const placed: Location[] = [];
  for (const key of ADDED) {
    const added = objects(add[key]);
    if (added.length === 0) continue;
    object[key] = starting ? added.concat(objects(object[key])) : objects(object[key]).concat(added);
    for (const item of added) placed.push({ object: item, holder: target, key });
  }
  return placed;
}

/**
 * Adds an add's contents next to `location.object`: members of its own kind beside it, others at the start or end of
 * its holder's; returns where they went.
 */
function addOutside(location: Location, add: Obj, before: boolean, copies: Copies): Location[] {
  const holder = location.holder!;
  const container = copies.writable(holder);
  const placed: Location[] = [];
  for (const key of ADDED) {
    const added = objects(add[key]);
    if (added.length === 0) continue;
    const siblings = objects(container[key]);
    if (key === location.key) {
      const index = siblings.indexOf(location.object) + (before ? 0 : 1);
      container[key] = [...siblings.slice(0, index), ...added, ...siblings.slice(index)];
    } else container[key] = before ? added.concat(siblings) : siblings.concat(added);
    for (const item of added) placed.push({ object: item, holder, key });
  }
  return placed;
}

/** The array members of ITEM_NAMES, in order, for indexed loops. */
const ITEM_KEYS = Object.keys(ITEM_NAMES);

// The trail of the search under way (they run one at a time): the objects from the object searched down to the one
// visited, the array members holding them and, once a target is found below one, its location. Grown once, and
// emptied of the objects after each search, which must not outlive their resolution.
const TRAIL: (Obj | undefined)[] = [];
const TRAIL_KEYS: string[] = [];
const TRAIL_LOCATIONS: (Location | undefined)[] = [];

/**
 * The objects inside a control that an alter's adds name by id (the first of an id wins), kept up to date with what
 * adds bring. Only they and the objects holding them get a location: a control holds many objects with an id, and an
 * alter names few.
 */
class Targets {
  private readonly byId = new Map<string, Location>();

  constructor(
    private readonly wanted: ReadonlySet<string>,
    control: Location,
  ) {
    this.search(control);
  }

  find(id: string): Location | undefined {
    return this.byId.get(id);
  }

  /** Takes in objects an add placed, and what they hold. */
  added(placed: readonly Location[]): void {
    for (const location of placed) {
      const { id } = location.object;
      if (typeof id === "string" && this.wanted.has(id) && !this.byId.has(id)) this.byId.set(id, location);
      this.search(location);
    }
  }

  private search(root: Location): void {
    if (this.byId.size === this.wanted.size) return;
    this.visit(root, root.object, 0);
    TRAIL.fill(undefined);
    TRAIL_LOCATIONS.fill(undefined);
  }

  /**
   * Visits the objects inside `holder`, at `depth` below `root`, until every target is found (the first of an id wins:
   * later ones do not count); returns whether they are.
   */
  private visit(root: Location, holder: Obj, depth: number): boolean {
    for (let k = 0; k < ITEM_KEYS.length; k++) {
      const key = ITEM_KEYS[k]!;
      const items = holder[key];
      if (!Array.isArray(items)) continue;
      for (let i = 0; i < items.length; i++) {
        const object: unknown = items[i];
        if (!isObject(object)) continue;
        TRAIL[depth] = object;
        TRAIL_KEYS[depth] = key;
        TRAIL_LOCATIONS[depth] = undefined;
        const { id } = object;
        if (typeof id === "string" && this.wanted.has(id) && !this.byId.has(id)) this.byId.set(id, located(root, depth + 1));
        if (this.byId.size === this.wanted.size || this.visit(root, object, depth + 1)) return true;
      }
    }
    return false;
  }
}

/**
 * The location of the trail's object at `length - 1` below `root`; the objects above it share theirs with the other
 * targets below them.
 */
function located(root: Location, length: number): Location {
  let location = root;
  for (let i = 0; i < length; i++) location = TRAIL_LOCATIONS[i] ??= { object: TRAIL[i]!, holder: location, key: TRAIL_KEYS[i]! };
  return location;
}

/**
 * Applies one alter to one control, the resolver's own: removes first, then adds in order. An add bound to nothing
 * inside the control is inoperative and warned about (req-modify-alter-add-explicit-id-ignore; that includes a `by-id`
 * naming the control).
 */
export function alterControl(control: Obj, alter: Obj, copies: Copies, warn: (message: string) => void): void {
  for (const directive of objects(alter.removes)) remove(control, directive, copies);
  const root: Location = { object: control, holder: undefined, key: "controls" };
  const adds = objects(alter.adds);
  const named = new Set<string>();
  for (const add of adds) if (typeof add["by-id"] === "string") named.add(add["by-id"]);
  const index = new Targets(named, root);
  for (const add of adds) {
    const position = text(add.position) ?? "ending";
    const byId = text(add["by-id"]);
    if (byId === undefined) {
      index.added(addInside(root, add, position === "starting" || position === "before", copies));
      continue;
    }
    const target = index.find(byId);
    if (target === undefined) {
      warn(`an add in the alter of control "${text(control.id)}" is ignored: by-id "${byId}" names nothing inside the control`);
      continue;
    }
    index.added(position === "before" || position === "after" ? addOutside(target, add, position === "before", copies) : addInside(target, add, position === "starting", copies));
  }
  reorderInPlace(control, CONTROL_ORDER);
}
