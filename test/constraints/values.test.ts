// What NIST's checks and the rule packs do alike with a document's values (runtime/constraints/values.ts): the quoted
// excerpt, index keys, and the allowed-values lists and messages.
import { describe, expect, it } from "vitest";
import { allowedList, EX, EXKEY, KEYN, KEYPAT, KEYREST, notAllowed, notOneOf } from "../../runtime/constraints/values.js";

describe("quoted values", () => {
  it("quote at most 64 code points, as the core's messages do, never cutting a character in two", () => {
    expect(EX("a".repeat(64))).toBe(`"${"a".repeat(64)}"`);
    expect(EX("a".repeat(65))).toBe(`"${"a".repeat(64)}…"`);
    expect(EX("😀".repeat(65))).toBe(`"${"😀".repeat(64)}…"`);
    expect(EX(12.5)).toBe('"12.5"');
  });
});

describe("index keys", () => {
  it("quotes a key of several fields with its fields separated by commas, an empty one left empty", () => {
    expect(EXKEY(KEYN(["a", undefined, "b"])!)).toBe('"a, , b"');
  });
  it("joins key fields, and gives no key when every field is empty", () => {
    expect(KEYN(["a", undefined, "b"])).toBe("a\u001f\u0000\u001fb");
    expect(KEYN([undefined, null])).toBeNull();
  });

  it("takes the first capturing group of a full match", () => {
    const re = /^(?:#(.*))$/;
    expect(KEYPAT(re, "#abc")).toBe("abc");
    expect(KEYPAT(re, "abc")).toBeNull();
    expect(KEYPAT(re, "#")).toBeNull();
  });

  it("cuts a literal prefix off as the pattern literal(.*) does", () => {
    const re = /^(?:#(.*))$/;
    for (const value of [undefined, "", "#", "#a", "a#b", "##", "#a\nb", "#\r", "#a\u2028", "#\u2029b", "# x", "#\ud800", "#é"]) {
      expect(KEYREST("#", value)).toBe(KEYPAT(re, value));
    }
  });
});

describe("the allowed-values messages", () => {
  it("lists the allowed values distinct and sorted, the first 12 and how many more", () => {
    const values = ["m", "b", "a", "b", ...Array.from({ length: 12 }, (_, i) => `v${String(i).padStart(2, "0")}`)];
    expect(allowedList(values)).toBe('"a", "b", "m", "v00", "v01", "v02", "v03", "v04", "v05", "v06", "v07", "v08", ... (3 more)');
    expect(allowedList(new Set(["y", "x"]))).toBe('"x", "y"');
  });
  it("names the value and where the values apply in NIST's words, with no constraint id or Metapath", () => {
    expect(notOneOf("The property name", '"isa-title"', "for a property in the OSCAL namespace", '"a", "b"')).toBe('The property name "isa-title" is not one of the values allowed for a property in the OSCAL namespace: "a", "b".');
  });
  it("writes the packs' message as they always have: where the value was found when that is known, ending with its source", () => {
    expect(notAllowed('"q"', "party/@type", '"x", "y"', " [oscal-party-type]")).toBe('Value "q" is not allowed for party/@type; allowed: "x", "y" [oscal-party-type]');
    expect(notAllowed('"q"', undefined, '"x"', ". A FedRAMP rule (fedramp x)")).toBe('Value "q" is not allowed; allowed: "x". A FedRAMP rule (fedramp x)');
  });
});
