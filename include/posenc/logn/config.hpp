// config.hpp: log-n attention scaling as a plain aggregate: the log base (Su's 512, kexue.fm 8823;
// Qwen-1's training length config.seq_length) and whether factors below 1 are raised to 1 (Qwen).
//
//   constexpr posenc::logn::config su{};                                  // log_512(n)
//   constexpr posenc::logn::config qwen{.base = 2048, .at_least_one = true};
#pragma once

#include <cstdint>

namespace posenc::logn {

struct config {
  std::int64_t base = 512;    // Su's 512; Qwen's seq_length
  bool at_least_one = false;  // Qwen: the factor is 1 for n <= base
};

}  // namespace posenc::logn
