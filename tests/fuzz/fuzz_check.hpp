// fuzz_check.hpp: what every harness of tests/fuzz/ asserts about a reader's outcome, beyond "no
// crash". A broken property aborts with a message naming it, which libFuzzer (and the corpus replay
// test) reports as a finding with the input that caused it.
#pragma once

#include <cmath>
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

}  // namespace posenc_fuzz
