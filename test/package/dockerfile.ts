// Reads a Dockerfile into its instructions (continuation lines joined, comments dropped), for tests that check the
// recipe and run the commands it holds.
export interface DockerInstruction {
  keyword: string;
  argument: string;
}

export function dockerfileInstructions(text: string): DockerInstruction[] {
  const logical = text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n\s*/g, "");
  return logical
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), argument: rest.join(" ") };
    });
}
