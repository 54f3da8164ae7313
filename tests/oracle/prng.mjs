// Seeded splitmix64 generator shared by the oracle scripts, so their vectors are reproducible.
const M64 = (1n << 64n) - 1n;

export function makeRng(seed) {
  let state = BigInt(seed) & M64;
  function next64() {
    state = (state + 0x9e3779b97f4a7c15n) & M64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  }
  // Uniform integer of `bits` bits.
  function randBits(bits) {
    let r = 0n;
    for (let i = 0; i < bits; i += 64) r = (r << 64n) | next64();
    return r & ((1n << BigInt(bits)) - 1n);
  }
  // Uniform integer in [0, n), by rejection.
  function randBelow(n) {
    const bits = n.toString(2).length;
    for (;;) {
      const r = randBits(bits);
      if (r < n) return r;
    }
  }
  return { next64, randBits, randBelow };
}
