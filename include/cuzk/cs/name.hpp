// Constraint and namespace names: a string (literal, std::string) or a callable returning one, so
// that names built with formatting cost nothing in WitnessOnly mode (callables are never invoked
// there) and are only formatted in Record (with names on) and Check modes.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace cuzk::cs {

template <class N>
concept NameLike = std::convertible_to<const N&, std::string_view> ||
                   (std::invocable<const N&> && std::convertible_to<std::invoke_result_t<const N&>, std::string>);

template <NameLike N>
std::string resolve_name(const N& n) {
  if constexpr (std::convertible_to<const N&, std::string_view>)
    return std::string(std::string_view(n));
  else
    return std::string(n());
}

// A stack of namespace components joined with '/', e.g. "sha256/round 3/ch".
class NamePath {
 public:
  void push(std::string s) {
    marks_.push_back(path_.size());
    if (!path_.empty()) path_ += '/';
    path_ += s;
  }
  void pop() {
    if (marks_.empty()) return;
    path_.resize(marks_.back());
    marks_.pop_back();
  }
  std::size_t depth() const { return marks_.size(); }
  std::string join(std::string_view leaf) const {
    if (path_.empty()) return std::string(leaf);
    std::string s = path_;
    s += '/';
    s += leaf;
    return s;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<std::size_t> marks_;
};

}  // namespace cuzk::cs
