// RFC 6902 JSON Patch, applied in place. Any operation that does not apply throws: a stale patch must fail the build.
import { isDeepStrictEqual } from "node:util";
import { parsePointer } from "./json-pointer.js";

export type PatchOperation =
  | { op: "add" | "replace" | "test"; path: string; value: unknown }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; from: string; path: string };

export class PatchError extends Error {}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function resolveParent(doc: unknown, pointer: string): { parent: Container; key: string } {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw new PatchError(`operations on the document root are not supported (${pointer})`);
  let node: unknown = doc;
  for (const token of tokens.slice(0, -1)) {
    node = childOf(node, token, pointer);
  }
  if (!isContainer(node)) throw new PatchError(`parent of ${pointer} is not an object or array`);
  return { parent: node, key: tokens[tokens.length - 1]! };
}

function childOf(node: unknown, token: string, pointer: string): unknown {
  if (Array.isArray(node)) {
    const index = arrayIndex(node, token, pointer, false);
    return node[index];
  }
  if (isContainer(node) && Object.prototype.hasOwnProperty.call(node, token)) return (node as Record<string, unknown>)[token];
  throw new PatchError(`path ${pointer} does not exist (no "${token}")`);
}

function arrayIndex(array: unknown[], token: string, pointer: string, forInsert: boolean): number {
  if (forInsert && token === "-") return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad array index "${token}" in ${pointer}`);
  const index = Number(token);
  if (index > array.length || (!forInsert && index === array.length)) throw new PatchError(`array index ${index} out of range in ${pointer}`);
  return index;
}

function getValue(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const token of parsePointer(pointer)) node = childOf(node, token, pointer);
  return node;
}

function add(doc: unknown, pointer: string, value: unknown): void {
  const { parent, key } = resolveParent(doc, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, pointer, true), 0, value);
  else parent[key] = value;
}

function remove(doc: unknown, pointer: string): unknown {
  const { parent, key } = resolveParent(doc, pointer);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, pointer, false), 1)[0];
  if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new PatchError(`cannot remove ${pointer}: it does not exist`);
  const old = parent[key];
  delete parent[key];
  return old;
}

export function applyPatch(doc: unknown, operations: readonly PatchOperation[]): void {
  for (const operation of operations) {
    switch (operation.op) {
      case "add":
        add(doc, operation.path, structuredClone(operation.value));
        break;
      case "remove":
        remove(doc, operation.path);
        break;
      case "replace":
        remove(doc, operation.path);
        add(doc, operation.path, structuredClone(operation.value));
        break;
      case "move":
        add(doc, operation.path, remove(doc, operation.from));
        break;
      case "copy":
        add(doc, operation.path, structuredClone(getValue(doc, operation.from)));
        break;
      case "test": {
        const actual = getValue(doc, operation.path);
        if (!isDeepStrictEqual(actual, operation.value)) {
          throw new PatchError(`test failed at ${operation.path}: expected ${JSON.stringify(operation.value)}, found ${JSON.stringify(actual)}`);
        }
        break;
      }
      default:
        throw new PatchError(`unknown patch operation ${JSON.stringify(operation)}`);
    }
  }
}
