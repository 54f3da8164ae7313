// The daemon configuration's schema: for each key of each TOML section its name, type, allowed
// range or values, doc string, and how it reads and shows the struct member it is bound to. The
// default of a key is its member's default initializer (DaemonConfig{}): written nowhere else.
// The TOML reader (daemon_config.cpp), the generated default/example config and the effective
// config of GET /status (config_render.hpp) are all made from these tables.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "daemon_config.hpp"
#include "toml_reader.hpp"

namespace cuzk::server::schema {

enum class Type { string, boolean, integer, bytes, string_list, choice, int_map };

// A key's value as the schema shows it: bool, integer, byte size, string (also a choice's name),
// list of strings, map of names to integers.
using Value = std::variant<bool, std::int64_t, std::uint64_t, std::string, std::vector<std::string>,
                           std::map<std::string, std::uint64_t>>;

template <class S>
struct Key {
  std::string_view name;  // the TOML key
  Type type = Type::string;
  std::string_view doc;                        // one paragraph
  std::int64_t min = 0, max = 0;               // integer: the allowed range
  std::vector<std::string> choices;            // choice: the allowed names
  std::string_view example;                    // optional key: printed commented out with this value while unset ("")
  bool secret = false;                         // the effective config shows "***" when it is set
  std::function<void(TableReader&, S&)> read;  // from TOML (type, range and choices checked); absent: unchanged
  std::function<Value(const S&)> value;        // the member's value
};

template <class S>
struct Section {
  std::string_view name;  // TOML table ("server", "engine.fault_injection") or array of tables ("circuit")
  std::string_view doc;
  std::vector<Key<S>> keys;
};

template <class S>
void read_section(const Section<S>& section, TableReader& t, S& s) {
  for (const Key<S>& k : section.keys) k.read(t, s);
}

// Builders: one key bound to member `m` of S.
template <class S>
Key<S> key(std::string_view name, Type type, std::string_view doc, std::function<void(TableReader&, S&)> read,
           std::function<Value(const S&)> value) {
  Key<S> k;
  k.name = name;
  k.type = type;
  k.doc = doc;
  k.read = std::move(read);
  k.value = std::move(value);
  return k;
}

// A key read by TableReader::get or get_bytes into a member of the Value's own type.
template <class S, class T>
Key<S> plain(std::string_view name, Type type, T S::*m, std::string_view doc) {
  return key<S>(
      name, type, doc,
      [name, m, type](TableReader& t, S& s) {
        if constexpr (std::is_same_v<T, std::uint64_t>)
          t.get_bytes(name, s.*m);
        else
          t.get(name, s.*m);
      },
      [m](const S& s) { return Value(s.*m); });
}

template <class S>
Key<S> text(std::string_view name, std::string S::*m, std::string_view doc) {
  return plain(name, Type::string, m, doc);
}

template <class S>
Key<S> boolean(std::string_view name, bool S::*m, std::string_view doc) {
  return plain(name, Type::boolean, m, doc);
}

template <class S>
Key<S> bytes(std::string_view name, std::uint64_t S::*m, std::string_view doc) {
  return plain(name, Type::bytes, m, doc);
}

template <class S>
Key<S> string_list(std::string_view name, std::vector<std::string> S::*m, std::string_view doc) {
  return plain(name, Type::string_list, m, doc);
}

template <class S, class T>
Key<S> integer(std::string_view name, T S::*m, std::int64_t min, std::int64_t max, std::string_view doc) {
  Key<S> k = key<S>(
      name, Type::integer, doc, [name, m, min, max](TableReader& t, S& s) { t.get_int(name, s.*m, min, max); },
      [m](const S& s) { return Value(static_cast<std::int64_t>(s.*m)); });
  k.min = min;
  k.max = max;
  return k;
}

// An engine setting: its range as the engine checks it (engine::limits).
template <class S, class T>
Key<S> integer(std::string_view name, T S::*m, engine::IntRange r, std::string_view doc) {
  return integer(name, m, r.min, r.max, doc);
}

// A sub-table of non-negative integers ({ depth = 2, challenges = 2 }).
template <class S>
Key<S> int_map(std::string_view name, std::map<std::string, std::uint64_t> S::*m, std::string_view doc) {
  return key<S>(
      name, Type::int_map, doc,
      [name, m](TableReader& t, S& s) {
        const toml::table* sub = t.table(name);
        if (!sub) return;
        TableReader r(*sub, t.key_path(name));
        for (auto& [k, node] : r.all()) {
          std::uint64_t v = 0;
          r.get_int(k, v, 0, std::numeric_limits<std::int64_t>::max());
          (s.*m)[k] = v;
        }
      },
      [m](const S& s) { return Value(s.*m); });
}

// An enum spelled by `to_name`, read by `parse` (which may accept more spellings than the names
// of `values`, as r1cs::parse_curve_name does).
template <class S, class E, std::size_t N>
Key<S> choice(std::string_view name, E S::*m, const std::array<E, N>& values,
              std::optional<E> (*parse)(std::string_view), std::string_view (*to_name)(E), std::string_view doc) {
  std::vector<std::string> names;
  for (E e : values) names.emplace_back(to_name(e));
  Key<S> k = key<S>(
      name, Type::choice, doc,
      [name, m, parse, names](TableReader& t, S& s) {
        if (!t.has(name)) return;
        std::string text;
        t.get(name, text);
        const std::optional<E> v = parse(text);
        if (!v) t.fail(name, "\"" + text + "\" is not one of " + engine::join_names(names));
        s.*m = *v;
      },
      [m, to_name](const S& s) { return Value(std::string(to_name(s.*m))); });
  k.choices = std::move(names);
  return k;
}

// Marks a key: its value is shown as "***" in the effective config when set.
template <class S>
Key<S> secret(Key<S> k) {
  k.secret = true;
  return k;
}

// Marks a key optional: while unset ("") the generated config shows it commented out with `example`.
template <class S>
Key<S> optional(Key<S> k, std::string_view example) {
  k.example = example;
  return k;
}

// The tables, one a section.
struct DaemonSchema {
  Section<ServerConfig> server;                     // [server]
  Section<engine::EngineConfig> engine;             // [engine]
  Section<engine::FaultInjection> fault_injection;  // [engine.fault_injection]
  Section<engine::CircuitSpec> circuit;             // [[circuit]]
  Section<engine::EngineConfig> filecoin;           // [filecoin]
  Section<gpu::Tuning> gpu;                         // [gpu]
};
const DaemonSchema& daemon_schema();

}  // namespace cuzk::server::schema
