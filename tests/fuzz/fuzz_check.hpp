// fuzz_check.hpp: what every harness of tests/fuzz/ asserts about a reader's outcome, beyond "no
// crash". A broken property aborts with a message naming it, which libFuzzer (and the corpus replay
// test) reports as a finding with the input that caused it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace posenc_fuzz {

[[noreturn]] inline void broken(const char* property, const std::string& detail) {
  std::fprintf(stderr, "posenc fuzz: property broken: %s: %s\n", property, detail.c_str());
  std::abort();
}

// A reader's error is one line naming the problem: not empty, no line break (the CLI prints it as
// its one line on stderr).
inline void one_error_line(const std::string& error) {
  if (error.empty()) broken("one error line", "a failure with an empty message");
  if (error.find('\n') != std::string::npos || error.find('\r') != std::string::npos)
    broken("one error line", "a message of several lines: " + error);
}

inline void finite(double x, const char* what) {
  if (!std::isfinite(x)) broken("no NaN or infinity", std::string(what) + " = " + std::to_string(x));
}

// The input's bytes as the choices of a harness that builds its case from them (the table's shape,
// the findings of each block): each read takes the next bytes, and zeros once they run out, so every
// input is a valid case and libFuzzer's mutations move through the cases.
class byte_source {
 public:
  byte_source(const std::uint8_t* data, std::size_t size) noexcept : p_(data), n_(size) {}
  std::uint8_t byte() noexcept {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  std::uint64_t bits(int count) noexcept {  // count <= 64
    std::uint64_t v = 0;
    for (int i = 0; i < count; i += 8) v |= std::uint64_t{byte()} << i;
    return count == 64 ? v : v & ((std::uint64_t{1} << count) - 1);
  }
  std::uint64_t below(std::uint64_t n) noexcept {  // in [0, n), from as few bytes as n needs
    if (n <= 1) return 0;
    int width = 0;
    while (width < 64 && ((n - 1) >> width) != 0) width += 8;
    return bits(width) % n;
  }
  std::size_t left() const noexcept { return n_; }
  const std::uint8_t* rest() const noexcept { return p_; }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

}  // namespace posenc_fuzz
