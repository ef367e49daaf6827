// rc_property.hpp: a RapidCheck property run inside a Catch2 test case, for the property tests of
// the tables (test_rope_stream_properties, test_rope_remap_properties): samples(cases) cases from
// this build's seed stream (sample_count.hpp), no output while it runs, and the shrunk failure's
// description with the line that replays it in the same build (RC_PARAMS="seed=N": the seed
// before the stream's offset), or "" when every case passed.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "posenc/testing/detail/rope_search.hpp"
#include "sample_count.hpp"

namespace posenc_test {

template <class Property>
std::string run_property(const char* id, int cases, const Property& property) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  const std::uint64_t given = params.seed;  // RC_PARAMS's, or RapidCheck's random one
  params.maxSuccess = samples(cases);
  params.seed = stream_seed(given);
  rc::detail::TestMetadata meta;
  meta.id = id;
  meta.description = id;
  posenc::testing::detail::quiet_listener listener;
  const rc::detail::TestResult r =
      rc::detail::checkTestable(property, meta, params, listener, rc::detail::configuration().reproduce);
  if (!r.template is<rc::detail::FailureResult>()) return "";
  std::ostringstream o;
  o << r.template get<rc::detail::FailureResult>().description << "\nreplay in this build: RC_PARAMS=\"seed=" << given
    << "\"";
  return o.str();
}

}  // namespace posenc_test
