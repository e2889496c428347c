// oscal-system-implementation-component-leveraged-authorization-uuid-index


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
{ const g3 = A[0] === 1;
if (g3) { const c0 = x["leveraged-authorizations"]; if (c0 !== undefined) { P[PL] = "leveraged-authorizations"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c0)) { for (let i1 = 0; i1 < c0.length; i1++) { const y2 = c0[i1]; P[PL] = i1; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y2)) { { { const k = (AS(y2["uuid"]) ?? null); if (k !== null) { const s = IX["index-system-implementation-leveraged-authorization-uuid"], n = s.size; if (s.add(k).size === n) R.report(0, PL, "This leveraged authorization repeats the leveraged authorization UUID " + EX(k) + " of an earlier one; references could not tell them apart."); } } } } PL--; } } PL--; } } }
}

function W7(x) {
{ const c4 = x["system-implementation"]; if (c4 !== undefined) { P[PL] = "system-implementation"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c4)) { const y6 = c4; if (isObj(y6)) { W8(y6); } } PL--; } }
}

// roots: assessment-plan W0, assessment-results W1, catalog W2, component-definition W3, mapping-collection W4, plan-of-action-and-milestones W5, profile W6, system-security-plan W7
