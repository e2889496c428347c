// The fast validators' nested calls pass the value alone; anything else in Ajv's code that reads the call context
// must stop the build rather than be rewritten.
import { describe, expect, it } from "vitest";
import { withoutCallContexts } from "../../compiler/emit-validators.js";

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
