// check_result.hpp: what check_rope_apply and check_rope_layouts take besides the kernels and the
// config (check_options), and what they return (check_result).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "posenc/rope/layout.hpp"
#include "posenc/testing/rope_kernel_bound.hpp"

namespace posenc::testing {

struct check_options {
  kernel_model model{};  // unset data: the kernel's element type
  rope::layout layout = rope::layout::half_split;
  std::vector<std::int64_t> positions{};  // nonempty: every position is drawn from this list
  std::int64_t position_limit = 0;        // 0: max_position_embeddings, or 2^21 when unset
  int max_success = 0;                    // cases to pass; 0: RapidCheck's (RC_PARAMS max_success, 100)
  std::optional<std::uint64_t> seed{};    // unset: RapidCheck's (RC_PARAMS seed, else a random one)
  std::string name = "posenc::testing::check_rope_apply";  // RapidCheck's test id (reproduce= keys on it)
};

struct check_result {
  bool passed = false;
  int cases = 0;           // cases passed (before the failure, if any)
  double worst_ratio = 0;  // max |error| / bound of the last property over every passing case
  std::string property;    // the failing property's name (rope_property.hpp), empty when passed
  std::string message;     // the shrunk failure and how to replay it
  std::uint64_t seed = 0;  // the seed RapidCheck ran with
};

}  // namespace posenc::testing
