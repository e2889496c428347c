// Writes the package.json and package-lock.json of an install directory that holds one package tarball, pinning every
// run-time dependency to the version in this repository's package-lock.json: the versions the tests ran with.
// Usage: node pinned-lockfile.mjs <dir> <tarball file name in dir> <the tarball's package.json> <repository lock>
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [dir, tarball, manifestFile, lockFile] = process.argv.slice(2);
if (!dir || !tarball || !manifestFile || !lockFile) {
  process.stderr.write("usage: node pinned-lockfile.mjs <dir> <tarball> <package.json> <package-lock.json>\n");
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
const lock = JSON.parse(readFileSync(lockFile, "utf8"));
const spec = `file:${tarball}`;

const packages = {
  "": { dependencies: { [manifest.name]: spec } },
  [`node_modules/${manifest.name}`]: {
    version: manifest.version,
    resolved: spec,
    license: manifest.license,
    dependencies: manifest.dependencies ?? {},
    bin: manifest.bin,
    engines: manifest.engines,
  },
};
// The repository's tree minus what only development needs; npm ci refuses the result if it does not satisfy the
// tarball's dependencies, so a tarball from another version cannot be installed with the wrong pins.
for (const [location, entry] of Object.entries(lock.packages)) {
  if (location === "" || entry.dev || entry.devOptional || entry.link) continue;
  packages[location] = entry;
}

const write = (name, value) => writeFileSync(path.join(dir, name), `${JSON.stringify(value, null, 2)}\n`);
write("package.json", { private: true, dependencies: { [manifest.name]: spec } });
write("package-lock.json", { lockfileVersion: 3, requires: true, packages });
