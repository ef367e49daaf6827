// xpos_verify.hpp: verify XPOS's scales or inverse scales (Sun et al. 2023; torchscale), posenc's own
// or someone else's, against the MPFR oracle (rational_power_oracle.hpp) and the registry's XPOS law
// (`posenc verify xpos`; scheme_verify.hpp explains).
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

#include "posenc/verify/rational_power_oracle.hpp"
#include "posenc/verify/registry/xpos.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
#include "posenc/xpos.hpp"
#include "posenc/xpos/fixed_point_scale.hpp"

namespace posenc::verify {

// ---- XPOS ---------------------------------------------------------------------------------------

// The scales zeta_j^(n / scale_base) (or, inverse, zeta_j^(-n / scale_base)) of positions
// n = start .. start + positions - 1 and pairs j < head_dim / 2, `posenc emit xpos`'s table.
struct xpos_verify_request {
  xpos::config config{};
  std::int64_t start = 0;
  std::size_t positions = 0;
  bool inverse = false;
  std::uint64_t max_ulp = 0;
  std::string description{};
  run_options run{};  // the shard, the threads, the progress (blocks.hpp)
};

namespace detail::sv {

// The registry's XPOS law reads the scales and the inverse scales of the same positions, with RoPE's
// interleaved rotation (registry/schemes.hpp): here the table verified and posenc's other one.
template <class T>
void xpos_laws(const xpos_verify_request& q, std::span<const T> v, table_dtype dt, bool own, std::string_view skip,
               std::vector<law_findings>& out) {
  registry::xpos_scheme::tables<T> t;
  t.config = q.config;
  if constexpr (fixed_point_type<
                    T>) {  // the law cannot hold of q15/q31 (laws/xpos/relative_scale.hpp): reported as such
    (void)v, (void)own;
    sv::run_laws<registry::xpos_scheme, true>(
        t, dt, skip, [](std::string_view) { return std::string(); }, out);
  } else {
    if (!own || !skip.empty()) {
      sv::run_laws<registry::xpos_scheme>(
          t, dt, skip,
          [](std::string_view) {
            return std::string("reads the scales and the inverse scales together: verify posenc's own table");
          },
          out);
      return;
    }
    (q.inverse ? t.inverse_scales : t.scales).assign(v.begin(), v.end());
    std::vector<T>& other = q.inverse ? t.scales : t.inverse_scales;
    other.resize(v.size());
    check_own(xpos::fill_scales<T>(xpos::checked_config{q.config}, q.start, std::span<T>(other), !q.inverse), dt,
              "XPOS scales");
    registry::xpos_scheme::fill_rotation(q.config, q.positions, t.rope_cos, t.rope_sin, t);
    check_own(t.status, table_dtype::f32, "RoPE rotation under the XPOS law");
    sv::run_laws<registry::xpos_scheme>(
        t, dt, skip, [](std::string_view) { return std::string(); }, out);
  }
}

}  // namespace detail::sv

inline verify_report verify_xpos(const xpos_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  const xpos::checked_config cc{q.config};
  if (const posenc::validation v = cc.check(); !v.ok())
    throw std::invalid_argument(std::string("invalid XPOS config: ") + v.message);
  if (q.positions == 0) throw std::invalid_argument("the table has no positions");
  const auto d = static_cast<std::int64_t>(q.config.head_dim);
  const auto pairs = static_cast<std::size_t>(d / 2);
  verify_report rep = sv::indexed_report("xpos", q.description, {"position - start", "pair"}, {q.positions, pairs},
                                         q.positions * pairs, q.max_ulp);
  const auto exact_block = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                               std::vector<sv::exact_entry>& out) {
    for (std::uint64_t i = first; i < first + count; ++i) {
      // zeta_j = (2j + 0.4 d) / (1.4 d) = (10 j + 2 d) / (7 d) (torchscale's XPOS), to n / scale_base.
      const auto j = static_cast<std::int64_t>(i % pairs);
      const std::int64_t n = q.start + static_cast<std::int64_t>(i / pairs);
      auto v = rational_power_value(10 * j + 2 * d, 7 * d, q.inverse ? -n : n, q.config.scale_base);
      out.push_back(sv::exact_of(v, wanted));
    }
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(q.positions * pairs);
    sv::check_own(xpos::fill_scales<T>(cc, q.start, std::span<T>(out), q.inverse), dtype_of<T>(), "XPOS scales");
    return out;
  };
  bool given = false;
  for (const values_input& in : tables) given = given || in.data != nullptr;
  const auto laws = [&]<class T>(std::span<const T> v, table_dtype dt, std::string_view skip,
                                 std::vector<law_findings>& out) { sv::xpos_laws<T>(q, v, dt, !given, skip, out); };
  const std::int64_t first = q.start;
  sv::verify_real_tables</*FixedToo=*/true>(
      rep, tables, q.run,
      "a table of " + std::to_string(q.positions) + " positions x " + std::to_string(pairs) + " pairs", exact_block,
      [first, pairs](std::uint64_t i) {
        return "position " + std::to_string(first + static_cast<std::int64_t>(i / pairs)) + ", pair " +
               std::to_string(i % pairs);
      },
      own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
