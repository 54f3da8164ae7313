// The iden3 "binfile" container used by every circom/snarkjs file (.r1cs, .wtns, .zkey, .ptau):
//   4-byte magic, u32 version, u32 nSections, then nSections × {u32 id, u64 size, size bytes}.
// All integers little-endian; sections may appear in any order (shared/INTEROP.md §7.1).
//
// MappedFile  — RAII read-only mmap of a whole file (zero-copy; large .zkey files).
// ByteReader  — bounds-checked little-endian cursor over a byte span; every overrun throws
//               cuzk::DecodeError naming the file kind, the section and the absolute file offset.
// BinFile     — parses/validates the container and indexes the sections by id; owns the mapping
//               when opened from a path, or views a caller-owned buffer.
// BinWriter   — builds the same container in memory (section sizes patched on end_section()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/ff/bigint.hpp"

namespace cuzk::io {

// Read-only memory mapping of a whole file. Move-only; unmaps in the destructor.
// An empty file gives an empty span (no mapping). Throws std::system_error when the file
// cannot be opened or mapped (the message names the path).
class MappedFile {
 public:
  MappedFile() = default;
  static MappedFile open(const std::filesystem::path& path);
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }

  // Page-cache hints (best effort, never throw): prefetch() asks the kernel to read the file
  // ahead (MADV_WILLNEED); drop_pages() unmaps the pages from this process (MADV_DONTNEED)
  // while the page cache keeps them, so a parsed-and-kept file stops counting in the RSS.
  void prefetch() const noexcept;
  void drop_pages() const noexcept;
  // True while the path still names the file that was mapped (same device, inode, size and
  // modification time): false once it was replaced (renamed over) or changed.
  bool same_as_on_disk() const;

 private:
  void reset() noexcept;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::filesystem::path path_;
  std::uint64_t dev_ = 0, ino_ = 0;
  std::int64_t mtime_ns_ = 0;
};

