pragma circom 2.0.0;

include "poseidon.circom";

// circomlib Poseidon of three inputs, two of them public; the hash is the output.
template P3() {
  signal input a;
  signal input b;
  signal input c;
  signal output h;
  component p = Poseidon(3);
  p.inputs[0] <== a;
  p.inputs[1] <== b;
  p.inputs[2] <== c;
  h <== p.out;
}

component main {public [a, b]} = P3();
