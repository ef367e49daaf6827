// t5_verify.hpp: verify T5's relative bucket table, posenc's own or someone else's, against the
// published formula evaluated independently (t5_oracle.hpp) and the registry's bucket laws
// (`posenc verify t5-bucket`; scheme_verify.hpp explains).
//
// Each table is laid out as `posenc emit <scheme> --format bin` writes it; a request that cannot be
// carried out throws std::invalid_argument with one line naming it. Not constexpr; links MPFR.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "posenc/t5.hpp"
#include "posenc/verify/registry/t5.hpp"
#include "posenc/verify/relative_bucket_verify.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
#include "posenc/verify/t5_oracle.hpp"

namespace posenc::verify {

// ---- T5 buckets ---------------------------------------------------------------------------------

// The buckets of relative positions -range .. range (key - query), `posenc emit t5-bucket`'s table.
struct t5_verify_request {
  t5::config config{};
  std::int64_t range = 0;
  std::string description{};
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

// Verifies the T5 bucket table `given` (2 range + 1 integers), or posenc's own when given is empty
// and own is true.
inline verify_report verify_t5(const t5_verify_request& q, std::span<const std::int32_t> given, bool own = true) {
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
  const auto want = [&q](std::int64_t r) { return t5_oracle_bucket(q.config, r); };
  return sv::relative_bucket_report<registry::t5_scheme>(q.description, q.range, given, q.config, q.run, want, t0);
}

}  // namespace posenc::verify
