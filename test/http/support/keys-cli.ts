// Runs the real `oscal-keys` CLI (dist/runtime/cli/oscal-keys.js) against a given store: a key file or a Redis server.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../../compiler/paths.js";

const run = promisify(execFile);

export type KeyStoreEnv = { KEYS_FILE: string } | { REDIS_URL: string };

export async function oscalKeys(store: KeyStoreEnv, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [join(repoRoot, "dist/runtime/cli/oscal-keys.js"), ...args], { env: { ...process.env, ...store } });
}
