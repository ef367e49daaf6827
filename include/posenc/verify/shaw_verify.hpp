// shaw_verify.hpp: verify Shaw et al.'s clipped relative index table, posenc's own or someone else's,
// against the published formula evaluated independently (shaw_oracle.hpp) and the registry's bucket
// laws (`posenc verify shaw`; scheme_verify.hpp explains).
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
#include <string_view>
#include <vector>

#include "posenc/shaw.hpp"
#include "posenc/verify/registry/shaw.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
#include "posenc/verify/shaw_oracle.hpp"

namespace posenc::verify {

// ---- Shaw ---------------------------------------------------------------------------------------

// The indices of queries i < positions and keys j < positions, entry i positions + j, `posenc emit
// shaw`'s table.
struct shaw_verify_request {
  shaw::config config{};
  std::size_t positions = 0;
  std::string description{};
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

// Verifies the Shaw index table `given` (positions^2 integers), or posenc's own when own is true.
// The bucket laws read one index per relative position r = key - query: row 0 for r >= 0, column 0
// for r < 0 (the other entries repeat them, which the comparison with the formula covers).
inline verify_report verify_shaw(const shaw_verify_request& q, std::span<const std::int32_t> given, bool own = true) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  if (const posenc::validation v = shaw::validate(q.config); !v.ok())
    throw std::invalid_argument(std::string("invalid Shaw config: ") + v.message);
  const std::size_t n = q.positions;
  if (n == 0) throw std::invalid_argument("the table has no positions");
  std::vector<std::int32_t> mine;
  if (own) {
    std::vector<int> b(n * n);
    if (shaw::fill_index_table(q.config, 0, n, 0, std::span<int>(b)) != posenc::status::ok)
      throw std::invalid_argument("posenc cannot build the Shaw indices of this config");
    mine.assign(b.begin(), b.end());
    given = mine;
  } else if (given.size() != n * n) {
    throw std::invalid_argument("the table has " + std::to_string(given.size()) + " indices; " + std::to_string(n) +
                                " queries x " + std::to_string(n) + " keys are " + std::to_string(n * n));
  }
  const std::int64_t k = q.config.max_relative_position;
  verify_report rep = sv::indexed_report("shaw", q.description, {"query", "key"}, {n, n}, n * n, 0, true);
  const auto want = [n, k](std::uint64_t i0, std::size_t count, std::vector<std::int64_t>& out) {
    for (std::uint64_t i = i0; i < i0 + count; ++i)
      out.push_back(shaw_oracle_index(k, static_cast<std::int64_t>(i / n), static_cast<std::int64_t>(i % n)));
  };
  const auto laws = [&](std::string_view skip, std::vector<law_findings>& out) {
    registry::shaw_scheme::tables<double> t;
    t.config = q.config;
    t.first = -static_cast<std::int64_t>(n - 1);
    if (skip.empty()) {
      for (std::size_t m = n - 1; m > 0; --m) t.buckets.push_back(given[m * n]);  // r = -m: query m, key 0
      for (std::size_t j = 0; j < n; ++j) t.buckets.push_back(given[j]);          // r = j: query 0, key j
    }
    sv::run_laws<registry::shaw_scheme>(
        t, table_dtype::f64, skip, [](std::string_view) { return std::string(); }, out);
  };
  sv::verify_integer_table(
      rep, given, q.run, want,
      [n](std::uint64_t i) { return "query " + std::to_string(i / n) + ", key " + std::to_string(i % n); }, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
