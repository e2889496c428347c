// Which part of a string breaks its datatype's pattern: the year, the month, the time-zone offset, a character a token
// does not take... NIST's patterns pack every rule into one regular expression, whose failure alone only says "not a
// date and time"; a value with a perfectly good time zone and the year 0001 deserves to hear that the year is the
// problem (the patterns take years 1900 to 2999 only). Each explanation is asked for only once the pattern has failed,
// takes time linear in the value's length (a hostile value may be long) and quotes at most a short excerpt. When
// no single part is at fault it answers undefined and the message stays the datatype's general one.
import { excerpt } from "./issue-bounds.js";

/** The fault of `value`, which fails `datatype`'s pattern or format, as a clause ("the year 0001 is ..."); or undefined. */
export function datatypeFault(datatype: string, value: string): string | undefined {
  switch (datatype) {
    case "DateDatatype":
      return dateTimeFault(value, false);
    case "DateTimeWithTimezoneDatatype":
      return dateTimeFault(value, true);
    case "UUIDDatatype":
      return uuidFault(value);
    case "TokenDatatype":
      return tokenFault(value);
    case "StringDatatype":
    case "EmailAddressDatatype":
      return whitespaceFault(value) ?? (datatype === "EmailAddressDatatype" ? emailFault(value) : undefined);
    case "MarkupLineDatatype":
      return value.includes("\n") ? "it holds a line break" : undefined;
    case "URIDatatype":
    case "URIReferenceDatatype":
      return uriFault(value, datatype === "URIDatatype");
    case "Base64Datatype":
      return base64Fault(value);
    default:
      return undefined;
  }
}

/** A character quoted for a message, its name added where the character alone would not show. */
function quoteCharacter(character: string): string {
  const named: Record<string, string> = { " ": "a space", "\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\u00a0": "a no-break space" };
  return named[character] ?? JSON.stringify(character);
}

const quoteText = (text: string): string => JSON.stringify(excerpt(text, 24));

/** The first character of `value` that `allowed` rejects, with its 1-based position in code points, if any. */
function firstCharacterNotIn(value: string, allowed: RegExp): { character: string; position: number } | undefined {
  let position = 0;
  for (const character of value) {
    position++;
    if (!allowed.test(character)) return { character, position };
  }
  return undefined;
}

// Lenient on purpose: any number of digits in each field and any separator, so that the piece at fault can be named.
const DATE_TIME_PARTS = /^(\d+)-(\d+)-(\d+)(?:([Tt ])(\d+):(\d+)(?::(\d+))?(\.\d*)?)?(.*)$/s;
const DATE_TIME_CHARACTERS = /[0-9TZtz:+\-. ]/;

