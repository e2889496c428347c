// A small builder of generated JavaScript, after Ajv's lib/compile/codegen: code is a `Code` value, never a bare string.
// The `code` tag splices `Code` as it is and turns every other value into a literal (a string into a string literal),
// so text read from a metaschema, a constraint file or a message can only ever land in generated code as data.

export class Code {
  /** Use `code`, `name` and the literal makers; `verbatim` only for text another emitter built as code. */
  protected constructor(private readonly text: string) {}

  toString(): string {
    return this.text;
  }

  /** Code text that an emitter still building strings has produced (it escapes what it interpolates itself). */
  static verbatim(text: string): Code {
    return new Code(text);
  }
}

/** An identifier of the generated code. */
export class Name extends Code {
  static of(identifier: string): Name {
    if (!IDENTIFIER.test(identifier) || RESERVED.has(identifier)) throw new Error(`not a JavaScript identifier: ${JSON.stringify(identifier.slice(0, 40))}`);
    return new Name(identifier);
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static enum await implements package protected interface private public arguments eval undefined NaN Infinity".split(
    " ",
  ),
);

/** What the `code` tag accepts: code as it is; strings, numbers, booleans, null and undefined as literals. */
export type Interpolated = Code | string | number | boolean | null | undefined;

/** Generated code from a template: `code\`if (${test}) R.report(${rule}, ${message});\``. */
export function code(strings: TemplateStringsArray, ...values: readonly Interpolated[]): Code {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += interpolate(values[i]) + strings[i + 1]!;
  return Code.verbatim(text);
}

function interpolate(value: Interpolated): string {
  if (value instanceof Code) return value.toString();
  if (typeof value === "string") return stringLiteral(value).toString();
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`cannot interpolate ${value} into generated code`);
    // A negative number after an operator (`x - ${n}`) must not read as a decrement.
    return value < 0 || Object.is(value, -0) ? `(${value})` : String(value);
  }
  return String(value);
}

/** An identifier of the generated code; throws on anything else. */
export function name(identifier: string): Name {
  return Name.of(identifier);
}

/**
 * A string literal of `value`. JSON's escaping, and U+2028 and U+2029 escaped too: they end a line in a comment or in
 * engines older than ES2019.
 */
export function stringLiteral(value: string): Code {
  return Code.verbatim(JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`));
}

/** A literal of JSON data (tables of rules, values, names). */
export function jsonLiteral(value: unknown): Code {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error("cannot write undefined as JSON");
  return Code.verbatim(text.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`));
}

/**
 * A regular expression literal. The engine's own `source` of the compiled pattern is what goes between the slashes:
 * it is specified to escape `/` and line terminators so that `/${source}/${flags}` reads back as the same pattern.
 * Throws, naming `what`, when the pattern is not valid JavaScript.
 */
export function regexLiteral(source: string, flags = "", what = "pattern"): Code {
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, flags);
  } catch (error) {
    throw new Error(`${what}: regular expression not valid in JavaScript: ${String(error)}`);
  }
  return Code.verbatim(`/${compiled.source}/${compiled.flags}`);
}

/** A comment of one line: line terminators in the text become spaces, so it cannot end the comment early. */
export function lineComment(text: string): Code {
  return Code.verbatim(`// ${text.replace(/[\n\r\u2028\u2029]/g, " ")}`);
}

/** Code items joined by a separator (`, ` by default). */
export function joinCode(items: readonly Code[], separator: Code = Code.verbatim(", ")): Code {
  return Code.verbatim(items.map(String).join(separator.toString()));
}
