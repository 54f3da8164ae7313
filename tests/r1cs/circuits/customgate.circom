pragma circom 2.1.0;
pragma custom_templates;

// Uses a PLONK custom gate: the .r1cs gets sections 4/5, which cuzk must reject for Groth16.
template custom CMul() {
  signal input a;
  signal input b;
  signal output c;
  c <-- a * b;
}

template Main() {
  signal input a;
  signal input b;
  signal output c;
  component m = CMul();
  m.a <== a;
  m.b <== b;
  c <== m.c;
}

component main = Main();