const OFFSET = /^[+-]\d\d:\d\d$/;
// The offsets NIST's patterns allow: whole hours from -12:00 to +14:00 and the half and three-quarter hours in use.
const ALLOWED_OFFSETS: ReadonlySet<string> = new Set([
  ...Array.from({ length: 13 }, (_, hour) => `-${String(hour).padStart(2, "0")}:00`),
  ...Array.from({ length: 15 }, (_, hour) => `+${String(hour).padStart(2, "0")}:00`),
  "-03:30", "-09:30", "+03:30", "+04:30", "+05:30", "+06:30", "+09:30", "+10:30", "+05:45", "+08:45", "+12:45",
]);

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysIn(month: number, year: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function dateTimeFault(value: string, withTime: boolean): string | undefined {
  const stray = firstCharacterNotIn(value, DATE_TIME_CHARACTERS);
  if (stray !== undefined) return `${quoteCharacter(stray.character)} (character ${stray.position}) is not allowed in a date${withTime ? " and time" : ""}`;
  const parts = DATE_TIME_PARTS.exec(value);
  const form = withTime ? "YYYY-MM-DDThh:mm:ss followed by Z or an offset such as +01:00" : "YYYY-MM-DD, optionally followed by Z or an offset such as +01:00";
  if (parts === null) return `expected the form ${form}`;
  const [, year, month, day, separator, hour, minute, second, fraction, zone] = parts as unknown as (string | undefined)[];
  const dateFault = calendarFault(year!, month!, day!);
  if (dateFault !== undefined) return dateFault;
  if (separator === undefined) {
    if (withTime) return "the time is missing; write it after the date, as in 2024-01-31T12:00:00Z";
  } else {
    if (!withTime) return "a date takes no time of day; keep YYYY-MM-DD (and a time zone if wanted)";
    const timeFault = clockFault(separator, hour!, minute!, second, fraction);
    if (timeFault !== undefined) return timeFault;
  }
  return zoneFault(zone!, withTime);
}

function calendarFault(year: string, month: string, day: string): string | undefined {
  if (year.length !== 4) return `the year ${quoteText(year)} must have four digits`;
  const yearNumber = Number(year);
  if (yearNumber < 1900 || yearNumber > 2999) return `the year ${year} is outside 1900-2999, the years OSCAL dates allow`;
  if (month.length !== 2 || day.length !== 2) return "the month and the day take two digits each (2024-01-05)";
  const monthNumber = Number(month);
  if (monthNumber < 1 || monthNumber > 12) return `the month ${month} does not exist; months run from 01 to 12`;
  const dayNumber = Number(day);
  const last = daysIn(monthNumber, yearNumber);
  if (dayNumber < 1 || dayNumber > last) {
    const leapNote = monthNumber === 2 && dayNumber === 29 ? ` (${year} is not a leap year)` : "";
    return `${MONTH_NAMES[monthNumber - 1]} ${year} has no day ${day}; it has days 01 to ${last}${leapNote}`;
  }
  return undefined;
}

function clockFault(separator: string, hour: string, minute: string, second: string | undefined, fraction: string | undefined): string | undefined {
  if (separator !== "T") return `the date and the time must be separated by an upper-case T, not ${quoteCharacter(separator)}`;
  if (second === undefined) return "the seconds are missing; the time takes the form hh:mm:ss";
  if (hour.length !== 2 || minute.length !== 2 || second.length !== 2) return "the hours, minutes and seconds take two digits each (hh:mm:ss)";
  if (Number(hour) > 23) return `the hour ${hour} does not exist; hours run from 00 to 23`;
  if (Number(minute) > 59) return `the minute ${minute} does not exist; minutes run from 00 to 59`;
  if (Number(second) > 59) return `the second ${second} is not allowed; seconds run from 00 to 59`;
  if (fraction === ".") return "a decimal point after the seconds must be followed by digits";
  return undefined;
}

function zoneFault(zone: string, required: boolean): string | undefined {
  if (zone === "") return required ? "the time zone is missing; end with Z (UTC) or an offset such as -05:00" : undefined;
  if (zone === "Z") return undefined;
  if (zone === "z") return "the time-zone designator must be an upper-case Z";
  if (OFFSET.test(zone)) {
    return ALLOWED_OFFSETS.has(zone) ? undefined : `the time-zone offset ${zone} is not one OSCAL allows (-12:00 to +14:00, in whole hours or the half and three-quarter hours in use)`;
  }
  if (/^[+-]\d{4}$/.test(zone) || /^[+-]\d\d$/.test(zone)) return `the time-zone offset ${zone} must be written with a colon, as ±hh:mm (for example +01:00)`;
  return `${quoteText(zone)} after the ${required ? "time" : "date"} is not a time zone; use Z or an offset such as +01:00`;
}

// 8-4-4-4-12 hexadecimal digits; the first digit of the third group is the version, of the fourth the variant.
const UUID_GROUP_LENGTHS = [8, 4, 4, 4, 12];

function uuidFault(value: string): string | undefined {
  const groups = value.split("-", 6);
  const lengths = groups.map((group) => group.length);
  if (groups.length !== 5 || lengths.some((length, index) => length !== UUID_GROUP_LENGTHS[index])) {
    const shown = groups.length > 5 ? "more than five groups" : `groups of ${lengths.join("-")}`;
    return `a UUID has five groups of 8-4-4-4-12 hexadecimal digits separated by hyphens; this one has ${shown}`;
  }
  const notHex = firstCharacterNotIn(value, /[0-9A-Fa-f-]/);
  if (notHex !== undefined) return `${quoteCharacter(notHex.character)} (character ${notHex.position}) is not a hexadecimal digit`;
  const version = groups[2]![0]!;
  if (version !== "4" && version !== "5") return `its version digit (the first of the third group) is ${version}; OSCAL takes version 4 (random) and 5 (name-based) UUIDs only`;
  const variant = groups[3]![0]!;
  if (!/[89abAB]/.test(variant)) return `its variant digit (the first of the fourth group) is ${variant}; it must be 8, 9, a or b`;
  return undefined;
}

function tokenFault(value: string): string | undefined {
  const first = String.fromCodePoint(value.codePointAt(0)!);
  if (!/[\p{L}_]/u.test(first)) return `it starts with ${quoteCharacter(first)}; a token starts with a letter or "_"`;
  const stray = firstCharacterNotIn(value, /[\p{L}\p{N}._-]/u);
  if (stray !== undefined) return `${quoteCharacter(stray.character)} (character ${stray.position}) is not allowed; a token takes letters, digits, ".", "-" and "_" only`;
  return undefined;
}

// What NIST's patterns count as whitespace (\s in XML Schema, which the xsd-regex-semantics patch keeps).
const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

function whitespaceFault(value: string): string | undefined {
  if (WHITESPACE.has(value[0]!)) return `it starts with ${quoteCharacter(value[0]!)} (remove the leading whitespace)`;
  if (WHITESPACE.has(value[value.length - 1]!)) return `it ends with ${quoteCharacter(value[value.length - 1]!)} (remove the trailing whitespace)`;
  if (value.includes("\n") || value.includes("\r")) return "it holds a line break, which this field does not take";
  return undefined;
}

function emailFault(value: string): string | undefined {
  const at = value.indexOf("@", 1);
  return at < 0 || at === value.length - 1 ? 'it needs an "@" with something on both sides' : undefined;
}

function uriFault(value: string, absolute: boolean): string | undefined {
  const space = firstCharacterNotIn(value, /[^\s]/u);
  if (space !== undefined) return `${quoteCharacter(space.character)} (character ${space.position}) is not allowed in a URI; write it percent-encoded (a space is %20)`;
  if (absolute && !/^[A-Za-z][A-Za-z0-9+.-]+:/.test(value)) return 'it has no scheme; an absolute URI starts with one, such as "https:" or "urn:"';
  return undefined;
}

function base64Fault(value: string): string | undefined {
  const stray = firstCharacterNotIn(value.replace(/={1,2}$/, ""), /[0-9A-Za-z+/]/);
  return stray === undefined ? undefined : `${quoteCharacter(stray.character)} (character ${stray.position}) is not a base64 character`;
}
