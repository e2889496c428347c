// oscal-activity-type-cardinality
var S3 = new Set(["http://csrc.nist.gov/ns/oscal"]);
var C0 = 0;

function W2(x) {
if (A[0] === 1) {
C0 = 0;
{ const c0 = x["props"]; if (c0 !== undefined) { if (Array.isArray(c0)) { for (let i1 = 0; i1 < c0.length; i1++) { const y2 = c0[i1]; if (isObj(y2)) { if (((y2["ns"] === undefined || S3.has(AS(y2["ns"]))) && (AS(y2["name"]) === "method"))) { C0++; } } } } } }
if (C0 < 1) R.report(0, PL, "An activity needs at least one property with name \"method\" in the OSCAL namespace (found " + C0 + ").");
}
}

function W1(x) {
{ const c4 = x["activities"]; if (c4 !== undefined) { P[PL] = "activities"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c4)) { for (let i5 = 0; i5 < c4.length; i5++) { const y6 = c4[i5]; P[PL] = i5; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y6)) { W2(y6); } PL--; } } PL--; } }
}

function W0(x) {
{ const c7 = x["local-definitions"]; if (c7 !== undefined) { P[PL] = "local-definitions"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c7)) { const y9 = c7; if (isObj(y9)) { W1(y9); } } PL--; } }
}

function W4(x) {
{ const c10 = x["activities"]; if (c10 !== undefined) { P[PL] = "activities"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c10)) { for (let i11 = 0; i11 < c10.length; i11++) { const y12 = c10[i11]; P[PL] = i11; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y12)) { W2(y12); } PL--; } } PL--; } }
}

function W3(x) {
{ const c13 = x["local-definitions"]; if (c13 !== undefined) { P[PL] = "local-definitions"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c13)) { const y15 = c13; if (isObj(y15)) { W4(y15); } } PL--; } }
}

function W5(x) {
}

function W6(x) {
}

function W7(x) {
}

function W8(x) {
}

function W9(x) {
}

function W10(x) {
}

// roots: assessment-plan W0, assessment-results W3, catalog W5, component-definition W6, mapping-collection W7, plan-of-action-and-milestones W8, profile W9, system-security-plan W10
