// bias_verify.hpp: verify the attention-bias tables by distance (KERPLE-log and -power, Sandwich)
// and the log-n factors, posenc's own or someone else's, against the MPFR oracles (kerple_oracle.hpp,
// sandwich_oracle.hpp, log_ratio_oracle.hpp) (`posenc verify kerple-log|kerple-power|sandwich|logn`;
// scheme_verify.hpp explains; ALiBi is alibi_verify.hpp). No law of the registry reads these tables.
//
//   posenc::verify::kerple_verify_request q{.p = {1.5}, .a = {0.5}, .distances = 512};
//   const posenc::verify::values_input own[] = {posenc::verify::own_values(table_dtype::f32)};
//   const auto report = posenc::verify::verify_kerple(q, own);            // scheme_verify_report.hpp
//
// Each table is laid out as `posenc emit <scheme> --format bin` writes it. A request that cannot be
// carried out throws std::invalid_argument with one line naming it. Not constexpr; links MPFR.
#pragma once

#include <mpfr.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "posenc/kerple.hpp"
#include "posenc/logn.hpp"
#include "posenc/sandwich.hpp"
#include "posenc/verify/kerple_oracle.hpp"
#include "posenc/verify/log_ratio_oracle.hpp"
#include "posenc/verify/sandwich_oracle.hpp"
#include "posenc/verify/scheme_verify_core.hpp"

namespace posenc::verify {

// ---- KERPLE (log and power) -------------------------------------------------------------------

// Heads x distances 0 .. distances - 1, entry h * distances + k: -p_h log(1 + a_h k) (log) or
// -a_h k^p_h (power), `posenc emit kerple-log|kerple-power`'s table.
struct kerple_verify_request {
  bool log = true;           // KERPLE-log, else KERPLE-power
  std::vector<double> p, a;  // one of each per head
  std::size_t distances = 0;
  std::uint64_t max_ulp = 0;
  std::string description{};
};

inline scheme_verify_report verify_kerple(const kerple_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (q.p.empty() || q.p.size() != q.a.size())
    throw std::invalid_argument("KERPLE needs one p and one a per head, got " + std::to_string(q.p.size()) + " and " +
                                std::to_string(q.a.size()));
  if (q.distances == 0) throw std::invalid_argument("the table has no distances");
  const std::size_t heads = q.p.size(), n = q.distances;
  for (std::size_t h = 0; h < heads; ++h) {
    const posenc::validation v = q.log ? kerple::validate(kerple::log_config{.p = q.p[h], .a = q.a[h]})
                                       : kerple::validate(kerple::power_config{.a = q.a[h], .p = q.p[h]});
    if (!v.ok()) throw std::invalid_argument("invalid KERPLE head " + std::to_string(h) + ": " + v.message);
  }
  bool wanted[4] = {false, false, false, false};
  sv::wanted_of(tables, wanted);
  std::vector<sv::exact_entry> exact(heads * n);
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t k = 0; k < n; ++k) {
      if (q.log) {
        auto v = kerple_log_value(q.p[h], q.a[h], k);
        exact[h * n + k] = sv::exact_of(v, wanted);
      } else {
        auto v = kerple_power_value(q.a[h], q.p[h], k);
        exact[h * n + k] = sv::exact_of(v, wanted);
      }
    }
  scheme_verify_report rep;
  rep.scheme = q.log ? "kerple-log" : "kerple-power";
  rep.description = q.description;
  rep.max_ulp_allowed = q.max_ulp;
  rep.keys = {"head", "distance"};
  rep.shape = {heads, n};
  const auto locate = [n](std::uint64_t i) {
    return "head " + std::to_string(i / n) + ", distance " + std::to_string(i % n);
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(heads * n);
    for (std::size_t h = 0; h < heads; ++h) {
      const std::span<T> row(out.data() + h * n, n);
      sv::check_own(q.log ? kerple::fill_log_bias<T>(kerple::log_config{.p = q.p[h], .a = q.a[h]}, row)
                          : kerple::fill_power_bias<T>(kerple::power_config{.a = q.a[h], .p = q.p[h]}, row),
                    dtype_of<T>(), "KERPLE biases of head " + std::to_string(h));
    }
    return out;
  };
  sv::verify_real_tables(
      rep, tables, heads * n, "a table of " + std::to_string(heads) + " heads x " + std::to_string(n) + " distances",
      [&exact](std::size_t i) -> const sv::exact_entry& { return exact[i]; }, locate, q.max_ulp, own, sv::no_laws{});
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

// ---- Sandwich ---------------------------------------------------------------------------------

// Heads x distances 0 .. distances - 1, entry h * distances + k, `posenc emit sandwich`'s table.
struct sandwich_verify_request {
  sandwich::config config{};
  std::size_t distances = 0;
  std::uint64_t max_ulp = 0;
  std::string description{};
};

inline scheme_verify_report verify_sandwich(const sandwich_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (const posenc::validation v = sandwich::validate(q.config); !v.ok())
    throw std::invalid_argument(std::string("invalid Sandwich config: ") + v.message);
  if (q.distances == 0) throw std::invalid_argument("the table has no distances");
  const auto heads = static_cast<std::size_t>(q.config.heads);
  const std::size_t n = q.distances;
  bool wanted[4] = {false, false, false, false};
  sv::wanted_of(tables, wanted);
  std::vector<sv::exact_entry> exact(heads * n);
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t k = 0; k < n; ++k) {
      auto v = sandwich_value(q.config.dim, q.config.heads, static_cast<int>(h), static_cast<std::int64_t>(k));
      exact[h * n + k] = k == 0 ? sv::exact_zero() : sv::exact_of(v, wanted);
    }
  scheme_verify_report rep;
  rep.scheme = "sandwich";
  rep.description = q.description;
  rep.max_ulp_allowed = q.max_ulp;
  rep.keys = {"head", "distance"};
  rep.shape = {heads, n};
  const auto locate = [n](std::uint64_t i) {
    return "head " + std::to_string(i / n) + ", distance " + std::to_string(i % n);
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    const sandwich::checked_config cc{q.config};
    std::vector<T> out(heads * n);
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t k = 0; k < n; ++k) {
        const posenc::result<T> b = sandwich::bias<T>(cc, static_cast<int>(h), static_cast<std::int64_t>(k));
        sv::check_own(b.error, dtype_of<T>(), "Sandwich bias");
        out[h * n + k] = b.value;
      }
    return out;
  };
  sv::verify_real_tables(
      rep, tables, heads * n, "a table of " + std::to_string(heads) + " heads x " + std::to_string(n) + " distances",
      [&exact](std::size_t i) -> const sv::exact_entry& { return exact[i]; }, locate, q.max_ulp, own, sv::no_laws{});
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

