// Emits Ajv standalone validator modules (CommonJS, so the runtime can load one model's validators synchronously, on
// first use), two per model: a fast pass that stops at the first error, and a collecting pass, loaded only for documents
// that fail, whose anyOf errors say how many errors each branch made, so the runtime can tell which alternative a value
// came closest to.
import Ajv, { type Options } from "ajv";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone/index.js";
import { SchemaEnv } from "ajv/dist/compile/index.js";
import ts from "typescript";
import { replacePatternChecks, withCommonUrisFirst } from "./pattern-checks.js";
import { schemaLocations } from "./schema-walk.js";
import type { JsonSchema } from "./schema-source.js";

const AjvClass = Ajv.default ?? Ajv;
const addFormatsTo = addFormats.default ?? addFormats;
const toStandalone = standaloneCode.default ?? standaloneCode;

/**
 * Ajv reports schema paths relative to the separately compiled function a keyword sits in ("#/required"). Naming each
 * compiled subschema by its location in the whole schema makes every error's schema path absolute and therefore a
 * usable rule id. SchemaEnv reads `schemaPath` once, when it is constructed, so a prototype accessor can supply it.
 */
const absolutePaths = new WeakMap<object, string>();
Object.defineProperty(SchemaEnv.prototype, "schemaPath", {
  configurable: true,
  get(this: { explicitSchemaPath?: string; schema: unknown }) {
    return this.explicitSchemaPath ?? (typeof this.schema === "object" && this.schema !== null ? absolutePaths.get(this.schema) : undefined);
  },
  set(this: { explicitSchemaPath?: string }, value: string | undefined) {
    this.explicitSchemaPath = value;
  },
});

function createAjv(allErrors: boolean): InstanceType<typeof AjvClass> {
  const options: Options = {
    allErrors,
    strict: false,
    messages: false,
    code: { source: true, lines: false },
  };
  const ajv = new AjvClass(options);
  addFormatsTo(ajv);
  return ajv;
}

export interface EmittedValidators {
  /** Module with `validate`, which stops at the first error. */
  fast: string;
  /** Module with `collect` (every error, a failed anyOf counting its branches' errors); loaded only on failure. */
  collecting: string;
}

function standalone(schema: JsonSchema, allErrors: boolean, exports: Record<string, string>): string {
  const ajv = createAjv(allErrors);
  for (const { path, schema: node } of schemaLocations(schema)) if (path !== "#") absolutePaths.set(node, path);
  ajv.addSchema(schema);
  for (const ref of Object.values(exports)) {
    if (!ajv.getSchema(ref)) throw new Error(`cannot compile ${ref}`);
  }
  return tidiedModuleScope(withCommonUrisFirst(replacePatternChecks(toStandalone(ajv, exports))));
}

/**
 * Ajv's module scope, tidied in one pass over it. Ajv declares a module-level copy of each schema it compiled a function
 * for (the model's whole schema among them, 22 KB of the catalog's), though the code reads only a few of them: the
 * others are dropped, as every process that loads the module would build them (a cold CLI run, in the interpreter) and
 * keep them for nothing. The rest of the module-level constants (schemas, patterns, formats, functions, wrappers, the
 * pattern checks' own) become `var`s: V8 checks every read of a module-level `const` from a function for its temporal
 * dead zone, a `var`'s for nothing.
 */
export function tidiedModuleScope(code: string): string {
  const source = parsedModule(code);
  const declarations = source.statements.filter(ts.isVariableStatement);
  const schemas = new Set<string>();
  for (const { declarationList } of declarations) {
    for (const { name } of declarationList.declarations) if (ts.isIdentifier(name) && /^schema\d+$/.test(name.text)) schemas.add(name.text);
  }
  const read = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && schemas.has(node.text) && !(ts.isVariableDeclaration(node.parent) && node.parent.name === node)) read.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const unread = (statement: ts.VariableStatement) =>
    statement.declarationList.declarations.every(({ name }) => ts.isIdentifier(name) && schemas.has(name.text) && !read.has(name.text));
  const edits: Edit[] = [];
  for (const statement of declarations) {
    const { declarationList } = statement;
    if (unread(statement)) edits.push({ start: statement.getStart(source), end: statement.end, text: "" });
    else if (declarationList.flags & ts.NodeFlags.BlockScoped) {
      const keyword = declarationList.getStart(source);
      edits.push({ start: keyword, end: keyword + (declarationList.flags & ts.NodeFlags.Const ? "const" : "let").length, text: "var" });
    }
  }
  return withEdits(code, edits);
}

