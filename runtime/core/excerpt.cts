// The excerpt every message quotes a name or value by, whichever layer writes it. CommonJS so that the semantic
// layer's helpers (runtime/semantic/helpers.cts, required by the generated CommonJS module) share it with the core.

/** Longest excerpt of a name or value quoted in a message, in code points (an ellipsis marks a cut). */
export const MAX_EXCERPT_CODE_POINTS = 64;

/** `text` cut to `max` code points, with an ellipsis when cut. Stops reading at the cut: cost O(max). */
export function excerpt(text: string, max = MAX_EXCERPT_CODE_POINTS): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let count = 0; count < max; count++) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  return end >= text.length ? text : `${text.slice(0, end)}…`;
}
