// Real-tool fixtures for the r1cs layer: compiles tests/r1cs/circuits/*.circom with circom2 (circom 2,
// WebAssembly) for bn128 and bls12381, computes witnesses with snarkjs (circom's wasm witness
// calculator), and records an independent reading of both files (r1csfile + snarkjs, BigInt arithmetic):
// header counts, all constraints, the wire->label map, the witness, and for a few wires the index of
// the first constraint that fails after adding 1 to that wire's value.
//
// usage: node gen_circom.mjs <outdir>   (writes <outdir>/circom.json and <outdir>/circom/...)
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readR1cs } from "r1csfile";
import { F1Field } from "ffjavascript";
import * as snarkjs from "snarkjs";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const circuitsDir = path.join(here, "..", "r1cs", "circuits");
const outdir = path.resolve(process.argv[2] ?? "");
if (!process.argv[2]) {
  console.error("usage: node gen_circom.mjs <outdir>");
  process.exit(2);
}
const fixDir = path.join(outdir, "circom");
fs.mkdirSync(fixDir, { recursive: true });

const PRIMES = { bn128: "bn254", bls12381: "bls12_381" };
const CASES = [
  { circuit: "mulchain", input: { a: "3", b: "11" } },
  { circuit: "poseidon2", input: { a: "1", b: "2" } },
];

async function compile(circuit, prime) {
  const dir = path.join(fixDir, prime);
  fs.mkdirSync(dir, { recursive: true });
  const t0 = Date.now();
  // circom2 runs under WASI with the parent directories of its cwd preopened: run it from here.
  await run(process.execPath, [
    path.join(here, "node_modules", "circom2", "cli.js"),
    path.join(circuitsDir, `${circuit}.circom`),
    "--r1cs", "--wasm", "--prime", prime,
    "-l", path.join(here, "node_modules", "circomlib", "circuits"),
    "-o", dir,
  ], { cwd: here, maxBuffer: 1 << 24 });
  const ms = Date.now() - t0;
  const r1cs = path.join(dir, `${circuit}.r1cs`);
  const wasm = path.join(dir, `${circuit}_js`, `${circuit}.wasm`);
  if (!fs.existsSync(r1cs)) throw new Error(`circom2 did not write ${r1cs}`);
  return { dir, r1cs, wasm, ms };
}

// <lc, w> mod p, lc = {wireId: BigInt}
function dot(lc, w, p) {
  let acc = 0n;
  for (const [k, v] of Object.entries(lc)) acc = (acc + v * w[Number(k)]) % p;
  return acc;
}
function firstUnsatisfied(constraints, w, p) {
  for (let i = 0; i < constraints.length; i++) {
    const [A, B, C] = constraints[i];
    if ((dot(A, w, p) * dot(B, w, p)) % p !== dot(C, w, p)) return i;
  }
  return -1;
}
const lcJson = (lc) =>
  Object.entries(lc).map(([k, v]) => [Number(k), v.toString()]).sort((x, y) => x[0] - y[0]);

async function makeCase({ circuit, input }, prime) {
  const c = await compile(circuit, prime);
  const wtns = path.join(c.dir, `${circuit}.wtns`);
  const t0 = Date.now();
  await snarkjs.wtns.calculate(input, c.wasm, wtns);
  const wtnsMs = Date.now() - t0;

  const r = await readR1cs(c.r1cs, {
    loadConstraints: true, loadMap: true, loadCustomGates: true,
    getFieldFromPrime: async (p) => new F1Field(p),
  });
  const p = r.prime;
  const w = (await snarkjs.wtns.exportJson(wtns)).map((x) => BigInt(x));
  if (w.length !== r.nVars) throw new Error(`${circuit}/${prime}: witness length ${w.length} != nVars ${r.nVars}`);
  if (w[0] !== 1n) throw new Error(`${circuit}/${prime}: w[0] != 1`);
  const constraints = Array.from(r.constraints);
  const bad = firstUnsatisfied(constraints, w, p);
  if (bad !== -1) throw new Error(`${circuit}/${prime}: snarkjs witness fails constraint ${bad}`);

  // Flips: the last wire, a middle internal wire, the private input (first wire after the public ones).
  const nPub = r.nOutputs + r.nPubInputs;
  const flipWires = [...new Set([r.nVars - 1, Math.floor((nPub + 1 + r.nVars) / 2), nPub + 1])];
  const flips = flipWires.map((k) => {
    const w2 = w.slice();
    w2[k] = (w2[k] + 1n) % p;
    return { wire: k, first_bad: firstUnsatisfied(constraints, w2, p) };
  });

  return {
    name: `${circuit}_${prime}`,
    circuit, prime_name: prime, curve: PRIMES[prime], prime: p.toString(),
    r1cs: path.relative(outdir, c.r1cs), wtns: path.relative(outdir, wtns),
    n8: r.n8, nVars: r.nVars, nOutputs: r.nOutputs, nPubInputs: r.nPubInputs, nPrvInputs: r.nPrvInputs,
    nLabels: Number(r.nLabels), nConstraints: r.nConstraints,
    map: Array.from(r.map).map(Number),
    constraints: constraints.map(([A, B, C]) => [lcJson(A), lcJson(B), lcJson(C)]),
    witness: w.map((x) => x.toString()),
    flips,
    compile_ms: c.ms, wtns_ms: wtnsMs,
  };
}

const t0 = Date.now();
const jobs = [];
for (const cs of CASES) for (const prime of Object.keys(PRIMES)) jobs.push(makeCase(cs, prime));
// A PLONK custom-gate circuit: only its .r1cs is needed (cuzk must reject it for Groth16).
const custom = compile("customgate", "bn128");
const cases = await Promise.all(jobs);
const cg = await custom;
const doc = {
  generator: "circom2 + snarkjs " + JSON.parse(fs.readFileSync(path.join(here, "node_modules", "snarkjs", "package.json"))).version,
  cases,
  custom_gates_r1cs: path.relative(outdir, cg.r1cs),
  total_ms: Date.now() - t0,
};
fs.writeFileSync(path.join(outdir, "circom.json"), JSON.stringify(doc));
console.log(`gen_circom: ${cases.length} cases in ${doc.total_ms} ms: ` +
  cases.map((c) => `${c.name} (${c.nConstraints} constraints, compile ${c.compile_ms} ms)`).join(", "));
process.exit(0);
