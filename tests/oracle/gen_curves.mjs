// Oracle vectors for the ec layer (tests/ec), from @noble/curves.
//   node gen_curves.mjs <outdir>   writes <outdir>/curves.json
//
// For each group (bls12_381_g1, bls12_381_g2, bn254_g1, bn254_g2):
//   b, generator, order r, cofactor h;
//   mul:   random and edge scalars k (including k >= r, as big as 2^512-1) and k*G;
//   ops:   P = a*G, Q = c*G and P+Q, P-Q, 2P, -P;
//   torsion: points on the curve from random x (not cofactor-cleared), noble's
//            isTorsionFree verdict, and h*P (computed by double-and-add on noble's group law);
//   zcash (BLS12-381 only): compressed/uncompressed encodings of random points and of
//            infinity, plus a few invalid encodings with noble's rejection;
//   snarkjs (from ffjavascript, which snarkjs uses): LEM bytes (toRprLEM) and JSON strings
//            (toObject(toAffine(p))) of k*G in G1 and G2 and of infinity, for bn128 and bls12381.
// Field elements are "0x.." hex strings; Fp2 elements are [c0, c1].
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bn254 } from '@noble/curves/bn254.js';
import { buildBn128, buildBls12381 } from 'ffjavascript';  // snarkjs's curve library
import { makeRng } from './prng.mjs';

const outdir = process.argv[2];
if (!outdir) throw new Error('usage: node gen_curves.mjs <outdir>');
mkdirSync(outdir, { recursive: true });

// Deterministic PRNG (shared splitmix64) so vectors are reproducible.
const { randBits, randBelow } = makeRng(0x63757a6b2d637276n); // "cuzk-crv"

const hex = (v) => '0x' + v.toString(16);
const bytesHex = (b) => Buffer.from(b).toString('hex');

function groupDesc(G, isG2, q) {  // q: the prime of the base field
  const P = G.Point;
  const Fp = P.Fp;
  const r = P.Fn.ORDER;
  const h = P.CURVE().h;
  const fe = (v) => (isG2 ? [hex(v.c0), hex(v.c1)] : hex(v));
  const pt = (p) => {
    if (p.is0()) return { inf: true };
    const a = p.toAffine();
    return { x: fe(a.x), y: fe(a.y) };
  };
  // Double-and-add on noble's group law, for scalars of any size (noble's multiply needs k < r).
  const mulBig = (p, k) => {
    let acc = P.ZERO;
    for (const bit of k.toString(2)) {
      acc = acc.double();
      if (bit === '1') acc = acc.add(p);
    }
    return acc;
  };
  const mul = (p, k) => (k % r === 0n ? P.ZERO : p.multiply(k % r));
  const G0 = P.BASE;
  const out = { b: fe(P.CURVE().b), generator: pt(G0), r: hex(r), h: hex(h), mul: [], ops: [], torsion: [] };

  const scalars = [0n, 1n, 2n, 3n, r - 1n, r, r + 1n, (1n << 255n) - 1n, (1n << 512n) - 1n];
  for (let i = 0; i < 12; ++i) scalars.push(randBelow(r));
  for (let i = 0; i < 3; ++i) scalars.push(randBits(384));
  for (const k of scalars) out.mul.push({ k: hex(k), p: pt(mul(G0, k)) });

  for (let i = 0; i < 8; ++i) {
    const a = randBelow(r), c = randBelow(r);
    const p = mul(G0, a), q = mul(G0, c);
    out.ops.push({ a: hex(a), c: hex(c), p: pt(p), q: pt(q), sum: pt(p.add(q)), diff: pt(p.subtract(q)),
                   dbl: pt(p.double()), neg: pt(p.negate()) });
  }

  // Points on the curve from random x, not cofactor-cleared.
  const b = P.CURVE().b;
  let found = 0;
  while (found < 4) {
    const x = isG2 ? Fp.create({ c0: randBelow(q), c1: randBelow(q) }) : randBelow(q);
    let y;
    try { y = Fp.sqrt(Fp.add(Fp.mul(Fp.sqr(x), x), b)); } catch { y = undefined; }
    if (y === undefined) continue;
    const p = P.fromAffine({ x, y });
    out.torsion.push({ p: pt(p), torsion_free: p.isTorsionFree(), cleared: pt(mulBig(p, h)) });
    ++found;
  }
  return out;
}

