// The generated validators and an independent JSON Schema implementation must give the same verdict on the same
// patched schemas, for every corpus document and for seeded mutations of valid ones; a disagreement passes only when
// it is reviewed in known-disagreements.ts.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { validateDocument } from "../../runtime/core/validate.js";
import { MODELS, type Model } from "../../runtime/core/report.js";
import { listCorpus, readCorpusBytes, type CorpusDocument } from "../helpers/corpus.js";
import { patchedModelSchemas } from "../helpers/patched-schemas.js";
import { KNOWN_DISAGREEMENTS } from "./known-disagreements.js";
import { SeededRandom } from "./prng.js";
import { applyMutation, describeMutation, MUTATION_KINDS, sampleMutations, schemaFacts, type MutationKind } from "./mutations.js";
import { referenceValidators } from "./reference-validator.js";

const SEED = 0x05ca1;
const BASES_PER_MODEL = 4;
const MUTANTS_PER_KIND = 3;
/** Mutation bases stay small so that several hundred mutants validate in seconds with both implementations. */
const MAX_BASE_BYTES = 400_000;

/**
 * The corpus holds no schema-valid mapping collection. This one fails only because provenance.method is "manual"
 * (the enum is human, automation, hybrid); with "human" it is a valid base for mutation.
 */
const MAPPING_BASE = { file: "mapping-collection/example-mapping-nist-csf-2.0-to-sp800-53-rev5.json", repair: (document: any) => void (document["mapping-collection"].provenance.method = "human") };

interface Case {
  id: string;
  origin: "corpus" | MutationKind;
  ours: boolean;
  reference: boolean;
}

function ourVerdict(document: unknown): boolean {
  const outcome = validateDocument(document, { level: "schema" });
  if (outcome.kind !== "report") throw new Error(`expected a report, got ${outcome.kind}: ${JSON.stringify(outcome.error)}`);
  return outcome.report.valid;
}

function parse(document: CorpusDocument): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(readCorpusBytes(document)));
}

describe("agreement with @cfworker/json-schema", () => {
  const cases: Case[] = [];
  const reference = referenceValidators();
  const facts = Object.fromEntries(Object.entries(patchedModelSchemas()).map(([model, schema]) => [model, schemaFacts(schema)]));

  beforeAll(() => {
    const random = new SeededRandom(SEED);
    const bases = new Map<Model, { file: string; document: Record<string, unknown> }[]>(MODELS.map((model) => [model, []]));
    for (const corpusDocument of listCorpus()) {
      const document = parse(corpusDocument);
      const ours = ourVerdict(document);
      cases.push({ id: corpusDocument.file, origin: "corpus", ours, reference: reference[corpusDocument.model](document) });
      if (ours && corpusDocument.size <= MAX_BASE_BYTES) bases.get(corpusDocument.model)!.push({ file: corpusDocument.file, document });
    }
    const mappingBase = listCorpus().find((document) => document.file === MAPPING_BASE.file)!;
    const repaired = parse(mappingBase);
    MAPPING_BASE.repair(repaired);
    bases.get("mapping-collection")!.push({ file: `${MAPPING_BASE.file} (provenance.method repaired)`, document: repaired });

    for (const [model, candidates] of bases) {
      for (const base of random.sample(candidates, BASES_PER_MODEL)) {
        // Corpus documents are compared above already; only the repaired base is new.
        if (base.document === repaired) cases.push({ id: base.file, origin: "corpus", ours: ourVerdict(base.document), reference: reference[model](base.document) });
        for (const mutation of sampleMutations(base.document, model, facts[model]!, random, MUTANTS_PER_KIND)) {
          const undo = applyMutation(base.document, mutation);
          cases.push({ id: `${base.file} ${describeMutation(mutation)}`, origin: mutation.kind, ours: ourVerdict(base.document), reference: reference[model](base.document) });
          undo();
        }
      }
    }
  });

  const disagreements = () => cases.filter((testCase) => testCase.ours !== testCase.reference);

  afterAll(() => {
    const agreeing = cases.length - disagreements().length;
    const mutants = cases.filter((testCase) => testCase.origin !== "corpus");
    console.log(
      `agreement: ${agreeing}/${cases.length} (${((100 * agreeing) / cases.length).toFixed(2)}%), ` +
        `of which ${mutants.length} mutants (${mutants.filter((testCase) => !testCase.reference).length} invalid)`,
    );
    for (const kind of MUTATION_KINDS) {
      const ofKind = mutants.filter((testCase) => testCase.origin === kind);
      console.log(`  ${kind}: ${ofKind.length} mutants, ${ofKind.filter((testCase) => !testCase.reference).length} invalid`);
    }
    for (const testCase of disagreements()) console.log(`  disagreement: ${testCase.id}: ours ${testCase.ours}, cfworker ${testCase.reference}`);
  });

  test("every disagreement is reviewed", () => {
    const unreviewed = disagreements().filter((testCase) => !KNOWN_DISAGREEMENTS.has(testCase.id));
    expect(unreviewed.map(({ id, ours, reference }) => ({ id, ours, reference }))).toEqual([]);
  });

  test("every reviewed disagreement still occurs", () => {
    const occurring = new Set(disagreements().map((testCase) => testCase.id));
    expect([...KNOWN_DISAGREEMENTS.keys()].filter((id) => !occurring.has(id))).toEqual([]);
  });

  // Enumerations are rare in catalogs and profiles, so only their total is bounded, not their number per model.
  test("every model contributes mutants, every kind is exercised, and the mutations make documents invalid", () => {
    for (const kind of MUTATION_KINDS) {
      const mutants = cases.filter((testCase) => testCase.origin === kind);
      expect(mutants.length, kind).toBeGreaterThanOrEqual(2 * MUTANTS_PER_KIND);
      expect(mutants.filter((testCase) => !testCase.reference).length / mutants.length, kind).toBeGreaterThan(0.5);
    }
    for (const model of MODELS) expect(cases.some((testCase) => testCase.origin !== "corpus" && testCase.id.startsWith(`${model}/`)), model).toBe(true);
  });
});
