// oscal-system-implementation-component-prop-leveraged-authorization-uuid-index
var L6 = ["The property value","names no matching item in this document"];

function W0(x) {
}

function W1(x) {
}

function W2(x) {
}

function W3(x) {
}

function W4(x) {
}

function W5(x) {
}

function W6(x) {
}

function W8(x) {
{ const g11 = A[0] === 1;
if (g11) { const c0 = x["components"]; if (c0 !== undefined) { P[PL] = "components"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c0)) { for (let i1 = 0; i1 < c0.length; i1++) { const y2 = c0[i1]; P[PL] = i1; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y2)) { { { const c3 = y2["props"]; if (c3 !== undefined) { P[PL] = "props"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c3)) { for (let i4 = 0; i4 < c3.length; i4++) { const y5 = c3[i4]; P[PL] = i4; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y5)) { if ((AS(y5["name"]) === "leveraged-authorization-uuid")) { R.reference(0, IX["index-system-implementation-leveraged-authorization-uuid"], (AS(y5["value"]) ?? null), PL, L6); } } PL--; } } PL--; } } } } PL--; } } PL--; } } }
{ const g10 = A[1] === 1;
if (g10) { const c7 = x["leveraged-authorizations"]; if (c7 !== undefined) { P[PL] = "leveraged-authorizations"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c7)) { for (let i8 = 0; i8 < c7.length; i8++) { const y9 = c7[i8]; P[PL] = i8; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y9)) { { { const k = (AS(y9["uuid"]) ?? null); if (k !== null) { const s = IX["index-system-implementation-leveraged-authorization-uuid"], n = s.size; if (s.add(k).size === n) R.report(1, PL, "This leveraged authorization repeats the leveraged authorization UUID " + EX(k) + " of an earlier one; references could not tell them apart."); } } } } PL--; } } PL--; } } }
}

function W7(x) {
{ const c12 = x["system-implementation"]; if (c12 !== undefined) { P[PL] = "system-implementation"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c12)) { const y14 = c12; if (isObj(y14)) { W8(y14); } } PL--; } }
}

// roots: assessment-plan W0, assessment-results W1, catalog W2, component-definition W3, mapping-collection W4, plan-of-action-and-milestones W5, profile W6, system-security-plan W7
