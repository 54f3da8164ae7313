#include "cuzk/io/binfile.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <system_error>

namespace cuzk::io {

// --- MappedFile -------------------------------------------------------------------------------

namespace {
std::int64_t mtime_ns(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}
[[noreturn]] void throw_errno(const std::string& what, const std::filesystem::path& p) {
  throw std::system_error(errno, std::generic_category(), what + " '" + p.string() + "'");
}
}  // namespace

MappedFile MappedFile::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_errno("cannot open", path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    errno = e;
    throw_errno("cannot stat", path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            "not a regular file '" + path.string() + "'");
  }
  MappedFile m;
  m.path_ = path;
  m.size_ = static_cast<std::size_t>(st.st_size);
  m.dev_ = static_cast<std::uint64_t>(st.st_dev);
  m.ino_ = static_cast<std::uint64_t>(st.st_ino);
  m.mtime_ns_ = mtime_ns(st);
  if (m.size_ > 0) {
    void* p = ::mmap(nullptr, m.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int e = errno;
      ::close(fd);
      errno = e;
      throw_errno("cannot mmap", path);
    }
    m.data_ = static_cast<const std::uint8_t*>(p);
  }
  ::close(fd);  // the mapping stays valid
  return m;
}

MappedFile::MappedFile(MappedFile&& o) noexcept
    : data_(o.data_), size_(o.size_), path_(std::move(o.path_)), dev_(o.dev_), ino_(o.ino_), mtime_ns_(o.mtime_ns_) {
  o.data_ = nullptr;
  o.size_ = 0;
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    reset();
    data_ = o.data_;
    size_ = o.size_;
    path_ = std::move(o.path_);
    dev_ = o.dev_;
    ino_ = o.ino_;
    mtime_ns_ = o.mtime_ns_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

MappedFile::~MappedFile() { reset(); }

void MappedFile::prefetch() const noexcept {
  if (data_ != nullptr) (void)::madvise(const_cast<std::uint8_t*>(data_), size_, MADV_WILLNEED);
}

void MappedFile::drop_pages() const noexcept {
  if (data_ != nullptr) (void)::madvise(const_cast<std::uint8_t*>(data_), size_, MADV_DONTNEED);
}

bool MappedFile::same_as_on_disk() const {
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) return false;
  return static_cast<std::uint64_t>(st.st_dev) == dev_ && static_cast<std::uint64_t>(st.st_ino) == ino_ &&
         static_cast<std::size_t>(st.st_size) == size_ && mtime_ns(st) == mtime_ns_;
}

void MappedFile::reset() noexcept {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

std::vector<std::uint8_t> read_file_bytes(const std::filesystem::path& path) {
  MappedFile m = MappedFile::open(path);
  auto b = m.bytes();
  return {b.begin(), b.end()};
}

void write_file_bytes(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw_errno("cannot create", path);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw_errno("cannot write", path);
}

// --- ByteReader -------------------------------------------------------------------------------

std::string decode_context(std::string_view kind, std::uint32_t section, std::uint64_t offset) {
  std::string s = std::string(kind) + " file";
  if (section != kNoSection) s += ", section " + std::to_string(section);
  s += ", offset " + std::to_string(offset);
  return s;
}

void ByteReader::fail_at(std::uint64_t rel_offset, const std::string& msg) const {
  throw DecodeError(decode_context(kind_, section_, base_ + rel_offset) + ": " + msg);
}

void ByteReader::fail_truncated(std::uint64_t n) const {
  fail("truncated: need " + std::to_string(n) + " bytes, only " + std::to_string(remaining()) +
       " left" + (section_ == kNoSection ? std::string() : " in the section"));
}

void ByteReader::expect_end() const {
  if (!at_end()) fail("section has " + std::to_string(remaining()) + " unexpected trailing bytes");
}

// --- BinFile ----------------------------------------------------------------------------------

BinFile BinFile::parse(std::span<const std::uint8_t> bytes, const BinFileOptions& opt) {
  BinFile f;
  f.bytes_ = bytes;
  f.index(opt);
  return f;
}

BinFile BinFile::open(const std::filesystem::path& path, const BinFileOptions& opt) {
  BinFile f;
  f.mapped_.emplace(MappedFile::open(path));
  f.bytes_ = f.mapped_->bytes();
  try {
    f.index(opt);
  } catch (const DecodeError& e) {
    throw DecodeError(path.string() + ": " + e.what());
  }
  return f;
}

BinFile BinFile::from_buffer(std::vector<std::uint8_t> bytes, const BinFileOptions& opt) {
  BinFile f;
  f.owned_ = std::move(bytes);
  f.bytes_ = f.owned_;  // a moved vector keeps its heap buffer, so the span survives moves of f
  f.index(opt);
  return f;
}

void BinFile::index(const BinFileOptions& opt) {
  if (opt.magic.size() != 4) throw std::invalid_argument("BinFileOptions::magic must be 4 characters");
  kind_ = std::string(opt.magic);
  ByteReader r(bytes_, kind_, kNoSection, 0);
  auto magic = r.bytes(4);
  if (std::string_view(reinterpret_cast<const char*>(magic.data()), 4) != opt.magic) {
    std::string got;
    for (auto c : magic) got += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    r.fail_at(0, "bad magic '" + got + "', expected '" + kind_ + "'");
  }
  version_ = r.u32();
  if (version_ < opt.min_version || version_ > opt.max_version) {
    r.fail_at(4, "unsupported version " + std::to_string(version_) + " (supported: " +
                     std::to_string(opt.min_version) +
                     (opt.max_version != opt.min_version ? ".." + std::to_string(opt.max_version) : "") + ")");
  }
  const std::uint32_t n = r.u32();
  // Each section record takes at least 12 bytes: bound the count before reserving.
  if (std::uint64_t{n} * 12 > r.remaining())
    r.fail_at(8, "section count " + std::to_string(n) + " exceeds what the file can hold");
  sections_.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint64_t rec = r.offset();
    const std::uint32_t id = r.u32();
    const std::uint64_t size = r.u64();
    if (size > r.remaining()) {
      ByteReader(bytes_, kind_, id, 0)
          .fail_at(rec, "section size " + std::to_string(size) + " overruns the file (" +
                            std::to_string(r.remaining()) + " bytes left)");
    }
    if (!opt.allow_duplicate_sections && has(id))
      ByteReader(bytes_, kind_, id, 0).fail_at(rec, "duplicate section id " + std::to_string(id));
    sections_.push_back(Section{id, r.offset(), size});
    r.skip(size);
  }
  if (!r.at_end()) r.fail(std::to_string(r.remaining()) + " trailing bytes after the last section");
}

