// deberta_verify.hpp: verify DeBERTa's log bucket table, posenc's own or someone else's, against the
// published formula evaluated independently (deberta_oracle.hpp) and the registry's bucket laws
// (`posenc verify deberta-bucket`; scheme_verify.hpp explains).
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

#include "posenc/deberta.hpp"
#include "posenc/verify/deberta_oracle.hpp"
#include "posenc/verify/registry/deberta.hpp"
#include "posenc/verify/relative_bucket_verify.hpp"
#include "posenc/verify/scheme_verify_core.hpp"

namespace posenc::verify {

// ---- DeBERTa buckets ----------------------------------------------------------------------------

// The buckets of relative positions -range .. range (query - key, DeBERTa's sign), `posenc emit
// deberta-bucket`'s table.
struct deberta_verify_request {
  deberta::config config{};
  std::int64_t range = 0;
  std::string description{};
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

// Verifies the DeBERTa bucket table `given` (2 range + 1 integers), or posenc's own when own is true.
inline verify_report verify_deberta(const deberta_verify_request& q, std::span<const std::int32_t> given,
                                    bool own = true) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  const deberta::checked_config cc{q.config};
  if (const posenc::validation v = cc.check(); !v.ok())
    throw std::invalid_argument(std::string("invalid DeBERTa config: ") + v.message);
  if (q.range < 0 || q.range > (std::int64_t{1} << 40))
    throw std::invalid_argument("the range must be in [0, 2^40], got " + std::to_string(q.range));
  const auto rows = static_cast<std::size_t>(2 * q.range + 1);
  std::vector<std::int32_t> mine;
  if (own) {
    std::vector<std::int64_t> b(rows);
    if (deberta::fill_buckets(cc, -q.range, std::span<std::int64_t>(b)) != posenc::status::ok)
      throw std::invalid_argument("posenc cannot build the DeBERTa buckets of this config");
    for (const std::int64_t x : b) mine.push_back(static_cast<std::int32_t>(x));  // |bucket| <= |r| <= 2^40
    given = mine;
  } else if (given.size() != rows) {
    throw std::invalid_argument("the table has " + std::to_string(given.size()) + " buckets; relative positions -" +
                                std::to_string(q.range) + " .. " + std::to_string(q.range) + " are " +
                                std::to_string(rows));
  }
  const auto want = [&q](std::int64_t r) { return deberta_oracle_bucket(q.config, r); };
  return sv::relative_bucket_report<registry::deberta_scheme>(q.description, q.range, given, q.config, q.run, want, t0);
}

}  // namespace posenc::verify
