// bucket_verify.hpp: verify the integer tables (T5's relative buckets, ...), posenc's own or
// someone else's, against the published formulas evaluated independently (t5_oracle.hpp, ...) and
// the registry's bucket laws (`posenc verify t5-bucket`; scheme_verify.hpp explains). Each table is
// laid out as `posenc emit <scheme> --format bin` writes it. A request that cannot be carried out
// throws std::invalid_argument with one line naming it. Not constexpr; links MPFR.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/t5.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
#include "posenc/verify/t5_oracle.hpp"

namespace posenc::verify {

// ---- T5 buckets ---------------------------------------------------------------------------------

// The buckets of relative positions -range .. range (key - query), `posenc emit t5-bucket`'s table.
struct t5_verify_request {
  t5::config config{};
  std::int64_t range = 0;
  std::string description{};
};

// Verifies the T5 bucket table `given` (2 range + 1 integers), or posenc's own when given is empty
// and own is true.
inline scheme_verify_report verify_t5(const t5_verify_request& q, std::span<const std::int32_t> given,
                                      bool own = true) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  const t5::checked_config cc{q.config};
  if (const posenc::validation v = cc.check(); !v.ok())
    throw std::invalid_argument(std::string("invalid T5 config: ") + v.message);
  if (q.range < 0 || q.range > (std::int64_t{1} << 40))
    throw std::invalid_argument("the range must be in [0, 2^40], got " + std::to_string(q.range));
  const auto rows = static_cast<std::size_t>(2 * q.range + 1);
  std::vector<std::int32_t> mine;
  if (own) {
    std::vector<int> b(rows);
    if (t5::fill_buckets(cc, -q.range, std::span<int>(b)) != posenc::status::ok)
      throw std::invalid_argument("posenc cannot build the T5 buckets of this config");
    mine.assign(b.begin(), b.end());
    given = mine;
  } else if (given.size() != rows) {
    throw std::invalid_argument("the table has " + std::to_string(given.size()) + " buckets; relative positions -" +
                                std::to_string(q.range) + " .. " + std::to_string(q.range) + " are " +
                                std::to_string(rows));
  }
  std::vector<std::int64_t> want(rows);
  for (std::size_t i = 0; i < rows; ++i) want[i] = t5_oracle_bucket(q.config, -q.range + static_cast<std::int64_t>(i));

  scheme_verify_report rep;
  rep.scheme = "t5-bucket";
  rep.description = q.description;
  rep.integer_valued = true;
  rep.keys = {"relative position + range"};
  rep.shape = {rows};
  const std::int64_t first = -q.range;
  rep.integers = sv::check_integers<std::int32_t>(given, want, [first](std::uint64_t i) {
    return "relative position " + std::to_string(first + static_cast<std::int64_t>(i));
  });
  registry::scheme_tables<double> t;  // the bucket laws read the integers only
  t.config.family = registry::scheme_family::t5;
  t.config.t5 = q.config;
  t.config.first = first;
  t.config.rows = rows;
  t.buckets.assign(given.begin(), given.end());
  sv::run_laws<double>(
      t, table_dtype::f64, [](std::string_view) { return std::string(); }, rep.laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
