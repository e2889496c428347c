// Settings from the environment, read by the service and by `oscal-keys` alike: every problem is collected so that one
// message can list them all.

export class ConfigError extends Error {}

export class SettingsReader {
  readonly problems: string[] = [];
  constructor(readonly env: NodeJS.ProcessEnv) {}

  integer(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.env[name];
    if (raw === undefined || raw.trim() === "") return fallback;
    const value = Number(raw.trim());
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name}=${JSON.stringify(raw)}: expected an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  }

  throwIfProblems(): void {
    if (this.problems.length > 0) throw new ConfigError(`Invalid settings:\n  ${this.problems.join("\n  ")}`);
  }
}
