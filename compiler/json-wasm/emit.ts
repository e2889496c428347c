// Assembles the WebAssembly module of the byte-level JSON work (escaping non-ASCII characters, the structure scan)
// from its text source into a module of the generated output: the binary as base64, so that Node.js and the browser
// bundle load it the same way, without a file of its own to find.
import { readFileSync } from "node:fs";
import wabtInit from "wabt";

const SOURCE = new URL("./json-wasm.wat", import.meta.url);

export async function emitJsonWasmModule(): Promise<{ js: string; dts: string }> {
  const wabt = await wabtInit();
  const module = wabt.parseWat("json-wasm.wat", readFileSync(SOURCE, "utf8"), { simd: true });
  try {
    module.validate();
    const { buffer } = module.toBinary({ write_debug_names: false, canonicalize_lebs: true });
    const base64 = Buffer.from(buffer).toString("base64");
    return {
      js: `// Generated from compiler/json-wasm/json-wasm.wat (${buffer.length} bytes of WebAssembly).\nexport const JSON_WASM_BASE64 = "${base64}";\n`,
      dts: "/** The WebAssembly binary of the byte-level JSON work, base64-encoded. */\nexport declare const JSON_WASM_BASE64: string;\n",
    };
  } finally {
    module.destroy();
  }
}
