// Identifiers that come from clients (request ids, circuit ids): bounded and printable, so that
// a client can neither grow the job table and the logs without bound nor write control
// characters or line breaks into them. Messages quote what a client sent through quote_id.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cuzk::engine {

inline constexpr std::size_t kMaxIdBytes = 128;

// "" when `value` is an acceptable id (1 to kMaxIdBytes bytes of printable ASCII, no space),
// else why not, naming `field` and quoting the value through quote_id.
std::string id_problem(std::string_view field, std::string_view value);

// The value as a message may quote it: in double quotes, at most its first 32 bytes, every byte
// outside printable ASCII as \xNN, and the length when it was cut ("abc..." (1048576 bytes)).
std::string quote_id(std::string_view value);

}  // namespace cuzk::engine
