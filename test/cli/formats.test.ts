// The github and junit formats, and the rule catalog from the command line.
import { describe, expect, it } from "vitest";
import { RULE_CATALOG } from "../../runtime/core/rule-catalog.js";
import { INVALID_CATALOG, MANY_FINDINGS_CATALOG, put, run, tempDir, VALID_CATALOG } from "./support.js";

const cwd = tempDir("formats");
put(cwd, "ok.json", VALID_CATALOG);
put(cwd, "a,b: 100%.json", INVALID_CATALOG);
put(cwd, "many.json", MANY_FINDINGS_CATALOG);
put(cwd, "broken & <odd>.json", '{"catalog": ');

/** A minimal XML well-formedness check: one root, properly nested tags, entities only where allowed, quoted attributes. */
function parseXml(xml: string): Array<{ name: string; attributes: Record<string, string>; text: string }> {
  const body = xml.replace(/^<\?xml [^?]*\?>\n/, "");
  const elements: Array<{ name: string; attributes: Record<string, string>; text: string }> = [];
  const open: Array<{ name: string; text: string }> = [];
  const token = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let roots = 0;
  for (let match = token.exec(body); match !== null; match = token.exec(body)) {
    const [, closing, name, attributeText, selfClosing, text] = match;
    if (text !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos);)/.test(text)) throw new Error(`bad entity in text: ${text.slice(0, 40)}`);
      if (open.length === 0 && text.trim() !== "") throw new Error("text outside the root");
      if (open.length > 0) open[open.length - 1]!.text += text;
      continue;
    }
    if (closing) {
      if (open.pop()?.name !== name) throw new Error(`mismatched </${name}>`);
      continue;
    }
    if (open.length === 0) roots++;
    const attributes = Object.fromEntries([...attributeText!.matchAll(/([\w-]+)="([^"]*)"/g)].map((pair) => [pair[1]!, pair[2]!]));
    for (const value of Object.values(attributes)) if (/&(?!(amp|lt|gt|quot|apos);)/.test(value)) throw new Error(`bad entity in attribute: ${value}`);
    const element = { name: name!, attributes, text: "" };
    elements.push(element);
    if (!selfClosing) open.push(element);
  }
  if (token.lastIndex !== 0 && token.lastIndex !== body.length) throw new Error(`unparsed XML at ${token.lastIndex}`);
  if (open.length > 0 || roots !== 1) throw new Error("not exactly one closed root element");
  return elements;
}

const unescape = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");

describe("oscal-validate --format github", () => {
  it("prints one workflow command per finding, escaping properties and data", () => {
    const { status, stdout } = run(["--format", "github", "ok.json", "a,b: 100%.json", "broken & <odd>.json"], { cwd });
    expect(status).toBe(1);
    expect(stdout.split("\n")).toEqual([
      "::error file=a%2Cb%3A 100%25.json,line=1,col=20,title=nist-schema%3A1.2.2%3Acatalog%3Apattern%3A#/definitions/UUIDDatatype/pattern%3Apattern::Not a valid UUID: a UUID has five groups of 8-4-4-4-12 hexadecimal digits separated by hyphens; this one has groups of 4. (at /catalog/uuid)",
      expect.stringMatching(/^::error file=broken & <odd>\.json,line=1,col=13,title=ERR_INVALID_JSON::Not well-formed JSON: .* at line 1, column 13\.$/),
      "",
    ]);
  });

  it("escapes line breaks in messages and adds a warning when --max-issues cut a file's findings", () => {
    put(cwd, "multi.json", `{\n"catalog": `);
    expect(run(["--format", "github", "multi.json"], { cwd }).stdout).not.toMatch(/\n(?!$)/);
    const capped = run(["--format", "github", "--max-issues", "2", "many.json"], { cwd }).stdout.trimEnd().split("\n");
    expect(capped).toHaveLength(3);
    expect(capped[2]).toBe("::warning file=many.json,title=oscal-validate::3198 more findings not reported because of --max-issues (3200 in all).");
  });
});

