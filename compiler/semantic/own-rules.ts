// Rules of ours, for checks a user expects where the NIST metaschema is silent. All are warnings.
import type { AssemblyDef, RawConstraint } from "../metaschema/metaschema.js";

export interface OwnRule {
  name: string; // table key is "ours:<name>"
  description: string;
  models: "all" | string[];
}

export const OWN_RULES: readonly OwnRule[] = [
  { name: "uuid-unique", description: "Every uuid flag value is declared only once in the document.", models: "all" },
  { name: "fragment-href", description: "Every href of the form #fragment names an id or uuid declared in the document.", models: "all" },
  { name: "profile-import-href", description: "A profile import href of the form #uuid names a back-matter resource of the profile.", models: ["profile"] },
  { name: "insert-param", description: "Every {{ insert: param, id }} in catalog prose names a parameter defined in the catalog.", models: ["catalog"] },
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
  };
}