// Reads a whole file into memory (for small files / tests). Throws std::system_error.
std::vector<std::uint8_t> read_file_bytes(const std::filesystem::path& path);
// Writes bytes to a file (truncating). Throws std::system_error.
void write_file_bytes(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

// Section id used in messages for the container header itself (before any section).
inline constexpr std::uint32_t kNoSection = 0xffffffffu;

// Bounds-checked little-endian cursor. `kind` ("r1cs", "wtns", "zkey", ...) and `section` only
// serve the error messages; `base` is the absolute file offset of data[0].
class ByteReader {
 public:
  ByteReader(std::span<const std::uint8_t> data, std::string_view kind, std::uint32_t section,
             std::uint64_t base)
      : data_(data), kind_(kind), section_(section), base_(base) {}

  std::uint32_t u32() { return static_cast<std::uint32_t>(uint_le(4)); }
  std::uint64_t u64() { return uint_le(8); }
  // The next n bytes (a view into the underlying buffer).
  std::span<const std::uint8_t> bytes(std::uint64_t n) {
    need(n);
    auto s = data_.subspan(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return s;
  }
  void skip(std::uint64_t n) { (void)bytes(n); }

  // A fixed-width little-endian integer of exactly n8 bytes into N limbs (n8 <= 8N, zero-extended).
  template <std::size_t N>
  ff::Limbs<N> limbs_le(std::size_t n8) {
    if (n8 > 8 * N) fail("integer of " + std::to_string(n8) + " bytes does not fit " + std::to_string(8 * N));
    auto b = bytes(n8);
    ff::Limbs<N> r{};
    for (std::size_t i = 0; i < n8; ++i) r[i / 8] |= ff::u64{b[i]} << (8 * (i % 8));
    return r;
  }

  // A field element stored canonically (standard form, F::kBytes LE bytes) -> F (Montgomery in memory).
  // Throws if the value is >= the modulus.
  template <class F>
  F field_std(std::string_view what = "field element") {
    const std::uint64_t at = offset();
    auto v = limbs_le<F::kLimbs>(F::kBytes);
    if (ff::big::cmp(v, F::kModulus) >= 0) fail_at(at, std::string(what) + " is not canonical (>= modulus)");
    return F::from_canonical(v);
  }
  // A field element stored as raw Montgomery limbs ("LEM"). Throws if the limbs are >= the modulus.
  template <class F>
  F field_mont(std::string_view what = "field element") {
    const std::uint64_t at = offset();
    auto v = limbs_le<F::kLimbs>(F::kBytes);
    if (ff::big::cmp(v, F::kModulus) >= 0) fail_at(at, std::string(what) + " (Montgomery form) is >= modulus");
    return F::from_mont(v);
  }

  std::uint64_t offset() const { return pos_; }                // within this reader's span
  std::uint64_t file_offset() const { return base_ + pos_; }   // absolute
  std::uint64_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  // Throws unless every byte was consumed ("section has N trailing bytes").
  void expect_end() const;
  // Throws unless at least n more bytes are present (use before reserving memory for counts).
  void need(std::uint64_t n) const {
    if (n > remaining()) fail_truncated(n);
  }

  // DecodeError "<kind> file, section <id>, offset <abs>: <msg>" at the current position / given one.
  [[noreturn]] void fail(const std::string& msg) const { fail_at(pos_, msg); }
  [[noreturn]] void fail_at(std::uint64_t rel_offset, const std::string& msg) const;

  std::string_view kind() const { return kind_; }
  std::uint32_t section() const { return section_; }

 private:
  std::uint64_t uint_le(std::size_t n) {
    need(n);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t{data_[pos_ + i]} << (8 * i);
    pos_ += n;
    return v;
  }
  [[noreturn]] void fail_truncated(std::uint64_t n) const;

  std::span<const std::uint8_t> data_;
  std::string kind_;
  std::uint32_t section_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
};

// Formats the error context "<kind> file, section <id>, offset <off>" (section omitted for kNoSection).
std::string decode_context(std::string_view kind, std::uint32_t section, std::uint64_t offset);

struct BinFileOptions {
  std::string_view magic;             // exactly 4 characters, also the file kind in messages
  std::uint32_t min_version = 1;      // accepted version range
  std::uint32_t max_version = 1;
  bool allow_duplicate_sections = false;  // r1cs/wtns: false (duplicate ids are an error)
};

class BinFile {
 public:
  struct Section {
    std::uint32_t id;
    std::uint64_t offset;  // absolute offset of the section's first data byte
    std::uint64_t size;
  };

  // Views a caller-owned buffer; the buffer must outlive the BinFile.
  static BinFile parse(std::span<const std::uint8_t> bytes, const BinFileOptions& opt);
  // Maps the file and owns the mapping.
  static BinFile open(const std::filesystem::path& path, const BinFileOptions& opt);
  // Takes ownership of an in-memory buffer.
  static BinFile from_buffer(std::vector<std::uint8_t> bytes, const BinFileOptions& opt);

  BinFile(BinFile&&) noexcept = default;
  BinFile& operator=(BinFile&&) noexcept = default;

  std::string_view kind() const { return kind_; }
  std::uint32_t version() const { return version_; }
  const std::vector<Section>& sections() const { return sections_; }  // in file order
  std::span<const std::uint8_t> bytes() const { return bytes_; }
  // The path it was opened from (open()), or nullptr (parse(), from_buffer()).
  const std::filesystem::path* path() const { return mapped_ ? &mapped_->path() : nullptr; }

  bool has(std::uint32_t id) const { return find(id) != nullptr; }
  // First section with this id, or nullptr.
  const Section* find(std::uint32_t id) const;
  // All sections with this id, in file order (several only with allow_duplicate_sections).
  std::vector<const Section*> find_all(std::uint32_t id) const;
  // The section (throws DecodeError "<kind> file: missing section <id>").
  const Section& section(std::uint32_t id) const;
  // Raw bytes of a section (zero-copy view; valid while this BinFile lives).
  std::span<const std::uint8_t> section_bytes(std::uint32_t id) const;
  // A bounds-checked reader over a section.
  ByteReader reader(std::uint32_t id) const;
  ByteReader reader(const Section& s) const;

 private:
  BinFile() = default;
  void index(const BinFileOptions& opt);

  std::optional<MappedFile> mapped_;           // owned mapping (open())
  std::vector<std::uint8_t> owned_;            // owned buffer (from_buffer())
  std::span<const std::uint8_t> bytes_;        // what is parsed (into mapped_, owned_ or caller memory)
  std::string kind_;
  std::uint32_t version_ = 0;
  std::vector<Section> sections_;
};

// Builds a container in memory. Usage: BinWriter w("r1cs", 1, 3); w.begin_section(1); w.u32(..); ...
// w.end_section(); ... auto bytes = std::move(w).finish();
class BinWriter {
 public:
  BinWriter(std::string_view magic, std::uint32_t version, std::uint32_t n_sections);

  void begin_section(std::uint32_t id);
  void end_section();

  void u32(std::uint32_t v) { uint_le(v, 4); }
  void u64(std::uint64_t v) { uint_le(v, 8); }
  void bytes(std::span<const std::uint8_t> b) { buf_.insert(buf_.end(), b.begin(), b.end()); }
  template <std::size_t N>
  void limbs_le(const ff::Limbs<N>& v, std::size_t n8) {
    for (std::size_t i = 0; i < n8; ++i)
      buf_.push_back(i / 8 < N ? static_cast<std::uint8_t>(v[i / 8] >> (8 * (i % 8))) : 0);
  }
  template <class F>
  void field_std(const F& x) { limbs_le(x.to_canonical(), F::kBytes); }
  template <class F>
  void field_mont(const F& x) { limbs_le(x.mont(), F::kBytes); }

  // Checks that every announced section was written and closed; returns the file bytes.
  std::vector<std::uint8_t> finish() &&;

 private:
  void uint_le(std::uint64_t v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) buf_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  std::vector<std::uint8_t> buf_;
  std::uint32_t n_sections_;
  std::uint32_t written_ = 0;
  std::optional<std::size_t> open_size_at_;  // position of the open section's u64 size
};

// Runs fn(); a DecodeError it throws is rethrown with "<path>: " in front, unless its message
// already starts with it. For parsing steps after BinFile::open (which already names the path in
// its own errors).
template <class Fn>
decltype(auto) with_path_context(const std::filesystem::path& path, Fn&& fn) {
  try {
    return fn();
  } catch (const DecodeError& e) {
    const std::string prefix = path.string() + ": ";
    if (std::string_view(e.what()).starts_with(prefix)) throw;
    throw DecodeError(prefix + e.what());
  }
}

// The same for a container: errors name f's path when it was opened from one (a reader of the
// parsed container then names the file whichever way its caller opened it).
template <class Fn>
decltype(auto) with_file_context(const BinFile& f, Fn&& fn) {
  if (f.path() == nullptr) return fn();
  return with_path_context(*f.path(), std::forward<Fn>(fn));
}

}  // namespace cuzk::io
