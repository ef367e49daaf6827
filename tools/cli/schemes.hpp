// schemes.hpp: the list of the tables `posenc emit` and `posenc verify` know besides RoPE's, each
// defined in its own file (schemes/<scheme>.hpp: flags, config reader, emit, verify). The commands
// iterate these lists; nothing else in the CLI names a scheme. Adding a table: its file, one
// include and one entry in each list here.
#pragma once

#include <string>
#include <string_view>

#include "scheme_command.hpp"
#include "schemes/alibi.hpp"
#include "schemes/deberta.hpp"
#include "schemes/kerple.hpp"
#include "schemes/logn.hpp"
#include "schemes/sandwich.hpp"
#include "schemes/shaw.hpp"
#include "schemes/sinusoidal.hpp"
#include "schemes/t5.hpp"
#include "schemes/transformer_xl.hpp"
#include "schemes/xpos.hpp"

namespace posenc::cli::emit {

inline constexpr scheme_command schemes[] = {
    sinusoidal_command,     transformer_xl_command, alibi_command, t5_bucket_command,
    deberta_bucket_command, shaw_command,           xpos_command,  kerple_log_command,
    kerple_power_command,   sandwich_command,       logn_command,
};

inline const scheme_command* find_scheme(std::string_view name) {
  for (const auto& s : schemes)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

// The same tables, in the same order, as `posenc verify <scheme>` runs them.
inline constexpr verify_scheme schemes[] = {
    sinusoidal_verify, transformer_xl_verify, alibi_verify,        t5_bucket_verify, deberta_bucket_verify, shaw_verify,
    xpos_verify,       kerple_log_verify,     kerple_power_verify, sandwich_verify,  logn_verify,
};

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
