// What a `--version` line and SARIF's tool record name: this package's version, the OSCAL release the validators
// target and the SHA-256 of the rule manifest they were generated with.
import { createRequire } from "node:module";
import manifest from "#generated/runtime-manifest.json" with { type: "json" };

// Required rather than imported: a JSON import would make tsc copy package.json into dist/, and that copy would then be
// the nearest package.json of the compiled code, breaking its `#generated/*` imports.
const pkg = createRequire(import.meta.url)("#package.json") as { name: string; version: string; homepage?: string };

export const PACKAGE_NAME: string = pkg.name;
export const PACKAGE_VERSION: string = pkg.version;
export const OSCAL_RELEASE: string = manifest.validator;
export const MANIFEST_SHA256: string = manifest.manifestSha256;
/**
 * Where the rule and error pages of this very version are published (`<homepage>v<version>`), or undefined in a build
 * that names no homepage: the release workflow sets it, a checkout's own build has none.
 */
export const PACKAGE_DOCS_URL: string | undefined = pkg.homepage === undefined ? undefined : `${pkg.homepage.replace(/\/*$/, "/")}v${pkg.version}`;

/** One line for `--version`: `<bin> <version> (OSCAL <release>, rule manifest sha256:<hex>)`. */
export function versionLine(bin: string): string {
  return `${bin} ${PACKAGE_VERSION} (OSCAL ${OSCAL_RELEASE}, rule manifest sha256:${MANIFEST_SHA256})`;
}
