// golden: index-has-key
"use strict";
var runtime = require("#runtime/constraints/runtime.cjs");
var { ChildNames, DOCUMENT_ADDRESS, EMPTY, FALSE, KEYN, TRUE, XNode, addKey, atomize, bool, childStep, childrenStep, compareFlagWith, compareGeneral, compareValues, concat, countOf, countWithin, currentDateTime, descendantStep, descendantsStep, doc, docAvailable, effectiveBoolean, equal, filterOrJoin, firstNotEvaluated, firstOfEachKey, flagIs, flagStep, flagValueIs, flagValueOf, flagValues, greater, greaterOrEqual, keyPart, less, lessOrEqual, literalValue, lookupAll, mapEach, mapEntry, memo, memoStep, mergeEntries, mergeMaps, messagePart, normalize, notEqual, oneAtom, parentStep, pathOf, pathOfFocus, quantifiedEquality, resolveProfile, resolveUri, rootStep, selfStep, startsWith, stepEach, substring, substringAfter, substringOfLength, textOf, valueIn, valueMatches, valueNotAllowed, variable } = runtime;
exports.runtime = runtime;
exports.program = function program() {
var k1 = new ChildNames(["party"]);
var k2 = childStep(k1);
function e0(f, s) {
if (f === undefined) return EMPTY;
var items = k2(f, s);
return items;
}
function key3(t, s) {
return keyPart(flagValueOf("uuid", t), undefined);
}
function index4(index, node, s) {
var targets = e0(node, s);
for (var i = 0; i < targets.length; i++) addKey(index, key3(targets[i], s), targets[i]);
}
function key5(t, s) {
return keyPart(flagValueOf("value", t), undefined);
}
var k7 = new ChildNames(["prop"]);
var k8 = childStep(k7);
var k10 = ["party"];
var e9 = flagIs(equal, k10, "name");
function e6(f, s) {
if (f === undefined) return EMPTY;
var items = k8(f, s);
items = filterOrJoin(items, e9, null, s);
return items;
}
function check11(R, node, s) {
var targets;
try {
targets = e6(node, s);
R.index("parties");
} catch (error) {
R.notEvaluated(1, node, node, error);
return;
}
for (var i = 0; i < targets.length; i++) {
var t = targets[i];
try {
if (R.index("parties").has(key5(t, s))) R.pass(1); else R.fail(1, "index-has-key", t, node, s, undefined);
} catch (error) {
R.notEvaluated(1, t, node, error);
}
}
}
function w13(node, sites, wanted, live) {
if (wanted[0]) sites[0].push(node);
}
function w14(node, sites, wanted, live) {
if (wanted[1]) sites[1].push(node);
}
function w12(node, sites, wanted, live) {
let nodes;
if (live[1]) {
nodes = node.instanceAt(0);
for (let j = 0; j < nodes.length; j++) w13(nodes[j], sites, wanted, live);
}
if (live[2]) {
nodes = node.instanceAt(1);
for (let j = 0; j < nodes.length; j++) w14(nodes[j], sites, wanted, live);
}
}
function walk15(document, sites, wanted, live) {
let nodes;
switch (document.view.model) {
case "system-security-plan":
if (live[0]) {
nodes = document.instanceAt(0);
for (let j = 0; j < nodes.length; j++) w12(nodes[j], sites, wanted, live);
}
break;
}
}
return {
name: "golden",
definitions: [["a",[["uuid","uuid"]],[["metadata","metadata",1],["component","components",2]]],["a",[],[["party","parties",3]]],["a",[["uuid","uuid"],["type","type"]],[["prop","props",4]]],["a",[["uuid","uuid"]],[]],["a",[["name","name"],["value","value"]],[]]],
roots: {"system-security-plan":0},
namesBelow: [["metadata","component","party","prop"],["party"],["prop"],[],[]],
rules: [{"id":"TST-000.a","constraintId":"c0","severity":"error","keyword":"index-has-key","description":"rule 0","models":["system-security-plan"]},{"id":"TST-001.a","constraintId":"c1","severity":"error","keyword":"index-has-key","description":"rule 1","models":["system-security-plan"]}],
contexts: [
{ targets: undefined, lets: [], constraints: [
{ rule: -1, index: "parties", searches: undefined, check: undefined, addKeys: index4 }
] },
{ targets: undefined, lets: [], constraints: [
{ rule: 1, index: "parties", searches: undefined, check: check11, addKeys: undefined }
] }
],
searches: [],
walk: walk15,
walkSlots: [[0,1],[0],[1]],
};
};
