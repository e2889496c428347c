// The fast validators' nested calls pass the value alone and their errors are 0s; anything else in Ajv's code that reads
// the call context or a value's path must stop the build rather than be rewritten. The collecting validators' anyOf
// errors count their branches' errors.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { tidiedModuleScope, withBranchErrorCounts, withoutCallContexts, withoutErrorDetails } from "../../compiler/emit-validators.js";
import type { CollectingValidators } from "../../generated/models.js";

const HEADER = 'function validate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){';

describe("withoutCallContexts", () => {
  it("passes nested validators and recursive wrappers the value alone, and they take the value alone", () => {
    const code = `${HEADER}if(!(validate2(data3[i0], {instancePath:instancePath+"/props/" + i0,parentData:data3,parentDataProperty:i0,rootData}))){return false;}if(!(wrapper0.validate(data["a-b"], {instancePath:instancePath+"/a-b",parentData:data,parentDataProperty:"a-b",rootData}))){return false;}return true;}`;
    expect(withoutCallContexts(code)).toBe('function validate1(data){const instancePath = "";if(!(validate2(data3[i0]))){return false;}if(!(wrapper0.validate(data["a-b"]))){return false;}return true;}');
  });

  it("fails when the context is read for anything else", () => {
    expect(() => withoutCallContexts(`${HEADER}if(parentData === null){return false;}return true;}`)).toThrow(/call context/);
    expect(() => withoutCallContexts(`${HEADER}return validate2(data, {instancePath,parentData,parentDataProperty,rootData});}`)).toThrow(/call context/);
  });
});

describe("withoutErrorDetails", () => {
  it("makes each error object 0, keeping how many errors there are, and drops the value's path", () => {
    const code =
      'function validate1(data){const instancePath = "";let vErrors = null;let errors = 0;if(typeof data !== "string"){validate1.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "string"}}];return false;}' +
      'if(!(validate2(data))){vErrors = vErrors === null ? validate2.errors : vErrors.concat(validate2.errors);errors = vErrors.length;}' +
      'const err0 = {instancePath:instancePath+"/a",schemaPath:"#/anyOf",keyword:"anyOf",params:{}};if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;return errors === 0;}';
    expect(withoutErrorDetails(code)).toBe(
      'function validate1(data){let vErrors = null;let errors = 0;if(typeof data !== "string"){validate1.errors = [0];return false;}' +
        'if(!(validate2(data))){vErrors = vErrors === null ? validate2.errors : vErrors.concat(validate2.errors);errors = vErrors.length;}' +
        'const err0 = 0;if(vErrors === null){vErrors = [err0];}else {vErrors.push(err0);}errors++;return errors === 0;}',
    );
  });

  it("fails when the code reads the value's path for anything but an error", () => {
    expect(() => withoutErrorDetails('function validate1(data){const instancePath = "";return instancePath.length === 0;}')).toThrow(/value's path/);
  });
});

describe("withBranchErrorCounts", () => {
  const collecting = createRequire(import.meta.url)("../../generated/validators/catalog.collect.cjs") as CollectingValidators;

  it("a failed anyOf counts the errors each branch made, which are the errors just before it", () => {
    // A group with neither controls nor groups, with a stray property and a title with a line break: both branches fail.
    const metadata = { title: "T", "last-modified": "2024-01-01T00:00:00Z", version: "1", "oscal-version": "1.2.2" };
    const group = { id: "g1", title: "Line one\nline two", stray: 1, parts: [{ name: "x", prose: 5 }] };
    collecting.collect({ catalog: { uuid: "4a6f6c8e-1f5b-4d6e-9a3c-2b7d8e9f0a1b", metadata, groups: [group] } });
    const errors = collecting.collect.errors ?? [];
    const at = errors.findIndex((error) => error.keyword === "anyOf" && error.instancePath === "/catalog/groups/0");
    expect(at).toBeGreaterThan(0);
    const counts = errors[at]!.params.branchErrors as number[];
    expect(counts).toHaveLength(2);
    expect(counts.every((count) => count > 0)).toBe(true);
    const branchErrors = errors.slice(at - counts[0]! - counts[1]!, at);
    expect(branchErrors.every((error) => error.instancePath.startsWith("/catalog/groups/0"))).toBe(true);
    expect(errors.slice(0, at - counts[0]! - counts[1]!).some((error) => error.instancePath.startsWith("/catalog/groups/0"))).toBe(false);
  });

  it("stops the build when Ajv's anyOf code or a oneOf no longer fits", () => {
    const anyOf = 'let valid1 = false;const _errs2 = errors;var _valid0 = _errs2 === errors;valid1 = valid1 || _valid0;const _errs3 = errors;var _valid0 = _errs3 === errors;valid1 = valid1 || _valid0;if(!valid1){const err4 = {instancePath,schemaPath:"#/anyOf",keyword:"anyOf",params:{}};}';
    expect(withBranchErrorCounts(anyOf)).toContain("params:{branchErrors: valid1Branches}");
    expect(() => withBranchErrorCounts(anyOf.replace("let valid1 = false;", "let valid1 = 0;"))).toThrow(/changed shape/);
    expect(() => withBranchErrorCounts(`${anyOf}const err5 = {keyword:"oneOf",params:{}};`)).toThrow(/oneOf/);
  });
});

describe("tidiedModuleScope", () => {
  it("drops the module-level schemas no code reads, and only those", () => {
    const code = '"use strict";exports.validate = validate1;var schema1 = {"type":"object","description":"a ; } { \\" in text"};var schema2 = {"enum":["a","b"]};var schema3 = {"x":1};function validate1(data){return schema2.enum.includes(data) && schema3 !== null;}';
    expect(tidiedModuleScope(code)).toBe('"use strict";exports.validate = validate1;var schema2 = {"enum":["a","b"]};var schema3 = {"x":1};function validate1(data){return schema2.enum.includes(data) && schema3 !== null;}');
  });
});
