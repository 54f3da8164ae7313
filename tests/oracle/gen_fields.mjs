// Field test vectors from @noble/curves for the four prime fields of cuzk.
// Usage: node gen_fields.mjs <outdir>   -> writes <outdir>/fields.json
// Deterministic: operands come from a seeded splitmix64 stream, so every run
// writes the same file. All values are canonical integers as "0x.." hex strings
// (plus a decimal copy of `a` to exercise decimal parsing/printing).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bn254 } from '@noble/curves/bn254.js';
import { makeRng } from './prng.mjs';

const outdir = process.argv[2];
if (!outdir) {
  console.error('usage: node gen_fields.mjs <outdir>');
  process.exit(2);
}

const { randBits } = makeRng(0x63757a6b2d666965n); // "cuzk-fie"

function randField(F) {
  for (;;) {
    const r = randBits(F.BITS);
    if (r < F.ORDER) return r;
  }
}

const hex = (x) => '0x' + x.toString(16);
const bytesHex = (u8) => Buffer.from(u8).toString('hex');

function sqrtOrNull(F, a) {
  try {
    return F.sqrt(a);
  } catch {
    return null;
  }
}
function legendre(F, a) {
  if (F.is0(a)) return 0;
  const t = F.pow(a, (F.ORDER - 1n) / 2n);
  if (F.eql(t, F.ONE)) return 1;
  if (F.eql(t, F.neg(F.ONE))) return -1;
  throw new Error('legendre: not +-1');
}

function vector(F, a, b, e) {
  const s = sqrtOrNull(F, a);
  const leBytes = F.isLE ? F.toBytes(a) : F.toBytes(a).slice().reverse();
  const v = {
    a: hex(a),
    a_dec: a.toString(10),
    b: hex(b),
    e: hex(e),
    add: hex(F.add(a, b)),
    sub: hex(F.sub(a, b)),
    neg: hex(F.neg(a)),
    mul: hex(F.mul(a, b)),
    sqr: hex(F.sqr(a)),
    dbl: hex(F.add(a, a)),
    inv: hex(F.is0(a) ? 0n : F.inv(a)),
    pow: hex(F.pow(a, e)),
    legendre: legendre(F, a),
    sqrt: s === null ? null : hex(s),
    bytes_le: bytesHex(leBytes),
    bytes_be: bytesHex(leBytes.slice().reverse()),
  };
  if (v.legendre === 1 && s === null) throw new Error('noble sqrt failed on a square');
  if (v.legendre === -1 && s !== null) throw new Error('noble sqrt succeeded on a non-square');
  return v;
}

function fieldVectors(name, F, nqr) {
  const p = F.ORDER;
  const edges = [0n, 1n, 2n, 3n, 4n, 5n, 7n, 9n, 16n, p - 1n, p - 2n, (p - 1n) / 2n, (p + 1n) / 2n, (1n << 64n) - 1n, 1n << 64n];
  const vectors = [];
  for (const a of edges) {
    for (const b of [0n, 1n, p - 1n]) vectors.push(vector(F, a, b, 0n));
    vectors.push(vector(F, a, randField(F), randBits(64)));
  }
  for (let i = 0; i < 200; ++i) {
    const a = randField(F);
    const b = randField(F);
    // Mix exponent widths: small, one limb, full field width, wider than the field.
    const ebits = [8, 64, F.BITS, 2 * F.BITS][i % 4];
    vectors.push(vector(F, a, b, randBits(ebits)));
  }
  // ffjavascript's roots of unity: w[s] = nqr^((p-1)/2^s), w[k] = w[k+1]^2.
  let s = 0;
  while (((p - 1n) >> BigInt(s)) % 2n === 0n) ++s;
  const roots = [];
  let w = F.pow(BigInt(nqr), (p - 1n) >> BigInt(s));
  for (let k = s; k >= 0; --k) {
    roots[k] = hex(w);
    w = F.sqr(w);
  }
  return { name, modulus: hex(p), bits: F.BITS, bytes: F.BYTES, two_adicity: s, nonresidue: nqr, roots_of_unity: roots, vectors };
}

const out = {
  generator: '@noble/curves 2.4.0 via tests/oracle/gen_fields.mjs',
  fields: {
    bls12_381_fq: fieldVectors('bls12_381_fq', bls12_381.fields.Fp, 2),
    bls12_381_fr: fieldVectors('bls12_381_fr', bls12_381.fields.Fr, 5),
    bn254_fq: fieldVectors('bn254_fq', bn254.fields.Fp, 3),
    bn254_fr: fieldVectors('bn254_fr', bn254.fields.Fr, 5),
  },
};
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, 'fields.json'), JSON.stringify(out, null, 1));
console.log(`wrote ${join(outdir, 'fields.json')}`);
