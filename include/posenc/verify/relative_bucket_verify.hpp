// relative_bucket_verify.hpp: the report of a table of buckets of relative positions -range ..
// range, for the engines of the schemes whose tables are one (t5_verify.hpp, deberta_verify.hpp):
// each bucket against the published formula's integer, and the descriptor's bucket laws. Not
// constexpr; links MPFR.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/verify/scheme_verify_core.hpp"

namespace posenc::verify {

namespace detail::sv {

// The report of a table of buckets of relative positions -range .. range (T5, DeBERTa: descriptor
// D, config c): the given buckets against the formula's, want(r) for relative position r, and D's
// laws on them.
template <class D, class Want>
verify_report relative_bucket_report(const std::string& description, std::int64_t range,
                                     std::span<const std::int32_t> given, const typename D::config_type& c,
                                     const run_options& run, Want want, std::chrono::steady_clock::time_point t0) {
  const auto rows = static_cast<std::size_t>(2 * range + 1);
  verify_report rep =
      indexed_report(std::string(D::name), description, {"relative position + range"}, {rows}, rows, 0, true);
  const std::int64_t first = -range;
  const auto exact = [&](std::uint64_t i0, std::size_t n, std::vector<std::int64_t>& out) {
    for (std::uint64_t i = i0; i < i0 + n; ++i) out.push_back(want(first + static_cast<std::int64_t>(i)));
  };
  const auto laws = [&](std::string_view skip, std::vector<law_findings>& out) {
    typename D::template tables<double> t;  // the bucket laws read the integers only
    t.config = c;
    t.first = first;
    if (skip.empty()) t.buckets.assign(given.begin(), given.end());
    run_laws<D>(
        t, table_dtype::f64, skip, [](std::string_view) { return std::string(); }, out);
  };
  verify_integer_table(
      rep, given, run, exact,
      [first](std::uint64_t i) { return "relative position " + std::to_string(first + static_cast<std::int64_t>(i)); },
      laws);
  rep.seconds = seconds_since(t0);
  return rep;
}

}  // namespace detail::sv

}  // namespace posenc::verify
