// A fresh process that reads the document named by its argument and does the floor's work on it (decodeAndParse in
// bench/subjects.ts): decodes it as UTF-8 (fatal) and parses it. bench/core.ts spawns it beside the cold CLI, to show
// what a cold process pays for reading the document and for the floor, which the CLI's goal counts at its warm cost.
const bytes = require("node:fs").readFileSync(process.argv[2]);
JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
