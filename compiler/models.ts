// The eight OSCAL models, the schema file of each and the validator release they target.
export const OSCAL_RELEASE = "1.2.2";

export const MODEL_SCHEMA_FILES = {
  catalog: "oscal_catalog_schema.json",
  profile: "oscal_profile_schema.json",
  "component-definition": "oscal_component_schema.json",
  "system-security-plan": "oscal_ssp_schema.json",
  "assessment-plan": "oscal_assessment-plan_schema.json",
  "assessment-results": "oscal_assessment-results_schema.json",
  "plan-of-action-and-milestones": "oscal_poam_schema.json",
  "mapping-collection": "oscal_mapping_schema.json",
} as const;

export type ModelName = keyof typeof MODEL_SCHEMA_FILES;

export const MODEL_NAMES = Object.keys(MODEL_SCHEMA_FILES) as ModelName[];

