// Rules of ours, for checks a user expects where the NIST metaschema is silent. All are warnings.
import type { AssemblyDef, RawConstraint } from "../metaschema/metaschema.js";

export interface OwnRule {
  name: string; // table key is "ours:<name>"
  description: string;
  /** How to fix a finding. */
  fix: string;
  models: "all" | string[];
}

export const OWN_RULES: readonly OwnRule[] = [
  {
    name: "uuid-unique",
    description: "Every UUID that identifies something (a uuid member) is declared only once in the document.",
    fix: "Give the repeated one a new UUID, and update what refers to it.",
    models: "all",
  },
  {
    name: "fragment-href",
    description: "Every link of the form #fragment names an id or uuid declared in the document.",
    fix: "Point the link at an id or uuid the document declares, or add what it should name.",
    models: "all",
  },
  {
    name: "profile-import-href",
    description: "A profile's import of the form #uuid names a resource in the profile's back matter.",
    fix: "Add the back matter resource the import names, or correct its UUID.",
    models: ["profile"],
  },
  {
    name: "insert-param",
    description: "Every {{ insert: param, id }} in catalog prose names a parameter defined in the catalog.",
    fix: "Correct the parameter id in the insertion, or define that parameter.",
    models: ["catalog"],
  },
];

/** profile-import-href is an index-has-key against NIST's own back-matter resource index, compiled like one. */
export function profileImportConstraint(profile: AssemblyDef): RawConstraint {
  return {
    key: "ours:profile-import-href",
    id: undefined,
    formalName: undefined,
    kind: "index-has-key",
    level: "WARNING",
    module: "ours",
    context: profile,
    target: "import[starts-with(@href,'#')]",
    allowOther: false,
    enums: [],
    regex: undefined,
    datatype: undefined,
    indexName: "index-back-matter-resource",
    keyFields: [{ target: "@href", pattern: "#(.*)" }],
    minOccurs: undefined,
    maxOccurs: undefined,
    test: undefined,
    message: undefined,
    remarks: undefined,
    helpUrl: undefined,
  };
}