/** Ajv's emitted module as a syntax tree, for the rewrites here. */
function parsedModule(code: string): ts.SourceFile {
  return ts.createSourceFile("validators.cjs", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
}

/** A replacement of the text from `start` to `end`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `code` with edits that do not overlap made, from the last, so that earlier positions still hold. */
function withEdits(code: string, edits: readonly Edit[]): string {
  let edited = code;
  for (const { start, end, text } of [...edits].sort((a, b) => b.start - a.start)) edited = edited.slice(0, start) + text + edited.slice(end);
  return edited;
}

/**
 * Ajv's collecting code appends the errors of a referenced validator with `vErrors = vErrors.concat(callee.errors)`,
 * which copies the whole list on every call: a 200,000-item array of wrong items costs quadratic time (60,000 items
 * took 10 s). Ajv has no option for this, so the emitted code is rewritten, deterministically, to append in place;
 * appending then costs what it adds, and collecting is linear in the number of errors. (Pushing into a list that may be
 * the callee's own `errors` array is what Ajv's code already does for its own errors after taking that array over.)
 */
const CONCAT_ERRORS = /vErrors = vErrors === null \? ([\w$.]+\.errors) : vErrors\.concat\(\1\);/g;
const APPEND_ERRORS_HELPER = "function appendErrors(list, more) { for (let i = 0; i < more.length; i++) list.push(more[i]); return list; }";

export function appendErrorsInPlace(code: string): string {
  const rewritten = code.replace(CONCAT_ERRORS, "vErrors = vErrors === null ? $1 : appendErrors(vErrors, $1);");
  if (rewritten.includes(".concat(")) throw new Error("the collecting validators still concatenate error lists: Ajv's emitted code has changed");
  const directive = '"use strict";';
  if (!rewritten.startsWith(directive)) throw new Error("Ajv's standalone code no longer starts with its strict-mode directive");
  return `${directive}${APPEND_ERRORS_HELPER}${rewritten.slice(directive.length)}`;
}

/**
 * The fast validators only answer whether a document is valid: a document they reject is validated again by the
 * collecting validators, whose errors make the report. Yet Ajv's code builds, for every nested call on every value of a
 * valid document, the value's error path ("/props/" + i) and a context object, which the callee then takes apart.
 * Calls are rewritten to pass the value alone and validators to take the value alone; no fast validator reads the
 * context for anything but its errors' paths (the assertion below fails the build if one ever does), so only those
 * paths change: each error's path is relative to the value the failing validator was called on (and withoutErrorDetails
 * then drops the errors' contents altogether).
 */
const NESTED_CALL = /(validate\d+|wrapper\d+\.validate)\(([^,(){}]+), \{instancePath:(?:[^{}",]|"(?:[^"\\]|\\.)*")*,parentData:[\w$]+,parentDataProperty:(?:[^{}",]|"(?:[^"\\]|\\.)*")*,rootData\}\)/g;
const CONTEXT_PARAMETERS = '(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){';

export function withoutCallContexts(code: string): string {
  const rewritten = code.replace(NESTED_CALL, "$1($2)").replaceAll(CONTEXT_PARAMETERS, '(data){const instancePath = "";');
  if (/\b(?:parentData|parentDataProperty|rootData)\b/.test(rewritten)) {
    throw new Error("the fast validators use the call context beyond their own parameters: Ajv's emitted code has changed");
  }
  return rewritten;
}

/** The members of every error object Ajv's code makes. */
const ERROR_MEMBERS = ["instancePath", "schemaPath", "keyword", "params"];

/**
 * Nothing reads the fast validators' errors, only how many there are: Ajv's code counts them to steer anyOf, and a
 * caller learns only that a document failed. Each error object (its schema path, its keyword, its parameters, the
 * value's path built by concatenation) becomes 0, so the lists keep their lengths and every branch goes as before,
 * while the code V8 loads, compiles and optimizes shrinks by about two fifths. Without error objects the value's path is
 * unread, and its declaration goes too; the build fails if anything else in the code reads it.
 */
export function withoutErrorDetails(code: string): string {
  const source = parsedModule(code);
  const edits: Edit[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node) && isErrorObject(node)) {
      edits.push({ start: node.getStart(source), end: node.end, text: "0" });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const rewritten = withEdits(code, edits).replaceAll('const instancePath = "";', "");
  if (/\binstancePath\b/.test(rewritten)) throw new Error("the fast validators read a value's path outside their error objects: Ajv's emitted code has changed");
  return rewritten;
}

function isErrorObject(object: ts.ObjectLiteralExpression): boolean {
  const names = object.properties.map((property) => (property.name !== undefined && ts.isIdentifier(property.name) ? property.name.text : undefined));
  return ERROR_MEMBERS.every((member) => names.includes(member));
}

/** The members one branch of an alternative between object forms declares, and those it requires. */
export interface BranchShape {
  declares: string[];
  requires: string[];
}

/**
 * Every anyOf whose branches are all object forms (a catalog group holding groups or controls, a parameter with values
 * or a selection), by the schema path Ajv names its error with: what each branch declares and requires. The runtime
 * compares them with the value to tell which form it meant; alternatives between other kinds of schema get none.
 */
export function alternativeShapes(schema: JsonSchema): Map<string, BranchShape[]> {
  const shapes = new Map<string, BranchShape[]>();
  for (const { path, schema: node } of schemaLocations(schema)) {
    const branches = node.anyOf;
    if (!Array.isArray(branches) || !branches.every((branch) => isObjectForm(branch))) continue;
    shapes.set(
      `${path}/anyOf`,
      branches.map((branch) => ({ declares: Object.keys(branch.properties), requires: Array.isArray(branch.required) ? branch.required.map(String) : [] })),
    );
  }
  return shapes;
}

function isObjectForm(branch: unknown): branch is JsonSchema & { properties: Record<string, unknown>; required?: unknown } {
  return typeof branch === "object" && branch !== null && typeof (branch as JsonSchema).properties === "object" && (branch as JsonSchema).properties !== null;
}

/**
 * A failed anyOf's errors follow those of all its branches, branch after branch. Ajv's collecting code counts errors
 * as it goes (`errors`) and starts each branch from the count before it (`_errsN`), so the errors each branch made are
 * recorded as it ends and handed over in the anyOf error's `params.branchErrors`: the runtime splits the run by them
 * instead of running every branch again. An alternative between object forms also hands over its branches' shapes
 * (`params.branchShapes`, from alternativeShapes), so the runtime can tell which form a value meant. Each anyOf begins with `let validN = false;`, ends each branch with
 * `validN = validN || _validM;` and makes its error under `if(!validN)`; the build fails if Ajv's code changes shape.
 */
const ANY_OF_START = /let (valid\d+) = false;/g;
const ANY_OF_BRANCH_END = /var (_valid\d+) = (_errs\d+) === errors;(valid\d+) = \3 \|\| \1;/g;
const ANY_OF_ERROR = /if\(!(valid\d+)\)\{const (err\d+) = \{(instancePath[^{}]*?,keyword:"anyOf",params:)\{\}\}/g;
const SCHEMA_PATH_FIELD = /schemaPath:("(?:[^"\\]|\\.)*")/;

export function withBranchErrorCounts(code: string, shapes: ReadonlyMap<string, BranchShape[]> = new Map()): string {
  const count = (pattern: RegExp) => [...code.matchAll(pattern)].length;
  const anyOfs = count(ANY_OF_ERROR);
  if (count(ANY_OF_START) !== anyOfs || count(/keyword:"anyOf"/g) !== anyOfs || count(ANY_OF_BRANCH_END) < 2 * anyOfs) {
    throw new Error("the collecting validators' anyOf code has changed shape: Ajv's emitted code has changed");
  }
  // Splitting a failed oneOf would need its branches' counts as well; the OSCAL schemas have none.
  if (code.includes('keyword:"oneOf"')) throw new Error("the schema uses oneOf, whose errors the collecting validators do not split by branch");
  return code
    .replace(ANY_OF_START, "let $1 = false;const $1Branches = [];")
    .replace(ANY_OF_BRANCH_END, "var $1 = $2 === errors;$3Branches.push(errors - $2);$3 = $3 || $1;")
    .replace(ANY_OF_ERROR, (_, valid: string, error: string, fields: string) => {
      const shape = shapes.get(JSON.parse(SCHEMA_PATH_FIELD.exec(fields)![1]!) as string);
      return `if(!${valid}){const ${error} = {${fields}{branchErrors: ${valid}Branches${shape === undefined ? "" : `, branchShapes: ${JSON.stringify(shape)}`}}}`;
    });
}

export function emitModelValidators(schema: JsonSchema): EmittedValidators {
  const id = schema.$id;
  if (typeof id !== "string") throw new Error("model schema has no $id");
  return {
    fast: withoutErrorDetails(withoutCallContexts(standalone(schema, false, { validate: id }))),
    collecting: withBranchErrorCounts(appendErrorsInPlace(standalone(schema, true, { collect: id })), alternativeShapes(schema)),
  };
}
