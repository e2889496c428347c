// The emitter of each constraint kind.
import type { ConstraintKind } from "../../../metaschema/metaschema.js";
import type { ConstraintEmitter } from "../constraint.js";
import { allowedValues } from "./allowed-values.js";
import { expect } from "./expect.js";
import { hasCardinality } from "./has-cardinality.js";
import { indexDefinition } from "./index-definition.js";
import { indexHasKey } from "./index-has-key.js";
import { isUnique } from "./is-unique.js";
import { matches } from "./matches.js";

export const EMITTERS: Readonly<Record<ConstraintKind, ConstraintEmitter>> = {
  "allowed-values": allowedValues,
  matches,
  expect,
  "has-cardinality": hasCardinality,
  "is-unique": isUnique,
  index: indexDefinition,
  "index-has-key": indexHasKey,
};
