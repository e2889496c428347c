// The rule-id manifest: what the generated validators check and what they were built from, with its own SHA-256.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./paths.js";
import type { SchemaPatch } from "./patches.js";
import type { SemanticBuildResult } from "./semantic/index.js";
import type { PackBuildResult } from "./packs/index.js";
import { loadRuleExamples, unreachableRules } from "./semantic/rule-examples.js";

export const ENGINE_NAME = "oscal-validator";

const TOOLS = ["ajv", "ajv-formats", "json-schema-to-typescript", "ts-morph", "typescript"] as const;

function toolVersions(): Record<string, string> {
  return Object.fromEntries(
    TOOLS.map((tool) => {
      const manifest = JSON.parse(readFileSync(path.join(repoRoot, "node_modules", tool, "package.json"), "utf8")) as { version: string };
      return [tool, manifest.version];
    }),
  );
}

export interface ManifestInput {
  release: string;
  schemaHashes: Record<string, string>;
  patches: readonly SchemaPatch[];
  schemaRules: Record<string, string[]>;
  semantic: SemanticBuildResult;
  packs: readonly PackBuildResult[];
}

/**
 * The manifest's `sha256` is the hex SHA-256 of the manifest serialized (as written) without that field. `runtime` is
 * the part a validation reads (`runtime-manifest.json`): a cold process should not parse every schema rule id to learn
 * the release and which semantic rules exist.
 */
export function buildManifest(input: ManifestInput): { manifest: string; runtime: string } {
  for (const pack of input.packs) {
    const unknown = pack.decidesNist.find((source) => !input.semantic.notApplicable.some((entry) => entry.source === source));
    if (unknown !== undefined) throw new Error(`compiler/packs/${pack.name}/pack.json: decidesNist names ${unknown}, which is not a NIST constraint the semantic layer leaves undecided`);
  }
  const semanticRules = [
    ...input.semantic.rules,
    ...input.packs.flatMap((pack) =>
      pack.rules.map((rule) => ({
        id: rule.id, area: rule.area, severity: rule.severity, source: rule.constraintId, defaultOn: rule.defaultOn,
        keyword: rule.keyword, models: rule.models, description: rule.description, set: pack.name, constraintId: rule.constraintId,
        ...(rule.fix === undefined ? {} : { fix: rule.fix }),
        ...(rule.remarks === undefined ? {} : { remarks: rule.remarks }),
      })),
    ),
  ];
  const unreachable = unreachableRules(input.semantic);
  const examples = loadRuleExamples(new Set(semanticRules.map((rule) => rule.id)), unreachable);
  const body = {
    engine: ENGINE_NAME,
    validator: input.release,
    schemaSource: `NIST OSCAL ${input.release} release JSON schemas, with the documented patches applied`,
    schemas: input.schemaHashes,
    patches: input.patches.map((patch) => ({ id: patch.id, title: patch.title, upstream: patch.upstream, schemas: Object.keys(patch.operations).sort() })),
    tools: toolVersions(),
    schemaRules: input.schemaRules,
    // Pack rules are semantic rules too (off unless their pack is on by default, enabled by their pack or by id),
    // marked with their pack. A rule with a verified failing example carries it, for the rule catalog; one that can
    // never report on a document the semantic layer sees says why instead.
    semanticRules: semanticRules.map((rule) => {
      const example = examples.get(rule.id);
      const why = unreachable.get(rule.id);
      return { ...rule, ...(example === undefined ? {} : { example }), ...(why === undefined ? {} : { unreachable: why }) };
    }),
    // A NIST constraint a pack decides (with the other document it needs) is the pack's, listed there.
    semanticNotApplicable: input.semantic.notApplicable.filter((entry) => !input.packs.some((pack) => pack.decidesNist.includes(entry.source))),
    packs: input.packs.map((pack) => ({
      name: pack.name, title: pack.title, sources: pack.sources, constraints: pack.constraints,
      notCompiled: pack.notCompiled, needsDocuments: pack.needsDocuments,
      ...(pack.decidesNist.length === 0 ? {} : { decidesNist: input.semantic.notApplicable.filter((entry) => pack.decidesNist.includes(entry.source)) }),
    })),
  };
  const sha256 = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  const runtime = {
    engine: body.engine,
    validator: body.validator,
    schemaSource: body.schemaSource,
    manifestSha256: sha256,
    patches: body.patches.map(({ id }) => ({ id })),
    // A pack rule's models tell which documents its pack runs on before the pack's module is loaded.
    semanticRules: body.semanticRules.map((rule) =>
      "set" in rule ? { id: rule.id, defaultOn: rule.defaultOn, set: rule.set, models: rule.models } : { id: rule.id, defaultOn: rule.defaultOn },
    ),
  };
  return { manifest: `${JSON.stringify({ ...body, sha256 })}\n`, runtime: `${JSON.stringify(runtime)}\n` };
}