describe("oscal-validate --format junit", () => {
  it("writes well-formed XML: one testsuite, a testcase per file, a failure listing each invalid file's findings", () => {
    const { status, stdout } = run(["--format", "junit", "ok.json", "a,b: 100%.json", "broken & <odd>.json", "missing.json"], { cwd });
    expect(status).toBe(2);
    const elements = parseXml(stdout);
    const suites = elements.filter((element) => element.name === "testsuite");
    expect(suites).toHaveLength(1);
    expect(suites[0]!.attributes).toMatchObject({ tests: "4", failures: "2", errors: "1" });
    const cases = elements.filter((element) => element.name === "testcase").map((element) => unescape(element.attributes.name!));
    expect(cases).toEqual(["ok.json", "a,b: 100%.json", "broken & <odd>.json", "missing.json"]);
    const failures = elements.filter((element) => element.name === "failure");
    expect(failures).toHaveLength(2);
    expect(unescape(failures[0]!.text)).toBe("error /catalog/uuid: Not a valid UUID: a UUID has five groups of 8-4-4-4-12 hexadecimal digits separated by hyphens; this one has groups of 4. [nist-schema:1.2.2:catalog:pattern:#/definitions/UUIDDatatype/pattern:pattern]");
    expect(failures[1]!.attributes.type).toBe("ERR_INVALID_JSON");
    expect(elements.filter((element) => element.name === "error").map((element) => element.attributes.type)).toEqual(["ERR_UNREADABLE_INPUT"]);
  });

  it("says in the failure when --max-issues cut the findings", () => {
    const elements = parseXml(run(["--format", "junit", "--max-issues", "1", "many.json"], { cwd }).stdout);
    const failure = elements.find((element) => element.name === "failure")!;
    expect(failure.attributes.message).toBe("3200 findings (catalog, level schema)");
    expect(failure.text.split("\n")).toEqual([expect.stringMatching(/^error \/catalog\/controls\/0/), "3199 more findings not reported because of --max-issues."]);
  });
});

