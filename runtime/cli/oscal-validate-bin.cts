#!/usr/bin/env node
// The oscal-validate command. It loads the CLI, which make build bundles into one CommonJS file
// (scripts/build-cli.mjs), through V8's code cache, as the generated validators are loaded: a cold process then neither
// starts the ES module loader nor compiles the bundle again.
import path from "node:path";
import { loadCompiled } from "../core/code-cache.cjs";

loadCompiled(path.join(__dirname, "oscal-validate.cjs"));
