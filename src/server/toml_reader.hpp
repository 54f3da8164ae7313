// Strict reading of one TOML table: typed getters that name the key ("engine.workers_per_device")
// in every error, and a final check that reports keys nobody asked for.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

namespace cuzk::server {

class TableReader {
 public:
  // `path` is the table's dotted name ("" for the root, "circuit[1]" for an array element).
  TableReader(const toml::table& table, std::string path);

  bool has(std::string_view key) const;
  std::string key_path(std::string_view key) const;

  // Each getter leaves `out` unchanged when the key is absent and throws ConfigError when the
  // value has the wrong type or is out of range.
  void get(std::string_view key, std::string& out);
  void get(std::string_view key, bool& out);
  void get_int(std::string_view key, std::int64_t& out, std::int64_t min, std::int64_t max);
  template <class T>
  void get_int(std::string_view key, T& out, std::int64_t min, std::int64_t max) {
    std::int64_t v = static_cast<std::int64_t>(out);
    get_int(key, v, min, max);
    out = static_cast<T>(v);
  }
  // An integer number of bytes, or a string with a binary suffix: "512MiB", "8GiB", "64KiB".
  void get_bytes(std::string_view key, std::uint64_t& out);
  void get(std::string_view key, std::vector<std::string>& out);
  // A sub-table (marked as read); nullptr when absent; error when not a table.
  const toml::table* table(std::string_view key);
  // An array of tables (marked as read); empty when absent.
  std::vector<const toml::table*> table_array(std::string_view key);
  // Every key of this table (for free-form maps such as [kinds]); marks them all as read.
  std::vector<std::pair<std::string, const toml::node*>> all();

  // Throws ConfigError naming the first key that was never read.
  void reject_unknown() const;

  [[noreturn]] void fail(std::string_view key, const std::string& what) const;

 private:
  const toml::node* find(std::string_view key);
  const toml::table& table_;
  std::string path_;
  std::set<std::string, std::less<>> read_;
};

// "512MiB" -> 536870912; nullopt-like failure reported by a thrown ConfigError naming `key`.
std::uint64_t parse_byte_size(std::string_view text, std::string_view key);

}  // namespace cuzk::server
