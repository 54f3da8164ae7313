// Oracle for the gadgets layer: circomlib's Poseidon (BN254) computed by the real tools.
// Compiles `Poseidon(n)` from circomlib/circuits/poseidon.circom with circom2, evaluates the
// witness with snarkjs on random inputs, and writes <outdir>/gadgets_poseidon.json:
//   { cases: [ { arity, inputs: [dec...], out: dec } ... ] }
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import * as snarkjs from "snarkjs";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
if (!process.argv[2]) {
  console.error("usage: node gen_gadgets.mjs <outdir>");
  process.exit(2);
}
const outdir = path.resolve(process.argv[2]);
const dir = path.join(outdir, "gadgets");
fs.mkdirSync(dir, { recursive: true });
const P = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
const rand = () => BigInt("0x" + crypto.randomBytes(32).toString("hex")) % P;

const cases = [];
for (const arity of [2, 4, 8]) {
  const name = `poseidon${arity}`;
  const src = path.join(dir, `${name}.circom`);
  fs.writeFileSync(src, `pragma circom 2.0.0;\ninclude "poseidon.circom";\ncomponent main = Poseidon(${arity});\n`);
  await run(process.execPath, [
    path.join(here, "node_modules", "circom2", "cli.js"), src, "--wasm",
    "-l", path.join(here, "node_modules", "circomlib", "circuits"), "-o", dir,
  ], { cwd: here, maxBuffer: 1 << 24 });
  const wasm = path.join(dir, `${name}_js`, `${name}.wasm`);
  const sets = [Array.from({ length: arity }, (_, i) => BigInt(i + 1)), Array.from({ length: arity }, rand),
                Array.from({ length: arity }, rand)];
  for (const inputs of sets) {
    const wtns = path.join(dir, `${name}.wtns`);
    await snarkjs.wtns.calculate({ inputs: inputs.map(String) }, wasm, wtns);
    const w = await snarkjs.wtns.exportJson(wtns);
    cases.push({ arity, inputs: inputs.map(String), out: String(w[1]) });  // wire 1 = main.out
  }
}
fs.writeFileSync(path.join(outdir, "gadgets_poseidon.json"), JSON.stringify({ generator: "circom2 + snarkjs", cases }, null, 1));
console.log(`wrote ${cases.length} Poseidon cases`);
process.exit(0);
