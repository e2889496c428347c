// The emitter of each constraint kind, for NIST's semantic module and for every rule pack's.
import type { ConstraintKind } from "../metaschema/constraint.js";
import type { KindEmitter } from "./kind.js";
import { allowedValues } from "./allowed-values.js";
import { expect } from "./expect.js";
import { hasCardinality } from "./has-cardinality.js";
import { indexDefinition } from "./index-definition.js";
import { indexHasKey } from "./index-has-key.js";
import { isUnique } from "./is-unique.js";
import { matches } from "./matches.js";

export const KINDS: Readonly<Record<ConstraintKind, KindEmitter>> = {
  "allowed-values": allowedValues,
  matches,
  expect,
  "has-cardinality": hasCardinality,
  "is-unique": isUnique,
  index: indexDefinition,
  "index-has-key": indexHasKey,
};
