#!/usr/bin/env node
// oscal-validator-server: starts the HTTP service of an installed package (what `npm start` does in a checkout).
// Settings come from the environment only; the arguments are --help and --version.
import { SETTINGS_DOC } from "../http/config.js";
import { versionLine } from "../package-info.js";

const BIN = "oscal-validator-server";

function usage(): string {
  const width = Math.max(...SETTINGS_DOC.map((setting) => setting.name.length));
  const settings = SETTINGS_DOC.map((setting) => `  ${setting.name.padEnd(width)}  ${setting.meaning} Default: ${setting.default}.`);
  return `Usage: ${BIN} [--help | --version]

Starts the OSCAL validation service. It is configured through environment variables:

${settings.join("\n")}

It logs JSON events on stdout; the "listening" event names the port. SIGTERM or SIGINT stops it gracefully.
Exit status: 0 after a graceful stop, 1 when it cannot start or the shutdown timed out, 2 for invalid settings.
`;
}

const [argument, ...extra] = process.argv.slice(2);
if (argument === "--version" && extra.length === 0) {
  process.stdout.write(`${versionLine(BIN)}\n`);
} else if ((argument === "--help" || argument === "-h") && extra.length === 0) {
  process.stdout.write(usage());
} else if (argument !== undefined) {
  process.stderr.write(`${BIN}: unexpected argument ${JSON.stringify(argument)}; settings come from environment variables\n\n${usage()}`);
  process.exit(2);
} else {
  await import("../http/main.js");
}
