// Reviewed disagreements between the generated validators and @cfworker/json-schema, keyed by case id (the corpus file,
// or the file followed by the mutation). Each needs a reason that says which side is right and by which standard.
export const KNOWN_DISAGREEMENTS: ReadonlyMap<string, string> = new Map([]);
