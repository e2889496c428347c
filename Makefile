# The two commands a newcomer needs: `make run` (set up, build and start the service) and `make test`.
# Inputs are read from ../shared by default; override with OSCAL_SCHEMA_DIR / OSCAL_METASCHEMA_DIR.
.PHONY: install generate build run test typecheck bench clean

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

generate: install
	npx tsx compiler/build.ts

build: generate
	npx tsc -p tsconfig.json

run: build
	npm start

typecheck: generate
	npx tsc -p tsconfig.check.json

test: build typecheck
	npx vitest run --reporter=default --reporter=json --outputFile.json=test-results.json

bench: build
	npx tsx bench/run-all.ts

clean:
	rm -rf dist generated/validators generated/types generated/*.js generated/*.d.ts generated/*.json
