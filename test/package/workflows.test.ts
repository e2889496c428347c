// The GitHub workflows and the Action's metadata, checked against GitHub's schemas for them by a linter (no runner
// needed), and what each workflow is for: CI runs make test; a version tag builds from pinned inputs, tests, and
// attaches the tarball that the Action installs.
import { describe, expect, it } from "vitest";
import { validateAction, validateWorkflow, type ValidationState } from "@action-validator/core";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { repoRoot } from "../../compiler/paths.js";

const workflowsDir = path.join(repoRoot, ".github/workflows");
const workflowFiles = readdirSync(workflowsDir).filter((name) => /\.ya?ml$/.test(name));
const read = (file: string) => readFileSync(file, "utf8");
// Parsed YAML, walked by the tests field by field.
type Workflow = Record<string, any>;
const workflow = (name: string): Workflow => parse(read(path.join(workflowsDir, name))) as Workflow;
const runs = (job: Workflow): string => job.steps.map((step: Workflow) => step.run ?? "").join("\n");

/** The linter's findings, one line each (with those of every alternative a oneOf tried), empty when the file is valid. */
function findings(state: Pick<ValidationState, "errors">): string[] {
  return state.errors.flatMap((error) => [
    `${"path" in error ? error.path : ""} ${error.title}${error.detail ? `: ${error.detail}` : ""}`,
    ...("states" in error && error.states ? error.states.flatMap(findings) : []),
  ]);
}

describe("the linter", () => {
  it("passes action.yml and every workflow", () => {
    expect(workflowFiles.sort()).toEqual(["ci.yml", "release.yml"]);
    expect(findings(validateAction(read(path.join(repoRoot, "action.yml"))))).toEqual([]);
    for (const name of workflowFiles) expect(findings(validateWorkflow(read(path.join(workflowsDir, name)))), name).toEqual([]);
  });

  it("fails a workflow with a misspelt key and an action with an input that lacks its description", () => {
    const seeded = read(path.join(workflowsDir, "ci.yml")).replace("runs-on:", "runs_on:");
    expect(findings(validateWorkflow(seeded)).join("\n")).toMatch(/Additional property 'runs_on' is not allowed/);
    const action = parse(read(path.join(repoRoot, "action.yml"))) as Workflow;
    delete action.inputs.paths.description;
    expect(findings(validateAction(JSON.stringify(action))).join("\n")).toMatch(/\/inputs\/paths.*description/s);
  });
});

describe("the workflows", () => {
  it("CI runs make test on pull requests and branch pushes, with the build and test inputs fetched and checked", () => {
    const ci = workflow("ci.yml");
    expect(Object.keys(ci.on).sort()).toEqual(["pull_request", "push"]);
    expect(ci.permissions).toEqual({ contents: "read" });
    const script = runs(ci.jobs.test);
    expect(script).toMatch(/fetch-build-inputs\.sh \.\.\/shared\n.*fetch-test-inputs\.sh \.\.\/shared\nmake test/);
  });

  it("a v* tag tests, packs and attaches the tarball as npm pack names it (oscal-validator-<version>.tgz)", () => {
    const release = workflow("release.yml");
    expect(release.on).toEqual({ push: { tags: ["v*"] } });
    const build = runs(release.jobs.build);
    expect(build.indexOf("make test")).toBeGreaterThan(build.indexOf("fetch-build-inputs.sh"));
    expect(build.indexOf("npm pack")).toBeGreaterThan(build.indexOf("make test"));
    const publish = release.jobs.publish;
    expect(publish.permissions).toEqual({ contents: "write" });
    expect(runs(publish)).toMatch(/gh release create "\$GITHUB_REF_NAME" out\/\*\.tgz/);
    expect(build).toContain("npm pack --pack-destination out");
  });
});
