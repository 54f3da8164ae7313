// All point encodings: zcash (BLS12-381), snarkjs LEM (binary) and snarkjs JSON strings.
#pragma once

#include "cuzk/ec/serialize_lem.hpp"
#include "cuzk/ec/serialize_snarkjs.hpp"
#include "cuzk/ec/serialize_zcash.hpp"
