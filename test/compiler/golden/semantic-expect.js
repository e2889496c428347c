// oscal-component-protocol-port-range-starts-before-end, oscal-catalog-control-require-statement-when-not-withdrawn
var S30 = new Set(["withdrawn","Withdrawn"]);

function Q31(n) {
{ const c32 = n["props"]; if (c32 !== undefined) { if (Array.isArray(c32)) { for (let i33 = 0; i33 < c32.length; i33++) { const y34 = c32[i33]; if (isObj(y34)) { if ((AS(y34["name"]) === "status")) { { const f35 = y34["value"]; if (isAtom(f35)) { if (S30.has(AS(f35))) return true; } } } } } } } }
return false;
}

function Q37(n) {
{ const c38 = n["parts"]; if (c38 !== undefined) { if (Array.isArray(c38)) { for (let i39 = 0; i39 < c38.length; i39++) { const y40 = c38[i39]; if (isObj(y40)) { if ((AS(y40["name"]) === "statement")) { return true; } } } } } }
return false;
}

function W4(x) {
if (A[0] === 1) {
if (!(!CMPG(greater, SEQ(AT(x["start"])), SEQ(AT(x["end"]))))) R.report(0, PL, "The port range start should not be after its end (port range).");
}
}

function W3(x) {
{ const c0 = x["port-ranges"]; if (c0 !== undefined) { P[PL] = "port-ranges"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c0)) { for (let i1 = 0; i1 < c0.length; i1++) { const y2 = c0[i1]; P[PL] = i1; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y2)) { W4(y2); } PL--; } } PL--; } }
}

function W2(x) {
{ const c3 = x["protocols"]; if (c3 !== undefined) { P[PL] = "protocols"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c3)) { for (let i4 = 0; i4 < c3.length; i4++) { const y5 = c3[i4]; P[PL] = i4; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y5)) { W3(y5); } PL--; } } PL--; } }
}

function W1(x) {
{ const c6 = x["components"]; if (c6 !== undefined) { P[PL] = "components"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c6)) { for (let i7 = 0; i7 < c6.length; i7++) { const y8 = c6[i7]; P[PL] = i7; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y8)) { W2(y8); } PL--; } } PL--; } }
}

function W5(x) {
{ const c12 = x["components"]; if (c12 !== undefined) { P[PL] = "components"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c12)) { for (let i13 = 0; i13 < c12.length; i13++) { const y14 = c12[i13]; P[PL] = i13; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y14)) { W2(y14); } PL--; } } PL--; } }
}

function W0(x) {
{ const c9 = x["local-definitions"]; if (c9 !== undefined) { P[PL] = "local-definitions"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c9)) { const y11 = c9; if (isObj(y11)) { W1(y11); } } PL--; } }
{ const c15 = x["assessment-assets"]; if (c15 !== undefined) { P[PL] = "assessment-assets"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c15)) { const y17 = c15; if (isObj(y17)) { W5(y17); } } PL--; } }
}

function W8(x) {
{ const c18 = x["components"]; if (c18 !== undefined) { P[PL] = "components"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c18)) { for (let i19 = 0; i19 < c18.length; i19++) { const y20 = c18[i19]; P[PL] = i19; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y20)) { W2(y20); } PL--; } } PL--; } }
{ const c21 = x["assessment-assets"]; if (c21 !== undefined) { P[PL] = "assessment-assets"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c21)) { const y23 = c21; if (isObj(y23)) { W5(y23); } } PL--; } }
}

function W7(x) {
{ const c24 = x["local-definitions"]; if (c24 !== undefined) { P[PL] = "local-definitions"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c24)) { const y26 = c24; if (isObj(y26)) { W8(y26); } } PL--; } }
}

function W6(x) {
{ const c27 = x["results"]; if (c27 !== undefined) { P[PL] = "results"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c27)) { for (let i28 = 0; i28 < c27.length; i28++) { const y29 = c27[i28]; P[PL] = i28; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y29)) { W7(y29); } PL--; } } PL--; } }
}

