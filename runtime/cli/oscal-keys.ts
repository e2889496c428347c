#!/usr/bin/env node
// Manages API keys in the store the service uses: Redis when REDIS_URL is set, else the key file (KEYS_FILE, default
// .data/keys.json under the current directory), which a running service re-reads within about a second. `create`
// prints the new key once, alone on stdout; everything else goes to stderr, starting with the store used, by its
// absolute path: a default relative to the current directory otherwise leaves people editing one file and serving
// another.
import { resolve } from "node:path";
import { createApiKey, KEY_ID_PATTERN } from "../access/api-keys.js";
import { createKeyStore } from "../access/create-access.js";
import type { KeyStore } from "../access/contracts.js";
import { keyStoreSettings } from "../access/key-store-settings.js";
import { versionLine } from "../package-info.js";

/** Where the key file is when KEYS_FILE is not set, as the service reads it (runtime/http/config.ts). */
const DEFAULT_KEYS_FILE = ".data/keys.json";

const USAGE = `Usage:
  oscal-keys create [--label <label>]   create a key; the key is printed once, on stdout
  oscal-keys list                       list keys (id, label, created, revoked); never the secret
  oscal-keys revoke <id>                revoke a key; a running service refuses it within about a second
  oscal-keys --version                  print the version

Keys live in Redis when REDIS_URL is set (REDIS_TIMEOUT_MS applies), else in KEYS_FILE (default .data/keys.json under
the current directory, here ${resolve(DEFAULT_KEYS_FILE)}). Every command says on stderr which store it used.
Exit status: 0 done, 1 the store failed or has no such key, 2 usage error.`;

/** The store in use and the setting that chose it. */
function storeOrigin(location: string, redisUrl: string | undefined): string {
  if (redisUrl !== undefined) return `${location} (REDIS_URL)`;
  return process.env.KEYS_FILE === undefined ? `${location} (the default, ${DEFAULT_KEYS_FILE} under the current directory; KEYS_FILE sets another)` : `${location} (KEYS_FILE)`;
}

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

function fail(message: string, status = EXIT_USAGE): never {
  process.stderr.write(`oscal-keys: ${message}\n`);
  process.exit(status);
}

async function main(args: string[]): Promise<void> {
  // Answered without opening the store, which may be unreachable.
  if (args.length === 1 && args[0] === "--version") {
    process.stdout.write(`${versionLine("oscal-keys")}\n`);
    return;
  }
  // A fresh process connects before its one command, so it allows Redis longer than the service's default.
  const settings = keyStoreSettings(process.env, 2000);
  const { store, location } = createKeyStore(settings);
  if (args[0] !== undefined && !["help", "--help", "-h"].includes(args[0])) process.stderr.write(`oscal-keys: key store ${storeOrigin(location, settings.redisUrl)}\n`);
  try {
    await run(store, location, args);
  } finally {
    await store.close();
  }
}

async function run(store: KeyStore, location: string, args: string[]): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case "create": {
      let label = "";
      if (rest.length > 0) {
        if (rest[0] !== "--label" || rest.length !== 2) fail(`create takes only --label <label>\n${USAGE}`);
        label = rest[1]!;
      }
      const { key, record } = createApiKey(label);
      await store.add(record);
      process.stderr.write(`Created key ${record.id}${label ? ` (${label})` : ""} in ${location}. It is shown once; store it now.\n`);
      process.stdout.write(`${key}\n`);
      return;
    }
    case "list": {
      if (rest.length > 0) fail(`list takes no arguments\n${USAGE}`);
      const records = await store.list();
      const rows = records.map((record) => [record.id, record.label || "-", record.createdAt, record.revokedAt ?? "-"]);
      for (const row of [["ID", "LABEL", "CREATED", "REVOKED"], ...rows]) process.stdout.write(`${row.join("\t")}\n`);
      return;
    }
    case "revoke": {
      const id = rest[0];
      if (rest.length !== 1 || !KEY_ID_PATTERN.test(id!)) fail(`revoke takes one key id (16 hex digits, as shown by list)\n${USAGE}`);
      if (!(await store.revoke(id!, new Date().toISOString()))) fail(`no key with id ${id}`, EXIT_FAILED);
      process.stderr.write(`Revoked key ${id} in ${location}.\n`);
      return;
    }
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(`${USAGE}\n`);
      return;
    default:
      fail(`unknown command ${JSON.stringify(command ?? "")}\n${USAGE}`);
  }
}

// Exits explicitly once output is flushed: with a command timeout set, ioredis leaves timers behind after quit
// (redis/ioredis#1535) that would otherwise hold the process for the whole timeout.
main(process.argv.slice(2)).then(
  () => process.stdout.write("", () => process.exit(0)),
  (error: unknown) => fail(error instanceof Error ? error.message : String(error), EXIT_FAILED),
);
