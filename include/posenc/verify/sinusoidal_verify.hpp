// sinusoidal_verify.hpp: verify a sinusoidal encoding table (Vaswani et al.; fairseq,
// tensor2tensor, Marian), posenc's own or someone else's, against the MPFR oracle
// (sinusoid_oracle.hpp) and the registry's sinusoid laws (`posenc verify sinusoidal`;
// scheme_verify.hpp explains).
//
//   posenc::verify::sinusoidal_verify_request q{.config = {.dim = 512}, .positions = 512};
//   const posenc::verify::values_input own[] = {posenc::verify::own_values(table_dtype::f32)};
//   const auto report = posenc::verify::verify_sinusoidal(q, own);
//
// Also q15/q31 tables (CMSIS-DSP's, docs/fixed-point.md): each entry against RN_even(x 2^F)
// saturated, the saturations counted, the sinusoid laws at the quantised bounds.
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

#include "posenc/sinusoidal.hpp"
#include "posenc/sinusoidal/fixed_point_table.hpp"
#include "posenc/verify/registry/sinusoidal.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
#include "posenc/verify/sinusoid_exact.hpp"

namespace posenc::verify {

// ---- sinusoidal ---------------------------------------------------------------------------------

// Positions start .. start + positions - 1, rows of dim elements, `posenc emit sinusoidal`'s table.
struct sinusoidal_verify_request {
  sinusoidal::config config{};
  std::int64_t start = 0;
  std::size_t positions = 0;
  std::uint64_t max_ulp = 0;
  std::string description{};
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

inline verify_report verify_sinusoidal(const sinusoidal_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  const sinusoidal::checked_config cc{q.config};
  if (const posenc::validation v = cc.check(); !v.ok())
    throw std::invalid_argument(std::string("invalid sinusoidal config: ") + v.message);
  if (q.positions == 0) throw std::invalid_argument("the table has no positions");
  const auto d = static_cast<std::size_t>(q.config.dim);
  std::vector<std::int64_t> positions(q.positions);
  for (std::size_t r = 0; r < q.positions; ++r) positions[r] = q.start + static_cast<std::int64_t>(r);
  verify_report rep = sv::indexed_report("sinusoidal", q.description, {"position - start", "element"}, {q.positions, d},
                                         q.positions * d, q.max_ulp);
  const auto exact_block = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                               std::vector<sv::exact_entry>& out) {
    sv::sinusoid_exact(q.config, positions, first, count, wanted, out);
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(q.positions * d);
    sv::check_own(sinusoidal::fill_table<T>(cc, q.start, std::span<T>(out)), dtype_of<T>(), "sinusoidal table");
    return out;
  };
  const auto laws = [&]<class T>(std::span<const T> v, table_dtype dt, std::string_view skip,
                                 std::vector<law_findings>& out) {
    registry::sinusoidal_scheme::tables<T> t;
    t.config = q.config;
    t.first = q.start;
    t.values.assign(v.begin(), v.end());
    sv::run_laws<registry::sinusoidal_scheme, fixed_point_type<T>>(
        t, dt, skip, [](std::string_view) { return std::string(); }, out);
  };
  sv::verify_real_tables</*FixedToo=*/true>(
      rep, tables, q.run,
      "a table of " + std::to_string(q.positions) + " positions x " + std::to_string(d) + " elements", exact_block,
      [&positions, d](std::uint64_t i) { return sv::row_element(positions, d, i, "row"); }, own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
