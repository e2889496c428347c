// Whether a file a walk found is an OSCAL document, decided from its first bytes where possible: a JSON root object or
// a YAML root mapping with one of the eight model members. Ordinary repositories hold package.json, tsconfig.json and
// workflow files beside their documents; those are skipped rather than reported as not OSCAL. The scan reads bytes as
// they come, so a file need not be read whole to be skipped, and it never builds the document.
import { MODELS } from "../core/report.js";
import type { InputFormat } from "./input-format.js";

export type Sniffed = "oscal" | "not-oscal" | "undecided";

/** A model member name is at most this long; longer names are never compared. */
const LONGEST_MODEL = Math.max(...MODELS.map((model) => model.length));
const MODEL_NAMES: ReadonlySet<string> = new Set(MODELS);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const NEWLINE = 0x0a;

function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * Reads a JSON text's root-level member names as bytes come, skipping every nested value and string. Comments (as in
 * tsconfig.json) are skipped too, so such a file is judged by its members rather than by a syntax error. A member name
 * written with an escape might spell a model: such a file is taken as OSCAL and left to the validator to judge.
 */
class JsonSniffer {
  private result: Sniffed = "undecided";
  private started = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private comment: "none" | "line" | "block" | "slash" | "block-star" = "none";
  /** At depth 1, where the next string is a member name. */
  private expectingName = false;
  private name: number[] | undefined;
  private nameEscaped = false;

  feed(bytes: Uint8Array): Sniffed {
    for (let i = 0; i < bytes.length && this.result === "undecided"; i++) this.step(bytes[i]!);
    return this.result;
  }

  end(): Sniffed {
    if (this.result === "undecided") this.result = "not-oscal";
    return this.result;
  }

  private step(byte: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) {
        this.escaped = true;
        this.nameEscaped = true;
      } else if (byte === QUOTE) this.endString();
      else if (this.name !== undefined && this.name.length <= LONGEST_MODEL) this.name.push(byte);
      return;
    }
    if (this.comment !== "none") {
      this.stepComment(byte);
      return;
    }
    if (byte === SLASH) {
      this.comment = "slash";
      return;
    }
    if (!this.started) {
      // A byte-order mark and white space may come first; anything but an object means not OSCAL.
      if (isJsonSpace(byte) || byte === 0xef || byte === 0xbb || byte === 0xbf) return;
      this.started = true;
      if (byte !== 0x7b) {
        this.result = "not-oscal";
        return;
      }
    }
    switch (byte) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 1 && this.expectingName) {
          this.name = [];
          this.nameEscaped = false;
        }
        return;
      case 0x7b: // {
      case 0x5b: // [
        this.depth++;
        this.expectingName = this.depth === 1;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.depth--;
        // The root closed with no model member.
        if (this.depth <= 0) this.result = "not-oscal";
        return;
      case 0x2c: // ,
        if (this.depth === 1) this.expectingName = true;
        return;
      default:
        return;
    }
  }

  private endString(): void {
    this.inString = false;
    const name = this.name;
    this.name = undefined;
    if (name === undefined) return;
    this.expectingName = false;
    if (this.nameEscaped || MODEL_NAMES.has(String.fromCharCode(...name))) this.result = "oscal";
  }

  private stepComment(byte: number): void {
    switch (this.comment) {
      case "slash":
        // A lone slash is not JSON; the validator will say so if the file is taken.
        this.comment = byte === SLASH ? "line" : byte === STAR ? "block" : "none";
        return;
      case "line":
        if (byte === NEWLINE) this.comment = "none";
        return;
      case "block":
        if (byte === STAR) this.comment = "block-star";
        return;
      case "block-star":
        this.comment = byte === SLASH ? "none" : byte === STAR ? "block-star" : "block";
        return;
    }
  }
}

/**
 * Reads a YAML text line by line for a root mapping key naming a model: a line that starts, at column 0, with the name
 * (quoted or not, after `---` or a flow mapping's `{` where there is one) and a colon. Root keys of a block mapping
 * are the only lines at column 0 other than comments, directives and document markers.
 */
class YamlSniffer {
  private static readonly ROOT_KEY = new RegExp(`^(?:--- +)?(?:\\{ *)?(["']?)(?:${MODELS.join("|")})\\1 *:`);
  private result: Sniffed = "undecided";
  /** The start of the current line, as far as a root key could reach. */
  private line: number[] = [];

  feed(bytes: Uint8Array): Sniffed {
    for (let i = 0; i < bytes.length && this.result === "undecided"; i++) {
      const byte = bytes[i]!;
      if (byte === NEWLINE) this.endLine();
      else if (this.line.length < LONGEST_MODEL + 16) this.line.push(byte);
    }
    return this.result;
  }

  end(): Sniffed {
    if (this.result === "undecided") this.endLine();
    if (this.result === "undecided") this.result = "not-oscal";
    return this.result;
  }

  private endLine(): void {
    // Bytes past the ASCII range cannot be part of a model name; the line is compared as Latin-1 for speed.
    if (YamlSniffer.ROOT_KEY.test(Buffer.from(this.line).toString("latin1").replace(/^\xEF\xBB\xBF/, ""))) this.result = "oscal";
    this.line = [];
  }
}

export interface Sniffer {
  /** Reads the next bytes; "undecided" until the bytes so far settle it. */
  feed(bytes: Uint8Array): Sniffed;
  /** The answer at the end of the file. */
  end(): Sniffed;
}

export function oscalSniffer(format: InputFormat): Sniffer {
  return format === "yaml" ? new YamlSniffer() : new JsonSniffer();
}