function W10(x) {
if (A[1] === 1) {
if (!((Q31(x) || Q37(x)))) R.report(1, PL, "A control must either have a property with name \"status\" whose value is \"withdrawn\" or \"Withdrawn\" or have a part with name \"statement\". This one does not.");
}
{ const c41 = x["controls"]; if (c41 !== undefined) { P[PL] = "controls"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c41)) { for (let i42 = 0; i42 < c41.length; i42++) { const y43 = c41[i42]; P[PL] = i42; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y43)) { W10(y43); } PL--; } } PL--; } }
}

function W11(x) {
{ const c47 = x["groups"]; if (c47 !== undefined) { P[PL] = "groups"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c47)) { for (let i48 = 0; i48 < c47.length; i48++) { const y49 = c47[i48]; P[PL] = i48; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y49)) { W11(y49); } PL--; } } PL--; } }
{ const c50 = x["controls"]; if (c50 !== undefined) { P[PL] = "controls"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c50)) { for (let i51 = 0; i51 < c50.length; i51++) { const y52 = c50[i51]; P[PL] = i51; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y52)) { W10(y52); } PL--; } } PL--; } }
}

function W9(x) {
{ const c44 = x["controls"]; if (c44 !== undefined) { P[PL] = "controls"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c44)) { for (let i45 = 0; i45 < c44.length; i45++) { const y46 = c44[i45]; P[PL] = i45; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y46)) { W10(y46); } PL--; } } PL--; } }
{ const c53 = x["groups"]; if (c53 !== undefined) { P[PL] = "groups"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c53)) { for (let i54 = 0; i54 < c53.length; i54++) { const y55 = c53[i54]; P[PL] = i54; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y55)) { W11(y55); } PL--; } } PL--; } }
}

function W13(x) {
{ const c56 = x["protocols"]; if (c56 !== undefined) { P[PL] = "protocols"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c56)) { for (let i57 = 0; i57 < c56.length; i57++) { const y58 = c56[i57]; P[PL] = i57; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y58)) { W3(y58); } PL--; } } PL--; } }
}

function W12(x) {
{ const c59 = x["components"]; if (c59 !== undefined) { P[PL] = "components"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c59)) { for (let i60 = 0; i60 < c59.length; i60++) { const y61 = c59[i60]; P[PL] = i60; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y61)) { W13(y61); } PL--; } } PL--; } }
}

function W14(x) {
}

function W16(x) {
{ const c62 = x["components"]; if (c62 !== undefined) { P[PL] = "components"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c62)) { for (let i63 = 0; i63 < c62.length; i63++) { const y64 = c62[i63]; P[PL] = i63; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y64)) { W2(y64); } PL--; } } PL--; } }
{ const c65 = x["assessment-assets"]; if (c65 !== undefined) { P[PL] = "assessment-assets"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c65)) { const y67 = c65; if (isObj(y67)) { W5(y67); } } PL--; } }
}

function W15(x) {
{ const c68 = x["local-definitions"]; if (c68 !== undefined) { P[PL] = "local-definitions"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c68)) { const y70 = c68; if (isObj(y70)) { W16(y70); } } PL--; } }
}

function W17(x) {
}

function W19(x) {
{ const c71 = x["components"]; if (c71 !== undefined) { P[PL] = "components"; if (PL <= MH) MH = PL - 1; PL++; if (Array.isArray(c71)) { for (let i72 = 0; i72 < c71.length; i72++) { const y73 = c71[i72]; P[PL] = i72; if (PL <= MH) MH = PL - 1; PL++; if (isObj(y73)) { W2(y73); } PL--; } } PL--; } }
}

function W18(x) {
{ const c74 = x["system-implementation"]; if (c74 !== undefined) { P[PL] = "system-implementation"; if (PL <= MH) MH = PL - 1; PL++; if (!Array.isArray(c74)) { const y76 = c74; if (isObj(y76)) { W19(y76); } } PL--; } }
}

// roots: assessment-plan W0, assessment-results W6, catalog W9, component-definition W12, mapping-collection W14, plan-of-action-and-milestones W15, profile W17, system-security-plan W18
