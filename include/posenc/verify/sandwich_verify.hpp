// sandwich_verify.hpp: verify Sandwich's bias table by distance, posenc's own or someone else's,
// against the MPFR oracle (sandwich_oracle.hpp) (`posenc verify sandwich`; scheme_verify.hpp
// explains). No law of the registry reads it.
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

#include "posenc/sandwich.hpp"
#include "posenc/verify/sandwich_oracle.hpp"
#include "posenc/verify/scheme_verify_core.hpp"

namespace posenc::verify {

// ---- Sandwich ---------------------------------------------------------------------------------

// Heads x distances 0 .. distances - 1, entry h * distances + k, `posenc emit sandwich`'s table.
struct sandwich_verify_request {
  sandwich::config config{};
  std::size_t distances = 0;
  std::uint64_t max_ulp = 0;
  std::string description{};
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

inline verify_report verify_sandwich(const sandwich_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (const posenc::validation v = sandwich::validate(q.config); !v.ok())
    throw std::invalid_argument(std::string("invalid Sandwich config: ") + v.message);
  if (q.distances == 0) throw std::invalid_argument("the table has no distances");
  const auto heads = static_cast<std::size_t>(q.config.heads);
  const std::size_t n = q.distances;
  verify_report rep =
      sv::indexed_report("sandwich", q.description, {"head", "distance"}, {heads, n}, heads * n, q.max_ulp);
  const auto exact_block = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                               std::vector<sv::exact_entry>& out) {
    for (std::uint64_t i = first; i < first + count; ++i) {
      const std::size_t h = i / n, k = i % n;
      if (k == 0) {
        out.push_back(sv::exact_zero());
        continue;
      }
      auto v = sandwich_value(q.config.dim, q.config.heads, static_cast<int>(h), static_cast<std::int64_t>(k));
      out.push_back(sv::exact_of(v, wanted));
    }
  };
  const auto locate = sv::head_and_distance(n);
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
  sv::verify_real_tables(rep, tables, q.run,
                         "a table of " + std::to_string(heads) + " heads x " + std::to_string(n) + " distances",
                         exact_block, locate, own, sv::no_laws{});
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
