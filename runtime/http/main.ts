// Entry point of the HTTP service (`npm start`): settings from the environment, start, and graceful shutdown on
// SIGTERM/SIGINT (exit 0 once in-flight requests are answered).
import { ConfigError } from "../settings-reader.js";
import { loadConfig } from "./config.js";
import { describeError, log } from "./log.js";
import { startService } from "./server.js";

/** Lets the last responses leave the socket buffers before the process exits. */
const FLUSH_GRACE_MS = 100;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`oscal-validation-service: ${error.message}\n`);
    process.exit(2);
  }
  const service = await startService(config);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log("info", "shutting-down", { signal });
    service.shutdown().then(
      ({ drained }) => {
        log("info", "stopped", { drained });
        setTimeout(() => process.exit(drained ? 0 : 1), FLUSH_GRACE_MS);
      },
      (error: unknown) => {
        log("error", "shutdown-failed", describeError(error));
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  log("error", "start-failed", describeError(error));
  process.stderr.write(`oscal-validation-service: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
