pragma circom 2.0.0;

include "poseidon.circom";  // circomlib (include path given by tests/oracle/gen_circom.mjs)

// Poseidon(2) hash of a public and a private input.
template Poseidon2Hash() {
  signal input a;
  signal input b;
  signal output h;
  component p = Poseidon(2);
  p.inputs[0] <== a;
  p.inputs[1] <== b;
  h <== p.out;
}

component main {public [a]} = Poseidon2Hash();
