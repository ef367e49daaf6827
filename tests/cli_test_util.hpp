// cli_test_util.hpp: what the command-line tests (test_cli_emit.cpp, test_cli_schemes.cpp) share:
// running `posenc emit`, splitting its output, reading a hex-float field exactly, the --dtype name
// of a type, and the FNV-1a checksum the C headers state. Test-only; needs POSENC_CLI_PATH, which
// tests/CMakeLists.txt defines for the CLI tests.
#pragma once

#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>

#include "cli_spawn.hpp"

#ifndef POSENC_CLI_PATH
#error "POSENC_CLI_PATH must name the posenc executable (tests/CMakeLists.txt defines it)"
#endif

namespace posenc_test {

using strings = std::vector<std::string>;

// `posenc emit args...`
inline cli_result emit(strings args) {
  args.insert(args.begin(), "emit");
  return run_cli(POSENC_CLI_PATH, args);
}

inline strings cat(strings a, const strings& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The flags of each table but RoPE's, transcribed from docs/cli.md (the output flags apart), for
// the help tests of emit and verify; real: a real-valued table (--dtype and --decimal apply).
struct table_flags {
  std::string table;
  strings own;
  bool real;
};

inline std::vector<table_flags> scheme_table_flags() {
  return {
      {"sinusoidal", {"dim", "positions", "start", "base", "exponent", "layout"}, true},
      {"transformer-xl", {"d-model", "klen", "qlen", "clamp-len", "model", "attn-type", "bi-data"}, true},
      {"alibi", {"heads", "max-bias", "bias", "positions", "symmetric", "hf-config"}, true},
      {"t5-bucket", {"num-buckets", "max-distance", "no-bidirectional", "causal", "range", "hf-config"}, false},
      {"deberta-bucket", {"position-buckets", "max-relative-positions", "bucket-size", "max-position", "range"}, false},
      {"shaw", {"max-relative-position", "positions"}, false},
      {"xpos", {"head-dim", "positions", "start", "scale-base", "inverse"}, true},
      {"kerple-log", {"p", "a", "distances"}, true},
      {"kerple-power", {"p", "a", "distances"}, true},
      {"sandwich", {"dim", "heads", "distances"}, true},
      {"logn", {"base", "at-least-one", "positions", "start"}, true},
      {"mrope",
       {"head-dim", "rope-theta", "partial-rotary-factor", "mrope-section", "mrope-layout", "position-ids",
        "hf-config"},
       true},
      {"rope-nd", {"axes-dim", "rope-theta", "position-ids", "hf-config", "two-pi", "grid"}, true},
      {"attn-temperature", {"floor-scale", "attn-scale", "positions", "start", "hf-config"}, true},
      {"leaky-rerope",
       {"head-dim", "rope-theta", "partial-rotary-factor", "window", "leak", "positions", "hf-config"},
       true},
  };
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t e = s.find(sep, pos);
    if (e == std::string::npos) {
      parts.push_back(s.substr(pos));
      return parts;
    }
    parts.push_back(s.substr(pos, e - pos));
    pos = e + 1;
  }
}

// The exact value of a T as a double, and the bits of a double (compared so that -0 != +0).
template <class T>
double exact(T v) {
  if constexpr (std::is_same_v<T, posenc::bfloat16> || std::is_same_v<T, posenc::float16>)
    return static_cast<double>(v.to_float());
  else
    return static_cast<double>(v);
}
inline std::uint64_t dbits(double x) { return std::bit_cast<std::uint64_t>(x); }

// A whole hex-float field: strtod must consume all of it (it reads a hex float exactly).
inline double parse_hex(const std::string& s) {
  REQUIRE(s.size() > 2);
  REQUIRE(s.find("0x") != std::string::npos);
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  REQUIRE(end == s.c_str() + s.size());
  return d;
}

// The --dtype name of T.
template <class T>
const char* dtype() {
  if constexpr (std::is_same_v<T, double>)
    return "f64";
  else if constexpr (std::is_same_v<T, float>)
    return "f32";
  else if constexpr (std::is_same_v<T, posenc::bfloat16>)
    return "bf16";
  else
    return "f16";
}

// FNV-1a 64 of bytes (the checksum a C header written by `posenc emit --format c` states).
inline std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037u;  // FNV-1a 64 offset basis
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211u;  // FNV 64 prime
  }
  return h;
}

// n with a comma every three digits ("4,194,304"), as a header states its arrays' bytes.
inline std::string thousands(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (std::size_t at = s.size(); at > 3; at -= 3) s.insert(at - 3, ",");
  return s;
}

}  // namespace posenc_test
