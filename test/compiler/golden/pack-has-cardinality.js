// golden: has-cardinality
"use strict";
var runtime = require("#runtime/constraints/runtime.cjs");
var { ChildNames, DOCUMENT_ADDRESS, EMPTY, FALSE, KEYN, TRUE, XNode, addKey, atomize, bool, childStep, childrenStep, compareFlagWith, compareGeneral, compareValues, concat, countOf, countWithin, currentDateTime, descendantStep, descendantsStep, doc, docAvailable, effectiveBoolean, equal, filterOrJoin, firstNotEvaluated, firstOfEachKey, flagIs, flagStep, flagValueIs, flagValueOf, flagValues, greater, greaterOrEqual, keyPart, less, lessOrEqual, literalValue, lookupAll, mapEach, mapEntry, memo, memoStep, mergeEntries, mergeMaps, messagePart, normalize, notEqual, oneAtom, parentStep, pathOf, pathOfFocus, quantifiedEquality, resolveProfile, resolveUri, rootStep, selfStep, startsWith, stepEach, substring, substringAfter, substringOfLength, textOf, valueIn, valueMatches, valueNotAllowed, variable } = runtime;
exports.runtime = runtime;
exports.program = function program() {
var k1 = new ChildNames(["prop"]);
var k2 = childStep(k1);
var k4 = ["a"];
var e3 = flagIs(equal, k4, "name");
function e0(f, s) {
if (f === undefined) return EMPTY;
var items = k2(f, s);
items = filterOrJoin(items, e3, null, s);
return items;
}
function msg5(t, s) {
return "Expected exactly one, found " + e0(t, s).length + ". rule 0";
}
function check6(R, node, s) {
try {
if (countWithin(e0(node, s).length, 1, 1)) R.pass(0); else R.fail(0, "has-cardinality", node, node, s, msg5);
} catch (error) {
R.notEvaluated(0, node, node, error);
}
}
function w8(node, sites, wanted, live) {
if (wanted[0]) sites[0].push(node);
}
function w7(node, sites, wanted, live) {
let nodes;
if (live[1]) {
nodes = node.instanceAt(1);
for (let j = 0; j < nodes.length; j++) w8(nodes[j], sites, wanted, live);
}
}
function walk9(document, sites, wanted, live) {
let nodes;
switch (document.view.model) {
case "system-security-plan":
if (live[0]) {
nodes = document.instanceAt(0);
for (let j = 0; j < nodes.length; j++) w7(nodes[j], sites, wanted, live);
}
break;
}
}
return {
name: "golden",
definitions: [["a",[["uuid","uuid"]],[["metadata","metadata",1],["component","components",2]]],["a",[],[["party","parties",3]]],["a",[["uuid","uuid"],["type","type"]],[["prop","props",4]]],["a",[["uuid","uuid"]],[]],["a",[["name","name"],["value","value"]],[]]],
roots: {"system-security-plan":0},
namesBelow: [["metadata","component","party","prop"],["party"],["prop"],[],[]],
rules: [{"id":"TST-000.a","constraintId":"c0","severity":"error","keyword":"has-cardinality","description":"rule 0","models":["system-security-plan"]}],
contexts: [
{ targets: undefined, lets: [], constraints: [
{ rule: 0, index: undefined, searches: undefined, check: check6, addKeys: undefined }
] }
],
searches: [],
walk: walk9,
walkSlots: [[0],[0]],
};
};
