// What a `--version` line and SARIF's tool record name: this package's version, the OSCAL release the validators
// target and the SHA-256 of the rule manifest they were generated with.
import pkg from "#package.json" with { type: "json" };
import manifest from "#generated/manifest.json" with { type: "json" };

export const PACKAGE_NAME: string = pkg.name;
export const PACKAGE_VERSION: string = pkg.version;
export const OSCAL_RELEASE: string = manifest.validator;
export const MANIFEST_SHA256: string = manifest.sha256;

/** One line for `--version`: `<bin> <version> (OSCAL <release>, rule manifest sha256:<hex>)`. */
export function versionLine(bin: string): string {
  return `${bin} ${PACKAGE_VERSION} (OSCAL ${OSCAL_RELEASE}, rule manifest sha256:${MANIFEST_SHA256})`;
}