const BinFile::Section* BinFile::find(std::uint32_t id) const {
  for (const auto& s : sections_)
    if (s.id == id) return &s;
  return nullptr;
}

std::vector<const BinFile::Section*> BinFile::find_all(std::uint32_t id) const {
  std::vector<const Section*> v;
  for (const auto& s : sections_)
    if (s.id == id) v.push_back(&s);
  return v;
}

const BinFile::Section& BinFile::section(std::uint32_t id) const {
  const Section* s = find(id);
  if (s == nullptr) throw DecodeError(kind_ + " file: missing section " + std::to_string(id));
  return *s;
}

std::span<const std::uint8_t> BinFile::section_bytes(std::uint32_t id) const {
  const Section& s = section(id);
  return bytes_.subspan(static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.size));
}

ByteReader BinFile::reader(std::uint32_t id) const { return reader(section(id)); }

ByteReader BinFile::reader(const Section& s) const {
  return ByteReader(bytes_.subspan(static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.size)),
                    kind_, s.id, s.offset);
}

// --- BinWriter --------------------------------------------------------------------------------

BinWriter::BinWriter(std::string_view magic, std::uint32_t version, std::uint32_t n_sections)
    : n_sections_(n_sections) {
  if (magic.size() != 4) throw std::invalid_argument("BinWriter: magic must be 4 characters");
  buf_.reserve(64);
  for (char c : magic) buf_.push_back(static_cast<std::uint8_t>(c));  // (not insert: GCC 12 -Wstringop-overflow false positive)
  u32(version);
  u32(n_sections);
}

void BinWriter::begin_section(std::uint32_t id) {
  if (open_size_at_) throw std::logic_error("BinWriter: begin_section while a section is open");
  if (written_ == n_sections_) throw std::logic_error("BinWriter: more sections than announced");
  u32(id);
  open_size_at_ = buf_.size();
  u64(0);
}

void BinWriter::end_section() {
  if (!open_size_at_) throw std::logic_error("BinWriter: end_section without begin_section");
  const std::size_t at = *open_size_at_;
  const std::uint64_t size = buf_.size() - (at + 8);
  for (std::size_t i = 0; i < 8; ++i) buf_[at + i] = static_cast<std::uint8_t>(size >> (8 * i));
  open_size_at_.reset();
  ++written_;
}

std::vector<std::uint8_t> BinWriter::finish() && {
  if (open_size_at_) throw std::logic_error("BinWriter: finish with an open section");
  if (written_ != n_sections_)
    throw std::logic_error("BinWriter: wrote " + std::to_string(written_) + " sections, announced " +
                           std::to_string(n_sections_));
  return std::move(buf_);
}

}  // namespace cuzk::io
