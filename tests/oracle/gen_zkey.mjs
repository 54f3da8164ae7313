// Real-tool Groth16 fixtures for the groth16 file formats (tests/groth16/snarkjs_interop_io_test.cpp):
// for bn128 and bls12381, compiles a 3-constraint circuit with circom2, runs a tiny snarkjs ceremony
// (powersoftau new 2^8, one contribution, prepare phase2, zkey new, one zkey contribution so that
// delta is not the generator), exports the verification key, computes a witness and a proof.
//
// usage: node gen_zkey.mjs <outdir>
// writes <outdir>/zkey/<curve>/{mul3.circom, mul3.r1cs, mul3.wtns, mul3.zkey, verification_key.json,
//        proof.json, public.json} and <outdir>/zkey.json (an index with paths, the input and timings).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as snarkjs from "snarkjs";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
if (!process.argv[2]) {
  console.error("usage: node gen_zkey.mjs <outdir>");
  process.exit(2);
}
const outdir = path.resolve(process.argv[2]);
const fixDir = path.join(outdir, "zkey");
fs.mkdirSync(fixDir, { recursive: true });

// out = a*b*c*a with a public: nPublic = 2 (out, then a), 3 constraints, coefficients not all 1
// (the 3*t1 and the -5 make the stored c*R^2 values distinguishable from 1).
const CIRCUIT = `pragma circom 2.0.0;
template Mul3() {
  signal input a;
  signal input b;
  signal input c;
  signal output out;
  signal t1;
  signal t2;
  t1 <== a * b;
  t2 <== (3 * t1 + 7) * (c - 5);
  out <== t2 * a;
}
component main {public [a]} = Mul3();
`;
const INPUT = { a: "3", b: "11", c: "13" };
const POWER = 4;  // domain 8 needs power >= 3; prepare phase2 time grows fast with the power

async function makeCase(curveName) {
  const t0 = Date.now();
  const dir = path.join(fixDir, curveName);
  fs.mkdirSync(dir, { recursive: true });
  const src = path.join(dir, "mul3.circom");
  fs.writeFileSync(src, CIRCUIT);
  // circom2 runs under WASI with the parent directories of its cwd preopened: run it from here.
  await run(process.execPath, [
    path.join(here, "node_modules", "circom2", "cli.js"), src, "--r1cs", "--wasm", "--prime", curveName, "-o", dir,
  ], { cwd: here, maxBuffer: 1 << 24 });
  const r1cs = path.join(dir, "mul3.r1cs");
  const wasm = path.join(dir, "mul3_js", "mul3.wasm");
  if (!fs.existsSync(r1cs)) throw new Error(`circom2 did not write ${r1cs}`);
  const tCompile = Date.now();

  const curve = await snarkjs.curves.getCurveFromName(curveName);
  const p0 = path.join(dir, "pot0.ptau"), p1 = path.join(dir, "pot1.ptau"), pf = path.join(dir, "potf.ptau");
  await snarkjs.powersOfTau.newAccumulator(curve, POWER, p0);
  await snarkjs.powersOfTau.contribute(p0, p1, "cuzk test", "entropy for the cuzk powers of tau " + curveName);
  await snarkjs.powersOfTau.preparePhase2(p1, pf);
  const tPtau = Date.now();

  const z0 = path.join(dir, "mul3_0.zkey"), zkey = path.join(dir, "mul3.zkey");
  await snarkjs.zKey.newZKey(r1cs, pf, z0);
  await snarkjs.zKey.contribute(z0, zkey, "cuzk zkey", "entropy for the cuzk zkey " + curveName);
  const vk = await snarkjs.zKey.exportVerificationKey(zkey);
  fs.writeFileSync(path.join(dir, "verification_key.json"), JSON.stringify(vk, null, 1));

  const wtns = path.join(dir, "mul3.wtns");
  await snarkjs.wtns.calculate(INPUT, wasm, wtns);
  const { proof, publicSignals } = await snarkjs.groth16.prove(zkey, wtns);
  if (!(await snarkjs.groth16.verify(vk, publicSignals, proof))) throw new Error(`${curveName}: snarkjs proof does not verify`);
  fs.writeFileSync(path.join(dir, "proof.json"), JSON.stringify(proof, null, 1));
  fs.writeFileSync(path.join(dir, "public.json"), JSON.stringify(publicSignals, null, 1));
  for (const f of [p0, p1, pf, z0]) fs.unlinkSync(f);
  await curve.terminate();
  const rel = (f) => path.relative(outdir, f);
  return {
    curve: curveName, dir: rel(dir), r1cs: rel(r1cs), wtns: rel(wtns), zkey: rel(zkey),
    vk: rel(path.join(dir, "verification_key.json")), proof: rel(path.join(dir, "proof.json")),
    public: rel(path.join(dir, "public.json")), input: INPUT, public_signals: publicSignals,
    ms: { compile: tCompile - t0, ptau: tPtau - tCompile, total: Date.now() - t0 },
  };
}

const t0 = Date.now();
const cases = [];
for (const c of ["bn128", "bls12381"]) cases.push(await makeCase(c));
const doc = {
  generator: "circom2 + snarkjs " + JSON.parse(fs.readFileSync(path.join(here, "node_modules", "snarkjs", "package.json"))).version,
  power: POWER, cases, total_ms: Date.now() - t0,
};
fs.writeFileSync(path.join(outdir, "zkey.json"), JSON.stringify(doc, null, 1));
console.log(`gen_zkey: ${cases.map((c) => `${c.curve} ${c.ms.total} ms (compile ${c.ms.compile}, ptau ${c.ms.ptau})`).join(", ")}; total ${doc.total_ms} ms`);
process.exit(0);
