// oscal-metadata-party-type-values, oscal-activity-type-values
var S0 = new Set(["person","organization"]);
var S8 = new Set(["INTERVIEW","EXAMINE","TEST"]);
var S12 = new Set(["http://csrc.nist.gov/ns/oscal"]);

function W2(x) {
{ const f = x["type"]; if (isAtom(f)) { P[PL] = "type"; if (PL <= MH) MH = PL - 1; PL++; 
if (A[0] === 1) {
{ const v1 = f; if (!S0.has(String(v1))) R.report(0, PL, notOneOf("The party type", EX(v1), "here", allowedList(S0))); }
}
 PL--; } }
}

function W1(x) {
{ const c2 = x["parties"]; if (c2 !== undefined) { P[PL] = "parties"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c2)) { for (let i3 = 0; i3 < c2.length; i3++) { const y4 = c2[i3]; P[PL] = i3; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y4)) { W2(y4); } PL--; } } PL--; } }
}

function W4(x) {
{ const g15 = A[1] === 1;
if (g15) { const c9 = x["props"]; if (c9 !== undefined) { P[PL] = "props"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c9)) { for (let i10 = 0; i10 < c9.length; i10++) { const y11 = c9[i10]; P[PL] = i10; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y11)) { if (((y11["ns"] === undefined || S12.has(AS(y11["ns"])))) && ((AS(y11["name"]) === "method"))) { { const f13 = y11["value"]; if (isAtom(f13)) { P[PL] = "value"; if (PL <= MH) MH = PL - 1; PL++; { const v14 = f13; if (!S8.has(String(v14))) R.report(1, PL, notOneOf("The property value", EX(v14), "for a property with name \"method\" in the OSCAL namespace", allowedList(S8))); } PL--; } } } } PL--; } } PL--; } } }
}

function W3(x) {
{ const c16 = x["activities"]; if (c16 !== undefined) { P[PL] = "activities"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c16)) { for (let i17 = 0; i17 < c16.length; i17++) { const y18 = c16[i17]; P[PL] = i17; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y18)) { W4(y18); } PL--; } } PL--; } }
}

function W0(x) {
{ const c5 = x["metadata"]; if (c5 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c5)) { const y7 = c5; if (isObj(y7)) { W1(y7); } } PL--; } }
{ const c19 = x["local-definitions"]; if (c19 !== undefined) { P[PL] = "local-definitions"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c19)) { const y21 = c19; if (isObj(y21)) { W3(y21); } } PL--; } }
}

function W6(x) {
{ const c25 = x["activities"]; if (c25 !== undefined) { P[PL] = "activities"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c25)) { for (let i26 = 0; i26 < c25.length; i26++) { const y27 = c25[i26]; P[PL] = i26; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y27)) { W4(y27); } PL--; } } PL--; } }
}

function W5(x) {
{ const c22 = x["metadata"]; if (c22 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c22)) { const y24 = c22; if (isObj(y24)) { W1(y24); } } PL--; } }
{ const c28 = x["local-definitions"]; if (c28 !== undefined) { P[PL] = "local-definitions"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c28)) { const y30 = c28; if (isObj(y30)) { W6(y30); } } PL--; } }
}

function W7(x) {
{ const c31 = x["metadata"]; if (c31 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c31)) { const y33 = c31; if (isObj(y33)) { W1(y33); } } PL--; } }
}

function W8(x) {
{ const c34 = x["metadata"]; if (c34 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c34)) { const y36 = c34; if (isObj(y36)) { W1(y36); } } PL--; } }
}

function W9(x) {
{ const c37 = x["metadata"]; if (c37 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c37)) { const y39 = c37; if (isObj(y39)) { W1(y39); } } PL--; } }
}

function W10(x) {
{ const c40 = x["metadata"]; if (c40 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c40)) { const y42 = c40; if (isObj(y42)) { W1(y42); } } PL--; } }
}

function W11(x) {
{ const c43 = x["metadata"]; if (c43 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c43)) { const y45 = c43; if (isObj(y45)) { W1(y45); } } PL--; } }
}

function W12(x) {
{ const c46 = x["metadata"]; if (c46 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c46)) { const y48 = c46; if (isObj(y48)) { W1(y48); } } PL--; } }
}

// roots: assessment-plan W0, assessment-results W5, catalog W7, component-definition W8, mapping-collection W9, plan-of-action-and-milestones W10, profile W11, system-security-plan W12