function zcash(G, isG2) {
  const P = G.Point;
  const r = P.Fn.ORDER;
  const out = { valid: [], invalid: [] };
  const pts = [P.ZERO, P.BASE, P.BASE.negate()];
  for (let i = 0; i < 8; ++i) pts.push(P.BASE.multiply(randBelow(r - 1n) + 1n));
  const fe = (v) => (isG2 ? [hex(v.c0), hex(v.c1)] : hex(v));
  for (const p of pts) {
    const a = p.is0() ? null : p.toAffine();
    out.valid.push({ inf: p.is0(), x: a ? fe(a.x) : null, y: a ? fe(a.y) : null,
                     compressed: bytesHex(p.toBytes(true)), uncompressed: bytesHex(p.toBytes(false)) });
  }
  // A few invalid encodings, with noble's verdict (all must be rejected).
  const W = isG2 ? 96 : 48;
  const cands = [];
  const c = Buffer.from(P.BASE.toBytes(true));
  cands.push(['compression flag missing on a 48/96-byte string', Buffer.from(c).fill(c[0] & 0x1f, 0, 1)]);
  cands.push(['infinity with sort flag', Buffer.concat([Buffer.from([0xe0]), Buffer.alloc(W - 1)])]);
  cands.push(['infinity with non-zero payload', Buffer.concat([Buffer.from([0xc0]), Buffer.alloc(W - 2), Buffer.from([1])])]);
  const big = Buffer.alloc(W, 0xff); big[0] = 0x9f;
  cands.push(['x >= p', big]);
  cands.push(['wrong length', c.subarray(0, W - 1)]);
  for (const [why, bytes] of cands) {
    let rejected = false;
    try { P.fromBytes(bytes).assertValidity(); } catch { rejected = true; }
    out.invalid.push({ why, bytes: bytesHex(bytes), noble_rejects: rejected });
  }
  return out;
}

async function snarkjsForms(build) {
  const curve = await build(true);
  const out = {};
  try {
    for (const [gname, G] of [['g1', curve.G1], ['g2', curve.G2]]) {
      const rows = [];
      const ks = [0n, 1n];
      for (let i = 0; i < 4; ++i) ks.push(randBelow(curve.r));
      for (const k of ks) {
        const p = G.toAffine(k === 0n ? G.zero : G.timesScalar(G.g, k));
        const lem = new Uint8Array(G.F.n8 * 2);
        G.toRprLEM(lem, 0, p);
        const obj = G.toObject(p);
        const str = gname === 'g1' ? obj.map(String) : obj.map((c) => c.map(String));
        rows.push({ k: hex(k), lem: bytesHex(lem), json: str });
      }
      out[gname] = rows;
    }
  } finally {
    await curve.terminate();
  }
  return out;
}

const json = {
  bls12_381_g1: groupDesc(bls12_381.G1, false, bls12_381.fields.Fp.ORDER),
  bls12_381_g2: groupDesc(bls12_381.G2, true, bls12_381.fields.Fp.ORDER),
  bn254_g1: groupDesc(bn254.G1, false, bn254.fields.Fp.ORDER),
  bn254_g2: groupDesc(bn254.G2, true, bn254.fields.Fp.ORDER),
  zcash: { g1: zcash(bls12_381.G1, false), g2: zcash(bls12_381.G2, true) },
  snarkjs: { bn254: await snarkjsForms(buildBn128), bls12_381: await snarkjsForms(buildBls12381) },
};
writeFileSync(join(outdir, 'curves.json'), JSON.stringify(json, null, 1));
console.log('wrote', join(outdir, 'curves.json'));
