pragma circom 2.0.0;

// A chain of multiplications with a public input, a private input and one output.
template MulChain(n) {
  signal input a;
  signal input b;
  signal output out;
  signal t[n];
  t[0] <== a * b;
  for (var i = 1; i < n; i++) {
    t[i] <== t[i - 1] * a + 3 * b - 7;
  }
  out <== t[n - 1];
}

component main {public [a]} = MulChain(16);
