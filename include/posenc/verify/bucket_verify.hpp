// bucket_verify.hpp: verify the integer tables (T5's and DeBERTa's relative buckets, Shaw's clipped
// indices), posenc's own or someone else's, against the published formulas evaluated independently
// (t5_oracle.hpp, deberta_oracle.hpp, shaw_oracle.hpp) and the registry's bucket laws (`posenc
// verify t5-bucket|deberta-bucket|shaw`; scheme_verify.hpp explains). Each table is
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

#include "posenc/deberta.hpp"
#include "posenc/shaw.hpp"
#include "posenc/t5.hpp"
#include "posenc/verify/deberta_oracle.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
#include "posenc/verify/shaw_oracle.hpp"
#include "posenc/verify/t5_oracle.hpp"

namespace posenc::verify {

namespace detail::sv {

// The report of a table of buckets of relative positions -range .. range (T5, DeBERTa): the given
// buckets against the formula's (want), and the registry's bucket laws on them. set_family puts
// the scheme's family and config into the laws' table description.
template <class SetFamily>
scheme_verify_report relative_bucket_report(const char* scheme, const std::string& description, std::int64_t range,
                                            std::span<const std::int32_t> given, const std::vector<std::int64_t>& want,
                                            std::chrono::steady_clock::time_point t0, SetFamily set_family) {
  const auto rows = static_cast<std::size_t>(2 * range + 1);
  scheme_verify_report rep;
  rep.scheme = scheme;
  rep.description = description;
  rep.integer_valued = true;
  rep.keys = {"relative position + range"};
  rep.shape = {rows};
  const std::int64_t first = -range;
  rep.integers = check_integers<std::int32_t>(given, want, [first](std::uint64_t i) {
    return "relative position " + std::to_string(first + static_cast<std::int64_t>(i));
  });
  registry::scheme_tables<double> t;  // the bucket laws read the integers only
  set_family(t.config);
  t.config.first = first;
  t.config.rows = rows;
  t.buckets.assign(given.begin(), given.end());
  run_laws<double>(
      t, table_dtype::f64, [](std::string_view) { return std::string(); }, rep.laws);
  rep.seconds = seconds_since(t0);
  return rep;
}

}  // namespace detail::sv

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
  return sv::relative_bucket_report("t5-bucket", q.description, q.range, given, want, t0, [&q](auto& c) {
    c.family = registry::scheme_family::t5;
    c.t5 = q.config;
  });
}

// ---- DeBERTa buckets ----------------------------------------------------------------------------

// The buckets of relative positions -range .. range (query - key, DeBERTa's sign), `posenc emit
// deberta-bucket`'s table.
struct deberta_verify_request {
  deberta::config config{};
  std::int64_t range = 0;
  std::string description{};
};

// Verifies the DeBERTa bucket table `given` (2 range + 1 integers), or posenc's own when own is true.
inline scheme_verify_report verify_deberta(const deberta_verify_request& q, std::span<const std::int32_t> given,
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
  std::vector<std::int64_t> want(rows);
  for (std::size_t i = 0; i < rows; ++i)
    want[i] = deberta_oracle_bucket(q.config, -q.range + static_cast<std::int64_t>(i));
  return sv::relative_bucket_report("deberta-bucket", q.description, q.range, given, want, t0, [&q](auto& c) {
    c.family = registry::scheme_family::deberta;
    c.deberta = q.config;
  });
}

// ---- Shaw ---------------------------------------------------------------------------------------

// The indices of queries i < positions and keys j < positions, entry i positions + j, `posenc emit
// shaw`'s table.
struct shaw_verify_request {
  shaw::config config{};
  std::size_t positions = 0;
  std::string description{};
};

// Verifies the Shaw index table `given` (positions^2 integers), or posenc's own when own is true.
// The bucket laws read one index per relative position r = key - query: row 0 for r >= 0, column 0
// for r < 0 (the other entries repeat them, which the comparison with the formula covers).
inline scheme_verify_report verify_shaw(const shaw_verify_request& q, std::span<const std::int32_t> given,
                                        bool own = true) {
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
  std::vector<std::int64_t> want(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      want[i * n + j] = shaw_oracle_index(k, static_cast<std::int64_t>(i), static_cast<std::int64_t>(j));
  scheme_verify_report rep;
  rep.scheme = "shaw";
  rep.description = q.description;
  rep.integer_valued = true;
  rep.keys = {"query", "key"};
  rep.shape = {n, n};
  rep.integers = sv::check_integers<std::int32_t>(given, want, [n](std::uint64_t i) {
    return "query " + std::to_string(i / n) + ", key " + std::to_string(i % n);
  });
  registry::scheme_tables<double> t;
  t.config.family = registry::scheme_family::shaw;
  t.config.shaw = q.config;
  t.config.first = -static_cast<std::int64_t>(n - 1);
  t.config.rows = 2 * n - 1;
  for (std::size_t m = n - 1; m > 0; --m) t.buckets.push_back(given[m * n]);  // r = -m: query m, key 0
  for (std::size_t j = 0; j < n; ++j) t.buckets.push_back(given[j]);          // r = j: query 0, key j
  sv::run_laws<double>(
      t, table_dtype::f64, [](std::string_view) { return std::string(); }, rep.laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
