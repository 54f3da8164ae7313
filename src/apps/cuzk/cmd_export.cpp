// cuzk export vk --zkey c.zkey --out verification_key.json
#include "commands.hpp"
#include "cuzk/groth16/curve_dispatch.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "files.hpp"

namespace cuzk::cli {

int run_export_vk(const ExportVkArgs& a) {
  return reading_inputs({a.zkey}, [&] {
    const io::BinFile zkey = io::BinFile::open(a.zkey, groth16::zkey_detail::kZkeyFile);
    return groth16::dispatch_curve(groth16::zkey_curve(zkey), [&]<class E>() {
      const groth16::ProvingKey<E> pk = groth16::read_zkey<E>(zkey);
      write_text_file(a.out, groth16::vk_to_json<E>(pk.vk).dump(1) + "\n");
      return 0;
    });
  });
}

}  // namespace cuzk::cli
