// warning.hpp: the CLI's warnings, one line each on stderr ("posenc: warning: ..."), for input that
// is valid but likely not what the user meant. Output and exit status are unchanged by a warning.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace posenc::cli {

inline void warn(std::string_view message) {
  std::fputs("posenc: warning: ", stderr);
  for (const char ch : message) std::fputc((ch == '\n' || ch == '\r') ? ' ' : ch, stderr);
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

// A fact about the output worth knowing but expected ("posenc: note: ..."), e.g. the saturations
// of a q15/q31 table. Output and exit status are unchanged.
inline void note(std::string_view message) {
  std::fputs("posenc: note: ", stderr);
  for (const char ch : message) std::fputc((ch == '\n' || ch == '\r') ? ' ' : ch, stderr);
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

// A table past the model's max_position_embeddings: the model never saw those positions (a scaling
// may still extend it). Said once per command; nothing when the config does not say its maximum.
inline void warn_past_max_position(std::int64_t max_position_embeddings, std::uint64_t last_position,
                                   std::string_view context) {
  if (max_position_embeddings <= 0 || last_position < static_cast<std::uint64_t>(max_position_embeddings)) return;
  warn(std::string(context) + ": position " + std::to_string(last_position) + " is past max_position_embeddings " +
       std::to_string(max_position_embeddings) + " (positions 0 .. " + std::to_string(max_position_embeddings - 1) +
       ")");
}

}  // namespace posenc::cli
