# The two commands a newcomer needs: `make run` (set up, build and start the service) and `make test`.
# Inputs are read from ../shared by default; override with OSCAL_SCHEMA_DIR / OSCAL_METASCHEMA_DIR.
.PHONY: install generate build run test test-long test-services typecheck bench pack clean

# What the generator reads. The NIST files it takes from ../shared are pinned by the sums in schemas/ (a different file
# stops the build), so the sums stand for them; package-lock.json pins the tool versions written into the output.
GENERATOR_INPUTS := $(shell find compiler patches schemas -type f 2>/dev/null) package-lock.json
RUNTIME_SOURCES := $(shell find runtime -name '*.ts' -o -name '*.cts' 2>/dev/null) tsconfig.json package.json scripts/build-cli.mjs
BROWSER_SOURCES := $(shell find runtime/browser -type f 2>/dev/null) scripts/build-browser.mjs

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

generate: generated/manifest.json

# The compiler deletes the manifest first and writes it last, so its presence means a complete output.
generated/manifest.json: node_modules/.installed $(GENERATOR_INPUTS)
	npx tsx compiler/build.ts

build: dist/.built

# A clean compile, so that no output of a deleted source can end up in a package, swapped in at once so that running
# processes (tests while `npm pack` rebuilds) never see a half-written dist/. tsc also copies the JSON files the
# sources import into dist/generated/; the run time reads them from generated/ (package.json "imports"), so they go.
# oscal-validate and the constraint run time (the module every generated constraint check requires) are then bundled in
# place, for a cheaper cold start (scripts/build-cli.mjs).
# The validation page's browser bundle goes to dist/browser/, where the service reads it.
dist/.built: generated/manifest.json $(RUNTIME_SOURCES) $(BROWSER_SOURCES)
	rm -rf dist.next
	npx tsc -p tsconfig.json --outDir dist.next
	rm -rf dist.next/generated
	node scripts/build-cli.mjs dist.next/runtime
	node scripts/build-browser.mjs dist.next/browser
	rm -rf dist && mv dist.next dist
	touch $@

run: build
	npm start

typecheck: generate
	npx tsc -p tsconfig.check.json
	npx tsc -p runtime/browser/tsconfig.json

test-services:
	scripts/test-services.sh

# `make test` runs the "main" project of vitest.config.ts; `make test-long` the long runs that add nothing to it.
test: build typecheck test-services
	npx vitest run --project main --reporter=default --reporter=json --outputFile.json=test-results.json

test-long: build typecheck test-services
	npx vitest run --project long

bench: build
	npx tsx bench/run-all.ts

# The installable package (`npm pack` runs `make build` first, through the prepack script).
pack:
	npm pack

clean:
	rm -rf dist dist.next generated/validators generated/types generated/*.js generated/*.d.ts generated/*.d.cts generated/*.cjs generated/*.json