// ---- log-n factors ----------------------------------------------------------------------------

// The factors of n = start .. start + positions - 1, `posenc emit logn`'s table.
struct logn_verify_request {
  logn::config config{};
  std::int64_t start = 1;
  std::size_t positions = 0;
  std::uint64_t max_ulp = 0;
  std::string description{};
};

inline scheme_verify_report verify_logn(const logn_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (const posenc::validation v = logn::validate(q.config); !v.ok())
    throw std::invalid_argument(std::string("invalid log-n config: ") + v.message);
  if (q.positions == 0) throw std::invalid_argument("the table has no positions");
  if (q.start < 1 || q.start + static_cast<std::int64_t>(q.positions) - 1 >= (std::int64_t{1} << 53))
    throw std::invalid_argument("n must be in [1, 2^53)");
  bool wanted[4] = {false, false, false, false};
  sv::wanted_of(tables, wanted);
  std::vector<sv::exact_entry> exact(q.positions);
  for (std::size_t i = 0; i < q.positions; ++i) {
    const std::int64_t n = q.start + static_cast<std::int64_t>(i);
    // Qwen's logn_list: log_L(i) for i > L, else 1; log_L(L) = 1 exactly, so n = base serves as 1.
    auto v = log_ratio_value(q.config.at_least_one && n <= q.config.base ? q.config.base : n, q.config.base);
    exact[i] = sv::exact_of(v, wanted);
  }
  scheme_verify_report rep;
  rep.scheme = "logn";
  rep.description = q.description;
  rep.max_ulp_allowed = q.max_ulp;
  rep.keys = {"n - start"};
  rep.shape = {q.positions};
  const std::int64_t first = q.start;
  const auto locate = [first](std::uint64_t i) {
    return "n = " + std::to_string(first + static_cast<std::int64_t>(i));
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(q.positions);
    sv::check_own(logn::fill_factors<T>(q.config, q.start, std::span<T>(out)), dtype_of<T>(), "log-n factors");
    return out;
  };
  sv::verify_real_tables(
      rep, tables, q.positions, "a table of " + std::to_string(q.positions) + " factors",
      [&exact](std::size_t i) -> const sv::exact_entry& { return exact[i]; }, locate, q.max_ulp, own, sv::no_laws{});
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
