// golden: expect
"use strict";
module.exports = function program(primitives) {
var { ChildNames, FALSE, TRUE, XNode, atomize, bool, call, childStep, childrenStep, compareFlagWith, compareGeneral, compareValues, concat, countOf, descendantStep, descendantsStep, effectiveBoolean, flagIs, flagStep, flagValueIs, flagValueOf, flagValues, literalValue, logical, lookupAll, mapEach, mapEntry, memo, memoStep, mergeEntries, mergeMaps, normalize, parentStep, path, quantified, quantifiedEquality, rootStep, selfStep, variable } = primitives;
var k4 = ["a"];
var e3 = flagIs("=", k4, "name");
var k5 = new ChildNames(["prop"]);
var k6 = childStep(k5);
var e2 = path(false, false, [{ step: k6, ordered: true, predicates: [{ evaluate: e3, join: null }] }]);
function e1(f, s) {
return bool(e2(f, s).length > 0);
}
var m7 = memo(e1);
var k9 = ["x"];
var e8 = flagIs("=", k9, "type");
var k10 = [m7, e8];
function e0(f, s) {
return bool(logical(false, k10, f, s));
}
var k12 = new ChildNames(["metadata"]);
var k13 = childStep(k12);
var k14 = new ChildNames(["party"]);
var k15 = childStep(k14);
var k16 = flagStep("uuid");
var e11 = path(false, false, [{ step: k13, ordered: true, predicates: [] }, { step: k15, ordered: true, predicates: [] }, { step: k16, ordered: true, predicates: [] }]);
var e18 = variable("parties");
var k19 = [{ name: "p", in: e18 }];
var k22 = new ChildNames(["component"]);
var k23 = childStep(k22);
var e21 = path(false, false, [{ step: k23, ordered: true, predicates: [] }, { step: k16, ordered: true, predicates: [] }]);
function e20(f, s) {
return compareGeneral("=", s.lookup("p"), e21(f, s));
}
function e17(f, s) {
return bool(quantified(false, k19, 0, e20, f, s));
}
function e25(f, s) {
return bool((f instanceof XNode ? f.countChildrenNamed(k5) : 0) >= 1);
}
function e26(f, s) {
return TRUE;
}
function e24(f, s) {
return effectiveBoolean(e8(f, s)) ? e25(f, s) : e26(f, s);
}
function w28(node, sites, wanted, live) {
if (wanted[0]) sites[0].push(node);
if (wanted[2]) sites[2].push(node);
}
function w27(node, sites, wanted, live) {
let nodes;
if (wanted[1]) sites[1].push(node);
if (live[1]) {
nodes = node.instanceAt(1);
for (let j = 0; j < nodes.length; j++) w28(nodes[j], sites, wanted, live);
}
}
function walk29(document, sites, wanted, live) {
let nodes;
switch (document.view.model) {
case "system-security-plan":
if (live[0]) {
nodes = document.instanceAt(0);
for (let j = 0; j < nodes.length; j++) w27(nodes[j], sites, wanted, live);
}
break;
}
}
return {
name: "golden",
definitions: [["a",[["uuid","uuid"]],[["metadata","metadata",1],["component","components",2]]],["a",[],[["party","parties",3]]],["a",[["uuid","uuid"],["type","type"]],[["prop","props",4]]],["a",[["uuid","uuid"]],[]],["a",[["name","name"],["value","value"]],[]]],
roots: {"system-security-plan":0},
namesBelow: [["metadata","component","party","prop"],["party"],["prop"],[],[]],
rules: [{"id":"TST-000.a","constraintId":"c0","severity":"error","keyword":"expect","description":"rule 0","models":["system-security-plan"]},{"id":"TST-001.a","constraintId":"c1","severity":"error","keyword":"expect","description":"rule 1","models":["system-security-plan"]},{"id":"TST-002.a","constraintId":"c2","severity":"error","keyword":"expect","description":"rule 2","models":["system-security-plan"]}],
contexts: [
{ targets: undefined, lets: [], constraints: [
{ rule: 0, kind: "expect", targets: undefined, test: e0, leading: undefined, values: undefined, allowOther: undefined, patterns: undefined, index: undefined, keys: undefined, message: undefined, searches: undefined }
] },
{ targets: undefined, lets: [{ name: "parties", value: e11 }], constraints: [
{ rule: 1, kind: "expect", targets: undefined, test: e17, leading: "parties", values: undefined, allowOther: undefined, patterns: undefined, index: undefined, keys: undefined, message: undefined, searches: undefined }
] },
{ targets: undefined, lets: [], constraints: [
{ rule: 2, kind: "expect", targets: undefined, test: e24, leading: undefined, values: undefined, allowOther: undefined, patterns: undefined, index: undefined, keys: undefined, message: undefined, searches: undefined }
] }
],
searches: [],
walk: walk29,
walkSlots: [[0,1,2],[0,2]],
};
};
