// schemes.hpp: the tables `posenc emit` and `posenc verify` know besides RoPE's. Each is defined in
// its own file, schemes/<file>.hpp (flags, config reader, emit, verify), which ends with its lists:
//
//   inline constexpr scheme_command <file>_commands[] = {...};    // emit's tables of this file
//   inline constexpr verify_scheme <file>_verifiers[] = {...};    // verify's, with the verify layer
//
// The directory is the list: tools/CMakeLists.txt writes cli_scheme_files.hpp, which includes every
// file of schemes/ and defines POSENC_CLI_SCHEME_FILES(X) as X(<file>) for each, in file-name order,
// and the lists below are joined from it at compile time. Adding a table is adding its file; no line
// here or elsewhere in the CLI names a scheme.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "cli_scheme_files.hpp"
#include "scheme_command.hpp"

namespace posenc::cli {

// A list joined from the files' lists (at most Capacity entries; more stops the build).
template <class T, std::size_t Capacity>
struct joined_list {
  std::array<T, Capacity> items{};
  std::size_t size = 0;
  constexpr std::span<const T> view() const { return {items.data(), size}; }
};

template <class T, std::size_t Capacity>
constexpr joined_list<T, Capacity> join_lists(std::initializer_list<std::span<const T>> lists) {
  joined_list<T, Capacity> r;
  for (const auto& l : lists)
    for (const T& x : l) r.items[r.size++] = x;  // past Capacity: not a constant expression
  return r;
}

}  // namespace posenc::cli

namespace posenc::cli::emit {

#define POSENC_CLI_EMIT_COMMANDS_OF(file) std::span<const scheme_command>(file##_commands),
inline constexpr auto scheme_list =
    join_lists<scheme_command, 32>({POSENC_CLI_SCHEME_FILES(POSENC_CLI_EMIT_COMMANDS_OF)});
#undef POSENC_CLI_EMIT_COMMANDS_OF
inline constexpr std::span<const scheme_command> schemes = scheme_list.view();

inline const scheme_command* find_scheme(std::string_view name) {
  for (const auto& s : schemes)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

// The same tables, in the same order, as `posenc verify <scheme>` runs them.
#define POSENC_CLI_VERIFIERS_OF(file) std::span<const verify_scheme>(file##_verifiers),
inline constexpr auto scheme_list = join_lists<verify_scheme, 32>({POSENC_CLI_SCHEME_FILES(POSENC_CLI_VERIFIERS_OF)});
#undef POSENC_CLI_VERIFIERS_OF
inline constexpr std::span<const verify_scheme> schemes = scheme_list.view();

inline const verify_scheme* find(std::string_view name) {
  for (const auto& s : schemes)
    if (s.name == name) return &s;
  return nullptr;
}

inline std::string scheme_names() {
  std::string s;
  for (const auto& v : schemes) s += (s.empty() ? "" : ", ") + std::string(v.name);
  return s;
}

}  // namespace posenc::cli::verify_schemes
#endif
