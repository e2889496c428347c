// golden: expect
"use strict";
module.exports = function program(primitives) {
var { ChildNames, FALSE, TRUE, XNode, addKey, atomize, bool, call, childStep, childrenStep, compareFlagWith, compareGeneral, compareValues, concat, countOf, descendantStep, descendantsStep, effectiveBoolean, flagIs, flagStep, flagValueIs, flagValueOf, flagValues, joinKeys, keyPart, literalValue, logical, lookupAll, mapEach, mapEntry, memo, memoStep, mergeEntries, mergeMaps, messagePart, normalize, parentStep, path, quantified, quantifiedEquality, rootStep, selfStep, valueIn, valueMatches, valueNotAllowed, variable } = primitives;
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
function check11(R, node, s) {
try {
if (effectiveBoolean(e0(node, s))) R.pass(0); else R.fail(0, "expect", node, node, s, undefined);
} catch (error) {
R.notEvaluated(0, node, node, error);
}
}
var k13 = new ChildNames(["metadata"]);
var k14 = childStep(k13);
var k15 = new ChildNames(["party"]);
var k16 = childStep(k15);
var k17 = flagStep("uuid");
var e12 = path(false, false, [{ step: k14, ordered: true, predicates: [] }, { step: k16, ordered: true, predicates: [] }, { step: k17, ordered: true, predicates: [] }]);
var e19 = variable("parties");
var k20 = [{ name: "p", in: e19 }];
var k23 = new ChildNames(["component"]);
var k24 = childStep(k23);
var e22 = path(false, false, [{ step: k24, ordered: true, predicates: [] }, { step: k17, ordered: true, predicates: [] }]);
function e21(f, s) {
return compareGeneral("=", s.lookup("p"), e22(f, s));
}
function e18(f, s) {
return bool(quantified(false, k20, 0, e21, f, s));
}
function check25(R, node, s) {
var failure = s.failureOf("parties");
if (failure !== undefined) {
R.notEvaluated(1, node, node, failure);
return;
}
try {
if (effectiveBoolean(e18(node, s))) R.pass(1); else R.fail(1, "expect", node, node, s, undefined);
} catch (error) {
R.notEvaluated(1, node, node, error);
}
}
function e27(f, s) {
return bool((f instanceof XNode ? f.countChildrenNamed(k5) : 0) >= 1);
}
function e28(f, s) {
return TRUE;
}
function e26(f, s) {
return effectiveBoolean(e8(f, s)) ? e27(f, s) : e28(f, s);
}
function check29(R, node, s) {
try {
if (effectiveBoolean(e26(node, s))) R.pass(2); else R.fail(2, "expect", node, node, s, undefined);
} catch (error) {
R.notEvaluated(2, node, node, error);
}
}
function w31(node, sites, wanted, live) {
if (wanted[0]) sites[0].push(node);
if (wanted[2]) sites[2].push(node);
}
function w30(node, sites, wanted, live) {
let nodes;
if (wanted[1]) sites[1].push(node);
if (live[1]) {
nodes = node.instanceAt(1);
for (let j = 0; j < nodes.length; j++) w31(nodes[j], sites, wanted, live);
}
}
function walk32(document, sites, wanted, live) {
let nodes;
switch (document.view.model) {
case "system-security-plan":
if (live[0]) {
nodes = document.instanceAt(0);
for (let j = 0; j < nodes.length; j++) w30(nodes[j], sites, wanted, live);
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
{ rule: 0, index: undefined, searches: undefined, check: check11, addKeys: undefined }
] },
{ targets: undefined, lets: [{ name: "parties", value: e12 }], constraints: [
{ rule: 1, index: undefined, searches: undefined, check: check25, addKeys: undefined }
] },
{ targets: undefined, lets: [], constraints: [
{ rule: 2, index: undefined, searches: undefined, check: check29, addKeys: undefined }
] }
],
searches: [],
walk: walk32,
walkSlots: [[0,1,2],[0,2]],
};
};
