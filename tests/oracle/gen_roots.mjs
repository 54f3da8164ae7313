// Oracle: ffjavascript's roots of unity Fr.w[k] (snarkjs uses them for every FFT).
// Usage: node gen_roots.mjs <outdir>  -> writes <outdir>/roots_of_unity.json:
//   { "<curve>": { "s": Fr.s, "nqr": "...", "w": ["w[0]", ..., "w[s]"] } }  (decimal, standard form)
import { buildBn128, buildBls12381 } from "ffjavascript";
import fs from "node:fs";
import path from "node:path";

const outdir = process.argv[2];
if (!outdir) {
  console.error("usage: node gen_roots.mjs <outdir>");
  process.exit(2);
}
fs.mkdirSync(outdir, { recursive: true });

const out = {};
for (const [name, build] of [["bn254", buildBn128], ["bls12_381", buildBls12381]]) {
  const curve = await build(true);
  const Fr = curve.Fr;
  const w = [];
  for (let k = 0; k <= Fr.s; ++k) w.push(Fr.toString(Fr.w[k]));
  out[name] = { s: Fr.s, nqr: Fr.toString(Fr.nqr), w };
  await curve.terminate();
}
fs.writeFileSync(path.join(outdir, "roots_of_unity.json"), JSON.stringify(out, null, 1));
console.log("wrote", path.join(outdir, "roots_of_unity.json"));
