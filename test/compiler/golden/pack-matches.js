// golden: matches
"use strict";
var runtime = require("#runtime/constraints/runtime.cjs");
var { ChildNames, DOCUMENT_ADDRESS, EMPTY, FALSE, KEYN, TRUE, XNode, addKey, atomize, bool, childStep, childrenStep, compareFlagWith, compareGeneral, compareValues, concat, countOf, countWithin, currentDateTime, descendantStep, descendantsStep, doc, docAvailable, effectiveBoolean, equal, filterOrJoin, firstNotEvaluated, firstOfEachKey, flagIs, flagStep, flagValueIs, flagValueOf, flagValues, greater, greaterOrEqual, keyPart, less, lessOrEqual, literalValue, lookupAll, mapEach, mapEntry, memo, memoStep, mergeEntries, mergeMaps, messagePart, normalize, notEqual, oneAtom, parentStep, pathOf, pathOfFocus, quantifiedEquality, resolveProfile, resolveUri, rootStep, selfStep, startsWith, stepEach, substring, substringAfter, substringOfLength, textOf, valueIn, valueMatches, valueNotAllowed, variable } = runtime;
exports.runtime = runtime;
exports.program = function program() {
var k0 = [/^(?:[0-9]+)$/u];
var k2 = flagStep("value");
function e1(f, s) {
if (f === undefined) return EMPTY;
var items = k2(f, s);
return items;
}
function check3(R, node, s) {
var targets;
try {
targets = e1(node, s);
} catch (error) {
R.notEvaluated(0, node, node, error);
return;
}
for (var i = 0; i < targets.length; i++) {
var t = targets[i];
try {
if (valueMatches(t, k0)) R.pass(0); else R.fail(0, "matches", t, node, s, undefined);
} catch (error) {
R.notEvaluated(0, t, node, error);
}
}
}
function w6(node, sites, wanted, live) {
if (wanted[0]) sites[0].push(node);
}
function w5(node, sites, wanted, live) {
let nodes;
if (live[2]) {
nodes = node.instanceAt(0);
for (let j = 0; j < nodes.length; j++) w6(nodes[j], sites, wanted, live);
}
}
function w4(node, sites, wanted, live) {
let nodes;
if (live[1]) {
nodes = node.instanceAt(1);
for (let j = 0; j < nodes.length; j++) w5(nodes[j], sites, wanted, live);
}
}
function walk7(document, sites, wanted, live) {
let nodes;
switch (document.view.model) {
case "system-security-plan":
if (live[0]) {
nodes = document.instanceAt(0);
for (let j = 0; j < nodes.length; j++) w4(nodes[j], sites, wanted, live);
}
break;
}
}
return {
name: "golden",
definitions: [["a",[["uuid","uuid"]],[["metadata","metadata",1],["component","components",2]]],["a",[],[["party","parties",3]]],["a",[["uuid","uuid"],["type","type"]],[["prop","props",4]]],["a",[["uuid","uuid"]],[]],["a",[["name","name"],["value","value"]],[]]],
roots: {"system-security-plan":0},
namesBelow: [["metadata","component","party","prop"],["party"],["prop"],[],[]],
rules: [{"id":"TST-000.a","constraintId":"c0","severity":"error","keyword":"matches","description":"rule 0","models":["system-security-plan"]}],
contexts: [
{ targets: undefined, lets: [], constraints: [
{ rule: 0, index: undefined, searches: undefined, check: check3, addKeys: undefined }
] }
],
searches: [],
walk: walk7,
walkSlots: [[0],[0],[0]],
};
};
