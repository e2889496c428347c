// oscal-system-implementation-component-prop-leveraged-authorization-uuid-index


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
{ const g10 = A[0] === 1;
if (g10) { const c0 = x["components"]; if (c0 !== undefined) { P[PL] = "components"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c0)) { for (let i1 = 0; i1 < c0.length; i1++) { const y2 = c0[i1]; P[PL] = i1; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y2)) { { { const c3 = y2["props"]; if (c3 !== undefined) { P[PL] = "props"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c3)) { for (let i4 = 0; i4 < c3.length; i4++) { const y5 = c3[i4]; P[PL] = i4; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y5)) { if ((AS(y5["name"]) === "leveraged-authorization-uuid")) { R.reference(0, IX["index-system-implementation-leveraged-authorization-uuid"], (AS(y5["value"]) ?? null), PL, "prop (@value) refers to a key missing from index index-system-implementation-leveraged-authorization-uuid:"); } } PL--; } } PL--; } } } } PL--; } } PL--; } } }
{ const g9 = A[1] === 1;
if (g9) { const c6 = x["leveraged-authorizations"]; if (c6 !== undefined) { P[PL] = "leveraged-authorizations"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c6)) { for (let i7 = 0; i7 < c6.length; i7++) { const y8 = c6[i7]; P[PL] = i7; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y8)) { { { const k = (AS(y8["uuid"]) ?? null); if (k !== null) { const s = IX["index-system-implementation-leveraged-authorization-uuid"], n = s.size; if (s.add(k).size === n) R.report(1, PL, "Duplicate key (@uuid) " + EX(k) + " in index index-system-implementation-leveraged-authorization-uuid [oscal-system-implementation-component-leveraged-authorization-uuid-index]"); } } } } PL--; } } PL--; } } }
}

function W7(x) {
{ const c11 = x["system-implementation"]; if (c11 !== undefined) { P[PL] = "system-implementation"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c11)) { const y13 = c11; if (isObj(y13)) { W8(y13); } } PL--; } }
}

// roots: assessment-plan W0, assessment-results W1, catalog W2, component-definition W3, mapping-collection W4, plan-of-action-and-milestones W5, profile W6, system-security-plan W7