describe("oscal-validate rules", () => {
  it("--format json lists every semantic rule with id, constraintId (NIST and pack rules), set, severity, defaultOn, description, remarks, fix, example and why none can exist", () => {
    const { status, stdout } = run(["rules", "--format", "json"]);
    expect(status).toBe(0);
    const rules = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(rules).toHaveLength(RULE_CATALOG.length);
    expect(rules.map((rule) => rule.id)).toEqual(RULE_CATALOG.map((rule) => rule.id));
    for (const rule of rules) expect(Object.keys(rule).sort()).toEqual(["description", "defaultOn", "id", "set", "severity", ...(rule.set !== "ours" && rule.constraintId ? ["constraintId"] : []), ...(rule.remarks ? ["remarks"] : []), ...(rule.fix ? ["fix"] : []), ...(rule.example ? ["example"] : []), ...(rule.reachable === false ? ["reachable", "unreachableReason"] : [])].sort());
    expect(rules.find((rule) => rule.id === "MET-021.a")).toMatchObject({ reachable: false, unreachableReason: expect.stringMatching(/^The JSON schema enforces this list first/) });
    const withExample = RULE_CATALOG.find((rule) => rule.example !== undefined)!;
    expect(rules.find((rule) => rule.id === withExample.id)!.example).toEqual(withExample.example);
    expect(rules.filter((rule) => rule.set === "ours").every((rule) => !("constraintId" in rule))).toBe(true);
    expect(rules.find((rule) => rule.id === "MET-045.a")).toMatchObject({
      set: "nist",
      severity: "warning",
      defaultOn: true,
      constraintId: "oscal-back-matter-resource-base64-rlink-cardinality",
      description: "A resource has at least one resource link or Base64.",
      fix: "Add the missing resource link or Base64.",
    });
    expect(rules.find((rule) => rule.id === "FRR-001.a")).toMatchObject({ set: "fedramp", severity: "error", defaultOn: false, constraintId: "address-type" });
  });

  it("--explain shows one rule in full: its description and fix in words, its constraint and its Metapath", () => {
    const { status, stdout } = run(["rules", "--explain", "IMP-008.a"]);
    expect(status).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("IMP-008.a (allowed-values, error, on by default, level full)");
    expect(lines[1]).toMatch(/^In a component, the name of a property in the OSCAL namespace is one of \d+ values: "implementation-point", .*" \(or a value another rule for the same property allows\)\.$/);
    expect(lines[2]).toBe("Fix: Use one of the listed values, or give a property of your own a namespace of your own (ns).");
    expect(lines).toContain("Source: NIST OSCAL metaschema, constraint oscal-component-prop-name-values");
    expect(lines.find((line) => line.startsWith("Metapath: "))).toMatch(/^Metapath: prop\[has-oscal-namespace\('http:\/\/csrc\.nist\.gov\/ns\/oscal'\)\]\/@name in system-component /);
    expect(JSON.parse(run(["rules", "--explain", "MET-045.a", "--format", "json"]).stdout)).toEqual(RULE_CATALOG.find((rule) => rule.id === "MET-045.a"));
  });

  it("--explain says why, where the constraint's remarks do, in plain text", () => {
    const lines = run(["rules", "--explain", "SSP-043.a"]).stdout.split("\n");
    expect(lines[2]).toBe(
      "Why: The hybrid cloud deployment model, as defined by The NIST Definition of Cloud Computing (https://doi.org/10.6028/NIST.SP.800-145), can be supported by selecting two or more of the existing deployment models.",
    );
    expect(run(["rules", "--explain", "MET-045.a"]).stdout).not.toContain("Why:");
  });

  it("--explain ends with a failing example where the catalog has one: where the finding points and the JSON there", () => {
    const rule = RULE_CATALOG.find((entry) => entry.example !== undefined && entry.example.fragment.includes("\n"))!;
    const lines = run(["rules", "--explain", rule.id]).stdout.trimEnd().split("\n");
    const fragment = rule.example!.fragment.split("\n");
    expect(lines.slice(-fragment.length - 2)).toEqual(["", `Example (a finding at ${rule.example!.pointer}):`, ...fragment.map((line) => `  ${line}`)]);
    expect(JSON.parse(lines.slice(-fragment.length).join("\n"))).toEqual(JSON.parse(rule.example!.fragment));
    expect(run(["rules", "--explain", RULE_CATALOG.find((entry) => entry.example === undefined)!.id]).stdout).not.toContain("Example");
  });

  it("--explain says why a rule that can never report has no failing example", () => {
    const schemaEnforced = run(["rules", "--explain", "MET-021.a"]).stdout.trimEnd().split("\n");
    expect(schemaEnforced.at(-1)).toMatch(/^No failing example: The JSON schema enforces this list first \(the enum at \/definitions\/.*\/properties\/type\/allOf\/1 in the complete schema\), so this rule reports only if the schema layer is bypassed\.$/);
    const knownValues = RULE_CATALOG.find((rule) => rule.keyword === "allowed-values" && rule.reachable === false && /never fails alone/.test(rule.description))!;
    expect(run(["rules", "--explain", knownValues.id]).stdout.trimEnd().split("\n").at(-1)).toBe("No failing example: This rule lists known values and never reports alone: another value is allowed, or reported by a stricter rule for the same node.");
    expect(run(["rules", "--explain", "MET-045.a"]).stdout).not.toContain("No failing example");
  });

  it("--explain refuses an unknown rule, and validation refuses --explain", () => {
    const unknown = run(["rules", "--explain", "NOPE-1.a"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--explain: no rule "NOPE-1.a"');
    expect(run(["--explain", "MET-045.a", "ok.json"], { cwd }).status).toBe(2);
  });

  it("prints an aligned table by default", () => {
    const lines = run(["rules"]).stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(RULE_CATALOG.length + 1);
    expect(lines[0]).toMatch(/^ID +SET +SEVERITY +DEFAULT +DESCRIPTION$/);
    const descriptionColumn = lines[0]!.indexOf("DESCRIPTION");
    for (const [index, line] of lines.slice(1).entries()) expect(line.slice(descriptionColumn)).toBe(RULE_CATALOG[index]!.description);
  });
});
