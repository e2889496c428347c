// golden: expect
"use strict";
var runtime = require("#runtime/constraints/runtime.cjs");
var { ChildNames, DOCUMENT_ADDRESS, EMPTY, FALSE, KEYN, TRUE, XNode, addKey, atomize, bool, childStep, childrenStep, compareFlagWith, compareGeneral, compareValues, concat, countOf, countWithin, currentDateTime, descendantStep, descendantsStep, doc, docAvailable, effectiveBoolean, equal, filterOrJoin, firstNotEvaluated, firstOfEachKey, flagIs, flagStep, flagValueIs, flagValueOf, flagValues, greater, greaterOrEqual, keyPart, less, lessOrEqual, literalValue, lookupAll, mapEach, mapEntry, memo, memoStep, mergeEntries, mergeMaps, messagePart, normalize, notEqual, oneAtom, parentStep, pathOf, pathOfFocus, quantifiedEquality, resolveProfile, resolveUri, rootStep, selfStep, startsWith, stepEach, substring, substringAfter, substringOfLength, textOf, valueIn, valueMatches, valueNotAllowed, variable } = runtime;
exports.runtime = runtime;
exports.program = function program() {
var k3 = new ChildNames(["prop"]);
var k4 = childStep(k3);
var k6 = ["a"];
var e5 = flagIs(equal, k6, "name");
function e2(f, s) {
if (f === undefined) return EMPTY;
var items = k4(f, s);
items = filterOrJoin(items, e5, null, s);
return items;
}
function e1(f, s) {
return bool(e2(f, s).length > 0);
}
var m7 = memo(e1);
var k9 = ["x"];
var e8 = flagIs(equal, k9, "type");
function e0(f, s) {
var pending;
try {
if (effectiveBoolean(m7(f, s))) return TRUE;
} catch (error) {
pending = firstNotEvaluated(error, pending);
}
try {
if (effectiveBoolean(e8(f, s))) return TRUE;
} catch (error) {
pending = firstNotEvaluated(error, pending);
}
if (pending !== undefined) throw pending;
return FALSE;
}
function check10(R, node, s) {
try {
if (effectiveBoolean(e0(node, s))) R.pass(0); else R.fail(0, "expect", node, node, s, undefined);
} catch (error) {
R.notEvaluated(0, node, node, error);
}
}
var k12 = new ChildNames(["metadata"]);
var k13 = childStep(k12);
var k14 = new ChildNames(["party"]);
var k15 = childStep(k14);
var k16 = flagStep("uuid");
function e11(f, s) {
if (f === undefined) return EMPTY;
var items = k13(f, s);
items = items.length === 1 ? k15(items[0], s) : stepEach(items, k15, s, true);
items = items.length === 1 ? k16(items[0], s) : stepEach(items, k16, s, true);
return items;
}
var k20 = new ChildNames(["component"]);
var k21 = childStep(k20);
function e19(f, s) {
if (f === undefined) return EMPTY;
var items = k21(f, s);
items = items.length === 1 ? k16(items[0], s) : stepEach(items, k16, s, true);
return items;
}
function e18(f, s) {
return compareGeneral(equal, s.lookup("p"), e19(f, s));
}
var e22 = variable("parties");
function e17(f, s) {
var in0 = e22(f, s);
for (var i0 = 0; i0 < in0.length; i0++) {
var s1 = s.bind("p", in0[i0]);
if (!effectiveBoolean(e18(f, s1))) return FALSE;
}
return TRUE;
}
function check23(R, node, s) {
var failure = s.failureOf("parties");
if (failure !== undefined) {
R.notEvaluated(1, node, node, failure);
return;
}
try {
if (effectiveBoolean(e17(node, s))) R.pass(1); else R.fail(1, "expect", node, node, s, undefined);
} catch (error) {
R.notEvaluated(1, node, node, error);
}
}
function e25(f, s) {
return bool((f instanceof XNode ? f.countChildrenNamed(k3) : 0) >= 1);
}
function e26(f, s) {
return TRUE;
}
function e24(f, s) {
return effectiveBoolean(e8(f, s)) ? e25(f, s) : e26(f, s);
}
function check27(R, node, s) {
try {
if (effectiveBoolean(e24(node, s))) R.pass(2); else R.fail(2, "expect", node, node, s, undefined);
} catch (error) {
R.notEvaluated(2, node, node, error);
}
}
var k31 = flagStep("type");
function e30(f, s) {
if (f === undefined) return EMPTY;
var items = k31(f, s);
return items;
}
function e29(f, s) {
return startsWith(textOf(e30(f, s), "the constraint takes one value"), textOf(k9, "the constraint takes one value"));
}
var m32 = memo(e29);
function e35(f, s) {
if (f === undefined) return EMPTY;
var items = k16(f, s);
return items;
}
var k36 = [2];
function e34(f, s) {
return substring(textOf(e35(f, s), "the constraint takes one value"), textOf(k36, "the constraint takes one value"));
}
function e33(f, s) {
return compareValues(equal, oneAtom(e34(f, s), "the constraint compares one value"), oneAtom(k6, "the constraint compares one value"));
}
var m37 = memo(e33);
function e28(f, s) {
var pending;
try {
if (effectiveBoolean(m32(f, s))) return TRUE;
} catch (error) {
pending = firstNotEvaluated(error, pending);
}
try {
if (effectiveBoolean(m37(f, s))) return TRUE;
} catch (error) {
pending = firstNotEvaluated(error, pending);
}
if (pending !== undefined) throw pending;
return FALSE;
}
function check38(R, node, s) {
try {
if (effectiveBoolean(e28(node, s))) R.pass(3); else R.fail(3, "expect", node, node, s, undefined);
} catch (error) {
R.notEvaluated(3, node, node, error);
}
}
function w40(node, sites, wanted, live) {
if (wanted[0]) sites[0].push(node);
if (wanted[2]) sites[2].push(node);
if (wanted[3]) sites[3].push(node);
}
function w39(node, sites, wanted, live) {
let nodes;
if (wanted[1]) sites[1].push(node);
if (live[1]) {
nodes = node.instanceAt(1);
for (let j = 0; j < nodes.length; j++) w40(nodes[j], sites, wanted, live);
}
}
function walk41(document, sites, wanted, live) {
let nodes;
switch (document.view.model) {
case "system-security-plan":
if (live[0]) {
nodes = document.instanceAt(0);
for (let j = 0; j < nodes.length; j++) w39(nodes[j], sites, wanted, live);
}
break;
}
}
return {
name: "golden",
definitions: [["a",[["uuid","uuid"]],[["metadata","metadata",1],["component","components",2]]],["a",[],[["party","parties",3]]],["a",[["uuid","uuid"],["type","type"]],[["prop","props",4]]],["a",[["uuid","uuid"]],[]],["a",[["name","name"],["value","value"]],[]]],
roots: {"system-security-plan":0},
namesBelow: [["metadata","component","party","prop"],["party"],["prop"],[],[]],
rules: [{"id":"TST-000.a","constraintId":"c0","severity":"error","keyword":"expect","description":"rule 0","models":["system-security-plan"]},{"id":"TST-001.a","constraintId":"c1","severity":"error","keyword":"expect","description":"rule 1","models":["system-security-plan"]},{"id":"TST-002.a","constraintId":"c2","severity":"error","keyword":"expect","description":"rule 2","models":["system-security-plan"]},{"id":"TST-003.a","constraintId":"c3","severity":"error","keyword":"expect","description":"rule 3","models":["system-security-plan"]}],
contexts: [
{ targets: undefined, lets: [], constraints: [
{ rule: 0, index: undefined, searches: undefined, check: check10, addKeys: undefined }
] },
{ targets: undefined, lets: [{ name: "parties", value: e11 }], constraints: [
{ rule: 1, index: undefined, searches: undefined, check: check23, addKeys: undefined }
] },
{ targets: undefined, lets: [], constraints: [
{ rule: 2, index: undefined, searches: undefined, check: check27, addKeys: undefined }
] },
{ targets: undefined, lets: [], constraints: [
{ rule: 3, index: undefined, searches: undefined, check: check38, addKeys: undefined }
] }
],
searches: [],
walk: walk41,
walkSlots: [[0,1,2,3],[0,2,3]],
};
};
