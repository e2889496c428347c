// Runs every benchmark in turn (`make bench`). Each prints its own figures; none is part of the tests.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const benches = ["core.ts", "validator-layout.ts", "semantic.ts", "model-mix.ts", "packs.ts", "resolve.ts", "package.ts", "locate.ts", "linear-curves.ts", "cli-tree.ts", "http.ts", "hostile.ts", "playground.ts"];

let failed = false;
for (const bench of benches) {
  process.stdout.write(`\n=== ${bench}\n`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(here, bench)], { stdio: "inherit" });
  failed ||= result.status !== 0;
}
process.exitCode = failed ? 1 : 0;
