// Bounds on what a finding may carry, applied where a report's issues are assembled, whichever layer produced them:
// a hostile document with huge member names must not get a huge report back (240 names of 100,000 characters once
// gave 40 MB). Messages quote at most a short excerpt; a path stays an RFC 6901 pointer that resolves in the
// document, cut back to the nearest ancestor when it would name a huge member or grow too long, with the message
// saying what it stands for.
import type { ValidationIssue } from "./report.js";
import { escapeToken, unescapeToken } from "./json-pointer.js";

/** Longest excerpt of a name or value quoted in a message, in code points (an ellipsis marks a cut). */
export const MAX_EXCERPT_CODE_POINTS = 64;
/** Longest message, in code points. */
export const MAX_MESSAGE_CODE_POINTS = 512;
/** The excerpt of a member name a cut path stops before (the message may quote it at full excerpt length already). */
const NOTE_EXCERPT_CODE_POINTS = 16;
/** Longest path reported; a deeper one is cut back to an ancestor. */
export const MAX_PATH_LENGTH = 1024;

/** `text` cut to `max` code points, with an ellipsis when cut. Stops reading at the cut: cost O(max). */
export function excerpt(text: string, max = MAX_EXCERPT_CODE_POINTS): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let count = 0; count < max; count++) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  return end >= text.length ? text : `${text.slice(0, end)}…`;
}

function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff || i + 1 === text.length) count++;
  }
  return count;
}

/** The issue itself when within bounds (the usual case, no copy); otherwise a bounded copy. */
export function boundedIssue(issue: ValidationIssue): ValidationIssue {
  const cut = cutPath(issue.path);
  const message = excerpt(issue.message, MAX_MESSAGE_CODE_POINTS);
  const bounded = cut === undefined ? (message === issue.message ? issue : { ...issue, message }) : { ...issue, path: cut.path, message: withCutNote(message, cut.why) };
  return issue.document === undefined ? bounded : withOtherDocumentBounded(bounded, issue.document, issue.documentPath);
}

/**
 * A finding in another document: its href bounded as a path is, and its pointer there cut back to an ancestor as `path`
 * would be (without a note: the message already speaks of `path`).
 */
function withOtherDocumentBounded(issue: ValidationIssue, document: string, documentPath: string | undefined): ValidationIssue {
  const href = excerpt(document, MAX_PATH_LENGTH);
  const cut = documentPath === undefined ? undefined : cutPath(documentPath);
  if (href === document && cut === undefined) return issue;
  return { ...issue, document: href, ...(cut === undefined ? {} : { documentPath: cut.path }) };
}

/**
 * The path and message a report shows for a finding with `message` at the pointer made of `names` (unescaped
 * reference tokens, root first), `pointerLength` characters long, as boundedIssue gives them. Spells out only the path
 * kept: a finding deep under long names costs what the report shows, not the length of its path.
 */
export function boundedLocation(message: string, names: readonly string[], pointerLength: number): { path: string; message: string } {
  const bounded = boundedPointer(names, pointerLength);
  const shown = excerpt(message, MAX_MESSAGE_CODE_POINTS);
  return { path: bounded.path, message: bounded.why === undefined ? shown : withCutNote(shown, bounded.why) };
}

const withCutNote = (message: string, why: string): string => `${message} (${why}.)`;

/** The path cut back to the nearest ancestor within bounds, or undefined when it is within bounds already. */
function cutPath(path: string): { path: string; why: string } | undefined {
  if (path.length <= MAX_EXCERPT_CODE_POINTS) return undefined; // no token can be too long, nor the whole
  if (path.length <= MAX_PATH_LENGTH && !hasLongToken(path)) return undefined; // most paths: no token to decode
  const bounded = boundedPointer(path.slice(1).split("/").map(unescapeToken), path.length);
  return bounded.why === undefined ? undefined : { path: bounded.path, why: bounded.why };
}

/** The pointer made of `names`, or the nearest ancestor within bounds and why it stops there. */
function boundedPointer(names: readonly string[], pointerLength: number): { path: string; why: string | undefined } {
  let kept = "";
  for (const name of names) {
    if (name.length > MAX_EXCERPT_CODE_POINTS && codePointLength(name) > MAX_EXCERPT_CODE_POINTS) {
      return { path: kept, why: `Path cut before a member name of ${codePointLength(name)} characters, ${JSON.stringify(excerpt(name, NOTE_EXCERPT_CODE_POINTS))}` };
    }
    const token = escapeToken(name);
    if (kept.length + 1 + token.length > MAX_PATH_LENGTH) {
      return { path: kept, why: `Path cut to an ancestor: the full path is ${pointerLength} characters long` };
    }
    kept += `/${token}`;
  }
  return { path: kept, why: undefined };
}

/** Whether some reference token of the path is longer than an excerpt as written (escapes included). */
function hasLongToken(path: string): boolean {
  for (let start = 1; start <= path.length; ) {
    let end = path.indexOf("/", start);
    if (end < 0) end = path.length;
    if (end - start > MAX_EXCERPT_CODE_POINTS) return true;
    start = end + 1;
  }
  return false;
}
