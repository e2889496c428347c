// oscal-metadata-telephone-number-regex, oscal-risk-priority-datatype
var R0 = /^(?:^[0-9]{3}[0-9]{1,12}$)$/;
var R19 = /^(?:[-+]?[0-9]+)$/;
var S23 = new Set(["http://csrc.nist.gov/ns/oscal"]);

function W3(x) {
if (A[0] === 1) {
{ const v = AT(x["number"]); if (v !== undefined) { const s = String(v); if (!R0.test(s)) R.report(0, PL, "The telephone number " + EX(s) + " does not match the required pattern ^[0-9]{3}[0-9]{1,12}$."); } }
}
}

function W2(x) {
{ const c1 = x["telephone-numbers"]; if (c1 !== undefined) { P[PL] = "telephone-numbers"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c1)) { for (let i2 = 0; i2 < c1.length; i2++) { const y3 = c1[i2]; P[PL] = i2; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y3)) { W3(y3); } PL--; } } PL--; } }
}

function W4(x) {
{ const c7 = x["telephone-numbers"]; if (c7 !== undefined) { P[PL] = "telephone-numbers"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c7)) { for (let i8 = 0; i8 < c7.length; i8++) { const y9 = c7[i8]; P[PL] = i8; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y9)) { W3(y9); } PL--; } } PL--; } }
}

function W1(x) {
{ const c4 = x["locations"]; if (c4 !== undefined) { P[PL] = "locations"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c4)) { for (let i5 = 0; i5 < c4.length; i5++) { const y6 = c4[i5]; P[PL] = i5; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y6)) { W2(y6); } PL--; } } PL--; } }
{ const c10 = x["parties"]; if (c10 !== undefined) { P[PL] = "parties"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c10)) { for (let i11 = 0; i11 < c10.length; i11++) { const y12 = c10[i11]; P[PL] = i11; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y12)) { W4(y12); } PL--; } } PL--; } }
}

function W0(x) {
{ const c13 = x["metadata"]; if (c13 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c13)) { const y15 = c13; if (isObj(y15)) { W1(y15); } } PL--; } }
}

function W7(x) {
{ const g25 = A[1] === 1;
if (g25) { const c20 = x["props"]; if (c20 !== undefined) { P[PL] = "props"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c20)) { for (let i21 = 0; i21 < c20.length; i21++) { const y22 = c20[i21]; P[PL] = i21; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y22)) { if (((y22["ns"] === undefined || S23.has(AS(y22["ns"])))) && ((AS(y22["name"]) === "priority"))) { { const f24 = y22["value"]; if (isAtom(f24)) { P[PL] = "value"; if (PL <= MH) MH = PL - 1; PL++; { const v = f24; const s = String(v); if (!R19.test(s)) R.report(1, PL, "The property value " + EX(s) + " is not a valid integer for a property with name \"priority\" in the OSCAL namespace: write it as digits, optionally after + or -."); } PL--; } } } } PL--; } } PL--; } } }
}

function W6(x) {
{ const c26 = x["risks"]; if (c26 !== undefined) { P[PL] = "risks"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c26)) { for (let i27 = 0; i27 < c26.length; i27++) { const y28 = c26[i27]; P[PL] = i27; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y28)) { W7(y28); } PL--; } } PL--; } }
}

function W5(x) {
{ const c16 = x["metadata"]; if (c16 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c16)) { const y18 = c16; if (isObj(y18)) { W1(y18); } } PL--; } }
{ const c29 = x["results"]; if (c29 !== undefined) { P[PL] = "results"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c29)) { for (let i30 = 0; i30 < c29.length; i30++) { const y31 = c29[i30]; P[PL] = i30; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y31)) { W6(y31); } PL--; } } PL--; } }
}

function W8(x) {
{ const c32 = x["metadata"]; if (c32 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c32)) { const y34 = c32; if (isObj(y34)) { W1(y34); } } PL--; } }
}

function W9(x) {
{ const c35 = x["metadata"]; if (c35 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c35)) { const y37 = c35; if (isObj(y37)) { W1(y37); } } PL--; } }
}

function W10(x) {
{ const c38 = x["metadata"]; if (c38 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c38)) { const y40 = c38; if (isObj(y40)) { W1(y40); } } PL--; } }
}

function W11(x) {
{ const c41 = x["metadata"]; if (c41 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c41)) { const y43 = c41; if (isObj(y43)) { W1(y43); } } PL--; } }
{ const c44 = x["risks"]; if (c44 !== undefined) { P[PL] = "risks"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c44)) { for (let i45 = 0; i45 < c44.length; i45++) { const y46 = c44[i45]; P[PL] = i45; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y46)) { W7(y46); } PL--; } } PL--; } }
}

function W12(x) {
{ const c47 = x["metadata"]; if (c47 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c47)) { const y49 = c47; if (isObj(y49)) { W1(y49); } } PL--; } }
}

function W13(x) {
{ const c50 = x["metadata"]; if (c50 !== undefined) { P[PL] = "metadata"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c50)) { const y52 = c50; if (isObj(y52)) { W1(y52); } } PL--; } }
}

// roots: assessment-plan W0, assessment-results W5, catalog W8, component-definition W9, mapping-collection W10, plan-of-action-and-milestones W11, profile W12, system-security-plan W13
