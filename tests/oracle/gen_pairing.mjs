// Tower-field and pairing test vectors from @noble/curves for BLS12-381 and BN254.
// Usage: node gen_pairing.mjs <outdir>   -> writes <outdir>/pairing.json
//
// noble's towers use the same basis as cuzk (Fp2 = Fp[u]/(u^2+1), Fp6 = Fp2[v]/(v^3 - xi),
// Fp12 = Fp6[w]/(w^2 - v), xi = 1+u resp. 9+u; see node_modules/@noble/curves/abstract/tower.js),
// so elements are written as flat lists of canonical Fq coefficients in memory order:
//   Fq2: [c0, c1]; Fq6: [c0.c0, c0.c1, c1.c0, ...]; Fq12: [c0.c0.c0, c0.c0.c1, ..., c1.c2.c1].
// The pairing is noble's full pairing (Miller loop + its final exponentiation, which raises to
// 3(p^12-1)/r for BLS12-381 and 2x(6x^2+3x+1)(p^12-1)/r for BN254).
// Deterministic: operands come from a seeded splitmix64 stream.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bn254 } from '@noble/curves/bn254.js';
import { makeRng } from './prng.mjs';

const outdir = process.argv[2];
if (!outdir) {
  console.error('usage: node gen_pairing.mjs <outdir>');
  process.exit(2);
}

const { randBelow } = makeRng(0x63757a6b2d706169n); // "cuzk-pai"

const hex = (x) => '0x' + x.toString(16);
const flat2 = (a) => [a.c0, a.c1];
const flat6 = (a) => [...flat2(a.c0), ...flat2(a.c1), ...flat2(a.c2)];
const flat12 = (a) => [...flat6(a.c0), ...flat6(a.c1)];
const H = (xs) => xs.map(hex);

function curveVectors(curve, nField, nPair) {
  const { Fp, Fp2, Fp6, Fp12, Fr } = curve.fields;
  const p = Fp.ORDER;
  const rFp = () => randBelow(p);
  const rFp2 = () => Fp2.fromBigTuple([rFp(), rFp()]);
  const rFp6 = () => Fp6.create({ c0: rFp2(), c1: rFp2(), c2: rFp2() });
  const rFp12 = () => Fp12.create({ c0: rFp6(), c1: rFp6() });

  const fq2 = [];
  for (let i = 0; i < nField; i++) {
    const a = rFp2(), b = rFp2();
    const sq = Fp2.sqr(a);
    // a non-square: a^2 times the quadratic non-residue xi
    const nonsq = Fp2.mul(sq, Fp2.NONRESIDUE);
    let nonsqHasRoot = true;
    try {
      Fp2.sqrt(nonsq);
    } catch {
      nonsqHasRoot = false;
    }
    fq2.push({
      a: H(flat2(a)), b: H(flat2(b)),
      add: H(flat2(Fp2.add(a, b))), sub: H(flat2(Fp2.sub(a, b))), mul: H(flat2(Fp2.mul(a, b))),
      sqr: H(flat2(sq)), inv: H(flat2(Fp2.inv(a))), mul_nr: H(flat2(Fp2.mulByNonresidue(a))),
      sqrt_of_sqr: H(flat2(Fp2.sqrt(sq))), nonsquare: H(flat2(nonsq)), nonsquare_has_root: nonsqHasRoot,
    });
  }
  const fq6 = [];
  for (let i = 0; i < nField; i++) {
    const a = rFp6(), b = rFp6();
    fq6.push({
      a: H(flat6(a)), b: H(flat6(b)), mul: H(flat6(Fp6.mul(a, b))), sqr: H(flat6(Fp6.sqr(a))),
      inv: H(flat6(Fp6.inv(a))), mul_nr: H(flat6(Fp6.mulByNonresidue(a))),
      frob1: H(flat6(Fp6.frobeniusMap(a, 1))), frob2: H(flat6(Fp6.frobeniusMap(a, 2))),
      frob3: H(flat6(Fp6.frobeniusMap(a, 3))),
    });
  }
  const fq12 = [];
  for (let i = 0; i < nField; i++) {
    const a = rFp12(), b = rFp12();
    fq12.push({
      a: H(flat12(a)), b: H(flat12(b)), mul: H(flat12(Fp12.mul(a, b))), sqr: H(flat12(Fp12.sqr(a))),
      inv: H(flat12(Fp12.inv(a))), frob1: H(flat12(Fp12.frobeniusMap(a, 1))),
      frob2: H(flat12(Fp12.frobeniusMap(a, 2))), frob3: H(flat12(Fp12.frobeniusMap(a, 3))),
      final_exp: H(flat12(Fp12.finalExponentiate(a))),
    });
  }

  const G1 = curve.G1.Point, G2 = curve.G2.Point;
  const r = Fr.ORDER;
  const g1 = (P) => { const a = P.toAffine(); return H([a.x, a.y]); };
  const g2 = (P) => { const a = P.toAffine(); return H([a.x.c0, a.x.c1, a.y.c0, a.y.c1]); };
  const pairings = [];
  for (let i = 0; i < nPair; i++) {
    const a = 1n + randBelow(r - 1n), b = 1n + randBelow(r - 1n);
    const P = G1.BASE.multiply(a), Q = G2.BASE.multiply(b);
    pairings.push({ a: hex(a), b: hex(b), p: g1(P), q: g2(Q), e: H(flat12(curve.pairing(P, Q))) });
  }
  // Pairing-check sets: {(aP, bQ), (cP, dQ), (-(ab+cd)P, Q)} (product 1) and the same with one
  // scalar perturbed (product != 1); the expected outcome is noble's.
  const checks = [];
  for (let i = 0; i < 3; i++) {
    const a = 1n + randBelow(r - 1n), b = 1n + randBelow(r - 1n);
    const c = 1n + randBelow(r - 1n), d = 1n + randBelow(r - 1n);
    const s = (a * b + c * d) % r;
    for (const tamper of [0n, 1n]) {
      const pts = [
        [G1.BASE.multiply(a), G2.BASE.multiply(b)],
        [G1.BASE.multiply(c), G2.BASE.multiply(d)],
        [G1.BASE.multiply((r - s + tamper) % r || r - 1n), G2.BASE],
      ];
      const prod = curve.pairingBatch(pts.map(([g1p, g2p]) => ({ g1: g1p, g2: g2p })));
      checks.push({ pairs: pts.map(([g1p, g2p]) => ({ p: g1(g1p), q: g2(g2p) })), expect: Fp12.eql(prod, Fp12.ONE) });
    }
  }
  return { fq2, fq6, fq12, pairings, checks };
}

const out = {
  bls12_381: curveVectors(bls12_381, 4, 5),
  bn254: curveVectors(bn254, 4, 5),
};
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, 'pairing.json'), JSON.stringify(out, null, 1));
