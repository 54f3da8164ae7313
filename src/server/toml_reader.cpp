#include "toml_reader.hpp"

#include <charconv>
#include <limits>

#include "daemon_config.hpp"

namespace cuzk::server {

namespace {

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    default: return "a date/time";
  }
}

std::string where(const toml::node& n) {
  const auto& s = n.source();
  if (!s.begin) return "";
  return " (line " + std::to_string(s.begin.line) + ")";
}

}  // namespace

TableReader::TableReader(const toml::table& table, std::string path) : table_(table), path_(std::move(path)) {}

bool TableReader::has(std::string_view key) const { return table_.contains(key); }

std::string TableReader::key_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void TableReader::fail(std::string_view key, const std::string& what) const {
  const toml::node* n = table_.get(key);
  throw ConfigError(key_path(key) + ": " + what + (n ? where(*n) : ""));
}

const toml::node* TableReader::find(std::string_view key) {
  const toml::node* n = table_.get(key);
  if (n) read_.emplace(key);
  return n;
}

void TableReader::get(std::string_view key, std::string& out) {
  const toml::node* n = find(key);
  if (!n) return;
  if (!n->is_string()) fail(key, "expected a string, got " + type_name(*n));
  out = n->as_string()->get();
}

void TableReader::get(std::string_view key, bool& out) {
  const toml::node* n = find(key);
  if (!n) return;
  if (!n->is_boolean()) fail(key, "expected true or false, got " + type_name(*n));
  out = n->as_boolean()->get();
}

void TableReader::get_int(std::string_view key, std::int64_t& out, std::int64_t min, std::int64_t max) {
  const toml::node* n = find(key);
  if (!n) return;
  if (!n->is_integer()) fail(key, "expected an integer, got " + type_name(*n));
  const std::int64_t v = n->as_integer()->get();
  if (v < min || v > max)
    fail(key, std::to_string(v) + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  out = v;
}

std::uint64_t parse_byte_size(std::string_view text, std::string_view key) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || p == text.data())
    throw ConfigError(std::string(key) + ": \"" + std::string(text) + "\" is not a size (e.g. 4096, \"512MiB\", \"8GiB\")");
  std::string_view suffix(p, static_cast<std::size_t>(end - p));
  while (!suffix.empty() && suffix.front() == ' ') suffix.remove_prefix(1);
  int shift = -1;
  if (suffix.empty() || suffix == "B") shift = 0;
  else if (suffix == "KiB") shift = 10;
  else if (suffix == "MiB") shift = 20;
  else if (suffix == "GiB") shift = 30;
  else if (suffix == "TiB") shift = 40;
  if (shift < 0)
    throw ConfigError(std::string(key) + ": unknown size suffix \"" + std::string(suffix) + "\" (use B, KiB, MiB, GiB or TiB)");
  if (shift > 0 && value > (std::numeric_limits<std::uint64_t>::max() >> shift))
    throw ConfigError(std::string(key) + ": \"" + std::string(text) + "\" is too large");
  return value << shift;
}

void TableReader::get_bytes(std::string_view key, std::uint64_t& out) {
  const toml::node* n = find(key);
  if (!n) return;
  if (n->is_integer()) {
    const std::int64_t v = n->as_integer()->get();
    if (v < 0) fail(key, "a size cannot be negative");
    out = static_cast<std::uint64_t>(v);
  } else if (n->is_string()) {
    out = parse_byte_size(n->as_string()->get(), key_path(key));
  } else {
    fail(key, "expected a size (integer bytes or a string like \"8GiB\"), got " + type_name(*n));
  }
}

void TableReader::get(std::string_view key, std::vector<std::string>& out) {
  const toml::node* n = find(key);
  if (!n) return;
  const toml::array* a = n->as_array();
  if (!a) fail(key, "expected an array of strings, got " + type_name(*n));
  std::vector<std::string> v;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& e = *a->get(i);
    if (!e.is_string()) fail(key, "element " + std::to_string(i) + " is " + type_name(e) + ", expected a string");
    v.push_back(e.as_string()->get());
  }
  out = std::move(v);
}

const toml::table* TableReader::table(std::string_view key) {
  const toml::node* n = find(key);
  if (!n) return nullptr;
  if (!n->is_table()) fail(key, "expected a table, got " + type_name(*n));
  return n->as_table();
}

std::vector<const toml::table*> TableReader::table_array(std::string_view key) {
  const toml::node* n = find(key);
  std::vector<const toml::table*> r;
  if (!n) return r;
  const toml::array* a = n->as_array();
  if (!a || !a->is_array_of_tables()) fail(key, "expected an array of tables ([[" + std::string(key) + "]])");
  for (std::size_t i = 0; i < a->size(); ++i) r.push_back(a->get(i)->as_table());
  return r;
}

std::vector<std::pair<std::string, const toml::node*>> TableReader::all() {
  std::vector<std::pair<std::string, const toml::node*>> r;
  for (auto&& [k, v] : table_) {
    read_.emplace(k.str());
    r.emplace_back(std::string(k.str()), &v);
  }
  return r;
}

void TableReader::reject_unknown() const {
  for (auto&& [k, v] : table_)
    if (!read_.contains(k.str())) throw ConfigError(key_path(k.str()) + ": unknown key" + where(v));
}

}  // namespace cuzk::server
