// Runs the real `oscal-keys` CLI (dist/runtime/cli/oscal-keys.js) against a given key file.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./service.js";

const run = promisify(execFile);

export async function oscalKeys(keysFile: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [join(REPO_ROOT, "dist/runtime/cli/oscal-keys.js"), ...args], { env: { ...process.env, KEYS_FILE: keysFile } });
}
