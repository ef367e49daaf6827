// catch2.hpp: check_rope_apply inside a Catch2 (v2) TEST_CASE: the test fails with the check's
// message (the property, where, the error and the bound in ulps, the shrunk counterexample and
// the RC_PARAMS line that replays it).
//
//   TEST_CASE("my kernel") {
//     posenc::testing::require_rope_apply<float>(my_kernel, cfg, {.model = {...}});
//   }
#pragma once

#include <catch2/catch.hpp>

#include <utility>

#include "posenc/testing/check_rope_apply.hpp"

namespace posenc::testing {

template <class T, rope_kernel<T> K>
check_result require_rope_apply(K&& kernel, const rope::config& cfg, const check_options& opt = {}) {
  check_result r = check_rope_apply<T>(std::forward<K>(kernel), cfg, opt);
  INFO(r.message);
  REQUIRE(r.passed);
  return r;
}

}  // namespace posenc::testing
