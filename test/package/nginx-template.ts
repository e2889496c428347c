// deploy/nginx/validator.conf.template with its variables filled in, as the nginx image's template step does (only
// the variables given are replaced; nginx's own $variables stay).
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../compiler/paths.js";

export const NGINX_TEMPLATE = path.join(repoRoot, "deploy/nginx/validator.conf.template");

export interface NginxTemplateValues {
  VALIDATOR_ADDRESS: string;
  METRICS_ADDRESS: string;
  LISTEN_PORT: string;
  METRICS_LISTEN_PORT: string;
}

export function renderNginxTemplate(values: NginxTemplateValues): string {
  return readFileSync(NGINX_TEMPLATE, "utf8").replace(/\$\{([A-Z_]+)\}/g, (text, name: string) => (values as unknown as Record<string, string>)[name] ?? text);
}

/** The template's variables: every one must be given a value by each deployment. */
export function nginxTemplateVariables(): string[] {
  return [...new Set([...readFileSync(NGINX_TEMPLATE, "utf8").matchAll(/\$\{([A-Z_]+)\}/g)].map(([, name]) => name!))].sort();
}
