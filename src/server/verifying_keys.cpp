#include "verifying_keys.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <optional>

#include "cuzk/engine/ids.hpp"
#include "cuzk/filecoin/circuit_keys.hpp"
#include "cuzk/groth16/pairing_engine.hpp"
#include "cuzk/groth16/snarkjs_json.hpp"
#include "cuzk/groth16/zkey.hpp"

namespace cuzk::server {

namespace {

template <class E>
groth16::VerifyingKey<E> read_vk(const io::BinFile& f) {
  using Fq = typename E::Fq;
  using Fr = typename E::Fr;
  namespace zd = groth16::zkey_detail;
  groth16::VerifyingKey<E> vk;
  auto r = f.reader(2);
  const std::uint32_t n8q = r.u32();
  const auto q = r.bytes(n8q);
  if (n8q != Fq::kBytes || !r1cs::prime_matches<Fq>(q)) r.fail_at(4, "base field prime does not match the curve");
  const std::uint32_t n8r = r.u32();
  const auto rp = r.bytes(n8r);
  if (n8r != Fr::kBytes || !r1cs::prime_matches<Fr>(rp)) r.fail("scalar field prime does not match the curve");
  (void)r.u32();  // nVars
  const std::uint32_t n_public = r.u32();
  (void)r.u32();  // domainSize
  vk.alpha_g1 = zd::read_vk_point<typename E::G1Curve>(r, "alpha1");
  vk.beta_g1 = zd::read_vk_point<typename E::G1Curve>(r, "beta1");
  vk.beta_g2 = zd::read_vk_point<typename E::G2Curve>(r, "beta2");
  vk.gamma_g2 = zd::read_vk_point<typename E::G2Curve>(r, "gamma2");
  vk.delta_g1 = zd::read_vk_point<typename E::G1Curve>(r, "delta1");
  vk.delta_g2 = zd::read_vk_point<typename E::G2Curve>(r, "delta2");
  zd::read_points<typename E::G1Curve>(f, 3, "IC", std::size_t{n_public} + 1, vk.ic, groth16::PointCheck::kSubgroup);
  return vk;
}

template <class E>
VerifyingKeyJson vk_json(const io::BinFile& f) {
  return {groth16::vk_to_json<E>(read_vk<E>(f)).dump(1), std::string(E::kName)};
}

// A served Filecoin circuit's .vk: the one beside its .params (the engine's key file), under the
// same official name (circuit_keys.hpp).
VerifyingKeyJson filecoin_vk_json(const std::string& circuit_id, const std::filesystem::path& params) {
  namespace fc = filecoin;
  using Bls = groth16::Bls12_381;
  fc::KeyPaths paths;
  paths.params = params;
  paths.vk = std::filesystem::path(params).replace_extension(".vk");
  const std::string_view setup = engine::is_porep_circuit_id(circuit_id)  ? "cuzk porep setup"
                                  : engine::is_snap_circuit_id(circuit_id) ? "cuzk snap setup"
                                                                           : "cuzk post setup";
  return VerifyingKeyJson{groth16::vk_to_json<Bls>(fc::read_key_vk(paths, circuit_id, setup)).dump(1), std::string(Bls::kName)};
}

}  // namespace

VerifyingKeyJson read_zkey_verifying_key(const std::filesystem::path& zkey) {
  const io::BinFile f = io::BinFile::open(zkey, groth16::zkey_detail::kZkeyFile);
  return io::with_path_context(zkey, [&] {
    return groth16::zkey_curve(f) == r1cs::Curve::bn254 ? vk_json<groth16::Bn254>(f) : vk_json<groth16::Bls12_381>(f);
  });
}

std::filesystem::path VerifyingKeys::zkey_of(const engine::CircuitSpec& c, std::string* error) {
  if (!c.zkey_path.empty()) return c.zkey_path;
  // Native circuits: the engine writes the TEST key when it registers the circuit (and again
  // when it loads a key whose file went missing), and names the file.
  std::optional<std::string> file = engine_.key_file(c.id);
  if (file && !std::filesystem::exists(*file)) {
    if (engine_.preload(c.id, error) != engine::ErrorCode::kOk) return {};
    file = engine_.key_file(c.id);
  }
  if (file && std::filesystem::exists(*file)) return *file;
  if (error && error->empty()) *error = "no key file for circuit \"" + c.id + "\"";
  return {};
}

std::optional<VerifyingKeys::Stamp> VerifyingKeys::stamp_of(const std::filesystem::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return std::nullopt;
  Stamp s;
  s.dev = static_cast<std::uint64_t>(st.st_dev);
  s.ino = static_cast<std::uint64_t>(st.st_ino);
  s.size = static_cast<std::uint64_t>(st.st_size);
  s.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  return s;
}

engine::ErrorCode VerifyingKeys::get(const std::string& circuit_id, VerifyingKeyJson* out, std::string* error) {
  Source src;
  const engine::ErrorCode c = source_of(circuit_id, &src, error);
  if (c != engine::ErrorCode::kOk) return c;
  // Stamped before reading: a file that changes during the read is read again next time.
  const std::optional<Stamp> stamp = stamp_of(src.file);
  {
    std::lock_guard lock(mu_);
    if (const auto it = cache_.find(circuit_id);
        it != cache_.end() && stamp && it->second.file == src.file && it->second.stamp == *stamp) {
      *out = it->second.vk;
      return engine::ErrorCode::kOk;
    }
  }
  VerifyingKeyJson vk;
  try {
    vk = read(circuit_id, src);
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return engine::ErrorCode::kInternal;
  }
  std::lock_guard lock(mu_);
  if (stamp) cache_[circuit_id] = Cached{vk, src.file, *stamp};
  *out = std::move(vk);
  return engine::ErrorCode::kOk;
}

engine::ErrorCode VerifyingKeys::source_of(const std::string& circuit_id, Source* out, std::string* error) {
  try {
    const auto& circuits = engine_.config().circuits;
    const auto it = std::find_if(circuits.begin(), circuits.end(), [&](const auto& c) { return c.id == circuit_id; });
    if (it == circuits.end() && (engine::is_post_circuit_id(circuit_id) || engine::is_porep_circuit_id(circuit_id) ||
                                 engine::is_snap_circuit_id(circuit_id))) {
      const std::optional<std::string> params = engine_.key_file(circuit_id);
      if (!params) {
        if (error)
          *error = "circuit \"" + circuit_id + "\" is not served: its .params and .vk are not in the Filecoin " +
                   "parameter directory \"" + engine_.config().filecoin_parameter_dir + "\"";
        return engine::ErrorCode::kNotFound;
      }
      out->params = *params;
      out->file = std::filesystem::path(*params).replace_extension(".vk");
      return engine::ErrorCode::kOk;
    }
    if (it == circuits.end()) {
      if (error) *error = "unknown circuit " + engine::quote_id(circuit_id);
      return engine::ErrorCode::kNotFound;
    }
    out->file = zkey_of(*it, error);
    return out->file.empty() ? engine::ErrorCode::kInternal : engine::ErrorCode::kOk;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return engine::ErrorCode::kInternal;
  }
}

VerifyingKeyJson VerifyingKeys::read(const std::string& circuit_id, const Source& src) {
  if (!src.params.empty()) return filecoin_vk_json(circuit_id, src.params);
  return read_zkey_verifying_key(src.file);
}

}  // namespace cuzk::server
