// kerple_verify.hpp: verify KERPLE's bias tables by distance (log and power kernels), posenc's own or
// someone else's, against the MPFR oracle (kerple_oracle.hpp) (`posenc verify kerple-log|kerple-power`;
// scheme_verify.hpp explains). No law of the registry reads them.
//
//   posenc::verify::kerple_verify_request q{.p = {1.5}, .a = {0.5}, .distances = 512};
//   const posenc::verify::values_input own[] = {posenc::verify::own_values(table_dtype::f32)};
//   const auto report = posenc::verify::verify_kerple(q, own);            // report.hpp
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

#include "posenc/kerple.hpp"
#include "posenc/verify/kerple_oracle.hpp"
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
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

inline verify_report verify_kerple(const kerple_verify_request& q, std::span<const values_input> tables) {
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
  verify_report rep = sv::indexed_report(q.log ? "kerple-log" : "kerple-power", q.description, {"head", "distance"},
                                         {heads, n}, heads * n, q.max_ulp);
  const auto exact_block = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                               std::vector<sv::exact_entry>& out) {
    for (std::uint64_t i = first; i < first + count; ++i) {
      const std::size_t h = i / n, k = i % n;
      if (q.log) {
        auto v = kerple_log_value(q.p[h], q.a[h], k);
        out.push_back(sv::exact_of(v, wanted));
      } else {
        auto v = kerple_power_value(q.a[h], q.p[h], k);
        out.push_back(sv::exact_of(v, wanted));
      }
    }
  };
  const auto locate = sv::head_and_distance(n);
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
  sv::verify_real_tables(rep, tables, q.run,
                         "a table of " + std::to_string(heads) + " heads x " + std::to_string(n) + " distances",
                         exact_block, locate, own, sv::no_laws{});
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
