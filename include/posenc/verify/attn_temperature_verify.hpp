// attn_temperature_verify.hpp: verify Llama-4's attention temperature (attn_temperature/scale.hpp),
// posenc's own or someone else's, against the MPFR oracle (attn_temperature_oracle.hpp) and the
// registry's three laws (`posenc verify attn-temperature`; scheme_verify.hpp explains).
//
//   posenc::verify::attn_temperature_verify_request q{.start = 0, .positions = 1 << 20};
//   const posenc::verify::values_input own[] = {posenc::verify::own_values(table_dtype::bf16)};
//   const auto report = posenc::verify::verify_attn_temperature(q, own);
//
// Each table is laid out as `posenc emit attn-temperature --format bin` writes it; a request that
// cannot be carried out throws std::invalid_argument with one line naming it. Not constexpr; links
// MPFR. The exact values are computed once per step (the table is constant between steps).
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

#include "posenc/attn_temperature.hpp"
#include "posenc/verify/attn_temperature_oracle.hpp"
#include "posenc/verify/registry/attn_temperature.hpp"
#include "posenc/verify/scheme_verify_core.hpp"

namespace posenc::verify {

// ---- Llama-4 attention temperature --------------------------------------------------------------

// The scales of 0-based positions start .. start + positions - 1, `posenc emit attn-temperature`'s table.
struct attn_temperature_verify_request {
  attn_temperature::config config{};
  std::int64_t start = 0;
  std::size_t positions = 0;
  std::uint64_t max_ulp = 0;
  std::string description{};
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

inline verify_report verify_attn_temperature(const attn_temperature_verify_request& q,
                                             std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (const posenc::validation v = attn_temperature::validate(q.config); !v.ok())
    throw std::invalid_argument(std::string("invalid attention-temperature config: ") + v.message);
  if (q.positions == 0) throw std::invalid_argument("the table has no positions");
  if (q.start < 0 || q.start > attn_temperature::max_position ||
      q.positions - 1 > static_cast<std::size_t>(attn_temperature::max_position - q.start))
    throw std::invalid_argument("positions must be in [0, 2^52]");
  verify_report rep = sv::indexed_report("attn-temperature", q.description, {"position - start"}, {q.positions},
                                         q.positions, q.max_ulp);
  const auto exact_block = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                               std::vector<sv::exact_entry>& out) {
    std::int64_t k_done = -1;
    sv::exact_entry e{};
    for (std::uint64_t i = first; i < first + count; ++i) {
      const std::int64_t k = attn_temperature_step(q.start + static_cast<std::int64_t>(i), q.config.floor_scale);
      if (k != k_done) {  // a new step: its exact value, once
        auto v = attn_temperature_value(q.config.attn_scale, k);
        e = sv::exact_of(v, wanted);
        k_done = k;
      }
      out.push_back(e);
    }
  };
  const std::int64_t first_p = q.start;
  const auto locate = [first_p](std::uint64_t i) {
    return "position " + std::to_string(first_p + static_cast<std::int64_t>(i));
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(q.positions);
    sv::check_own(attn_temperature::fill_scales<T>(q.config, q.start, std::span<T>(out)), dtype_of<T>(),
                  "attention temperatures");
    return out;
  };
  const auto laws = [&]<class T>(std::span<const T> v, table_dtype dt, std::string_view skip,
                                 std::vector<law_findings>& out) {
    registry::attn_temperature_scheme::tables<T> t;
    t.config = q.config;
    t.first = q.start;
    t.scales.assign(v.begin(), v.end());
    sv::run_laws<registry::attn_temperature_scheme>(
        t, dt, skip, [](std::string_view) { return std::string(); }, out);
  };
  sv::verify_real_tables(rep, tables, q.run, "a table of " + std::to_string(q.positions) + " scales", exact_block,
                         locate, own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
