// logn_verify.hpp: verify the log-n factors (Su's log_base n, Qwen's logn), posenc's own or someone
// else's, against the MPFR oracle (log_ratio_oracle.hpp) (`posenc verify logn`; scheme_verify.hpp
// explains). No law of the registry reads them.
//
// Each table is laid out as `posenc emit <scheme> --format bin` writes it; a request that cannot be
// carried out throws std::invalid_argument with one line naming it. Not constexpr; links MPFR.
#pragma once

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

#include "posenc/logn.hpp"
#include "posenc/verify/log_ratio_oracle.hpp"
#include "posenc/verify/scheme_verify_core.hpp"

namespace posenc::verify {

// ---- log-n factors ----------------------------------------------------------------------------

// The factors of n = start .. start + positions - 1, `posenc emit logn`'s table.
struct logn_verify_request {
  logn::config config{};
  std::int64_t start = 1;
  std::size_t positions = 0;
  std::uint64_t max_ulp = 0;
  std::string description{};
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

inline verify_report verify_logn(const logn_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (const posenc::validation v = logn::validate(q.config); !v.ok())
    throw std::invalid_argument(std::string("invalid log-n config: ") + v.message);
  if (q.positions == 0) throw std::invalid_argument("the table has no positions");
  if (q.start < 1 || q.start + static_cast<std::int64_t>(q.positions) - 1 >= (std::int64_t{1} << 53))
    throw std::invalid_argument("n must be in [1, 2^53)");
  verify_report rep = sv::indexed_report("logn", q.description, {"n - start"}, {q.positions}, q.positions, q.max_ulp);
  const auto exact_block = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                               std::vector<sv::exact_entry>& out) {
    for (std::uint64_t i = first; i < first + count; ++i) {
      const std::int64_t n = q.start + static_cast<std::int64_t>(i);
      // Qwen's logn_list: log_L(i) for i > L, else 1; log_L(L) = 1 exactly, so n = base serves as 1.
      auto v = log_ratio_value(q.config.at_least_one && n <= q.config.base ? q.config.base : n, q.config.base);
      out.push_back(sv::exact_of(v, wanted));
    }
  };
  const std::int64_t first_n = q.start;
  const auto locate = [first_n](std::uint64_t i) {
    return "n = " + std::to_string(first_n + static_cast<std::int64_t>(i));
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(q.positions);
    sv::check_own(logn::fill_factors<T>(q.config, q.start, std::span<T>(out)), dtype_of<T>(), "log-n factors");
    return out;
  };
  sv::verify_real_tables(rep, tables, q.run, "a table of " + std::to_string(q.positions) + " factors", exact_block,
                         locate, own, sv::no_laws{});
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
