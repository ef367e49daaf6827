// sinusoid_verify.hpp: verify the tables built on sinusoids of positions (the sinusoidal encodings,
// Transformer-XL's / XLNet's relative rows, XPOS's scales), posenc's own or someone else's, against
// the MPFR oracles (sinusoid_oracle.hpp, transformer_xl_oracle.hpp, rational_power_oracle.hpp) and
// the registry's laws (`posenc verify sinusoidal|transformer-xl|xpos`; scheme_verify.hpp explains).
//
//   posenc::verify::sinusoidal_verify_request q{.config = {.dim = 512}, .positions = 512};
//   const posenc::verify::values_input own[] = {posenc::verify::own_values(table_dtype::f32)};
//   const auto report = posenc::verify::verify_sinusoidal(q, own);
//
// Each table is laid out as `posenc emit <scheme> --format bin` writes it. The exact value of every
// (position, angle) is computed once (cos and sin together) and serves every dtype. A request that
// cannot be carried out throws std::invalid_argument with one line naming it. Not constexpr.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "posenc/rope/config.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/transformer_xl.hpp"
#include "posenc/verify/rational_power_oracle.hpp"
#include "posenc/verify/scheme_verify_core.hpp"
#include "posenc/verify/sinusoid_oracle.hpp"
#include "posenc/verify/transformer_xl_oracle.hpp"
#include "posenc/xpos.hpp"

namespace posenc::verify {

namespace detail::sv {

// The exact rows of a sinusoid table: row r at positions[r], element j as the frameworks index it
// (sinusoid_element_of); each distinct angle of a row evaluated once, cos and sin together.
inline std::vector<exact_entry> sinusoid_exact(const sinusoidal::config& c, const std::vector<std::int64_t>& positions,
                                               const bool (&wanted)[4]) {
  const auto d = static_cast<std::size_t>(c.dim);
  std::vector<exact_entry> exact(positions.size() * d);
  for (std::size_t r = 0; r < positions.size(); ++r) {
    std::map<std::pair<std::int64_t, std::int64_t>, std::pair<exact_entry, exact_entry>> angles;  // cos, sin
    for (std::size_t j = 0; j < d; ++j) {
      const sinusoid_element el = sinusoid_element_of(c, static_cast<int>(j));
      if (el.zero) continue;  // exact_zero(): the fairseq zero column of an odd d
      auto it = angles.find({el.num, el.den});
      if (it == angles.end()) {
        auto v = sinusoid_angle_value(positions[r], c.base, el.num, el.den);
        it = angles
                 .emplace(std::pair{el.num, el.den},
                          std::pair{exact_of(v, wanted, false, 0), exact_of(v, wanted, false, 1)})
                 .first;
      }
      exact[r * d + j] = el.is_sin ? it->second.second : it->second.first;
    }
  }
  return exact;
}

inline std::string row_element(const std::vector<std::int64_t>& positions, std::size_t d, std::uint64_t i,
                               std::string_view row_word) {
  const std::uint64_t r = i / d;
  return std::string(row_word) + " " + std::to_string(r) + " (position " + std::to_string(positions[r]) +
         "), element " + std::to_string(i % d);
}

}  // namespace detail::sv

// ---- sinusoidal ---------------------------------------------------------------------------------

// Positions start .. start + positions - 1, rows of dim elements, `posenc emit sinusoidal`'s table.
struct sinusoidal_verify_request {
  sinusoidal::config config{};
  std::int64_t start = 0;
  std::size_t positions = 0;
  std::uint64_t max_ulp = 0;
  std::string description{};
};

inline scheme_verify_report verify_sinusoidal(const sinusoidal_verify_request& q,
                                              std::span<const values_input> tables) {
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
  bool wanted[4] = {false, false, false, false};
  sv::wanted_of(tables, wanted);
  const std::vector<sv::exact_entry> exact = sv::sinusoid_exact(q.config, positions, wanted);
  scheme_verify_report rep;
  rep.scheme = "sinusoidal";
  rep.description = q.description;
  rep.max_ulp_allowed = q.max_ulp;
  rep.keys = {"position - start", "element"};
  rep.shape = {q.positions, d};
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(q.positions * d);
    sv::check_own(sinusoidal::fill_table<T>(cc, q.start, std::span<T>(out)), dtype_of<T>(), "sinusoidal table");
    return out;
  };
  const auto laws = [&]<class T>(std::span<const T> v, table_dtype dt, std::vector<law_findings>& out) {
    registry::scheme_tables<T> t;
    t.config.family = registry::scheme_family::sinusoidal;
    t.config.sinusoidal = q.config;
    t.config.first = q.start;
    t.config.rows = q.positions;
    t.values.assign(v.begin(), v.end());
    sv::run_laws<T>(
        t, dt, [](std::string_view) { return std::string(); }, out);
  };
  sv::verify_real_tables(
      rep, tables, q.positions * d,
      "a table of " + std::to_string(q.positions) + " positions x " + std::to_string(d) + " elements",
      [&exact](std::size_t i) -> const sv::exact_entry& { return exact[i]; },
      [&positions, d](std::uint64_t i) { return sv::row_element(positions, d, i, "row"); }, q.max_ulp, own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

// ---- Transformer-XL / XLNet ---------------------------------------------------------------------

// Its rows (relative positions as the frameworks build them) of d_model elements [sin | cos],
// `posenc emit transformer-xl`'s table.
struct transformer_xl_verify_request {
  transformer_xl::config config{};
  std::uint64_t max_ulp = 0;
  std::string description{};
};

inline scheme_verify_report verify_transformer_xl(const transformer_xl_verify_request& q,
                                                  std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (const posenc::validation v = transformer_xl::validate(q.config); !v.ok())
    throw std::invalid_argument(std::string("invalid Transformer-XL config: ") + v.message);
  const std::vector<std::int64_t> positions = transformer_xl_positions(q.config);
  const auto d = static_cast<std::size_t>(q.config.d_model);
  // inv_freq_i = 1 / 10000^(2i / d_model), [sin | cos]: the paper's exponent in the concat layout.
  const sinusoidal::config as_sinusoid{.dim = q.config.d_model, .layout = sinusoidal::layout::concat};
  bool wanted[4] = {false, false, false, false};
  sv::wanted_of(tables, wanted);
  const std::vector<sv::exact_entry> exact = sv::sinusoid_exact(as_sinusoid, positions, wanted);
  scheme_verify_report rep;
  rep.scheme = "transformer-xl";
  rep.description = q.description;
  rep.max_ulp_allowed = q.max_ulp;
  rep.keys = {"row", "element"};
  rep.shape = {positions.size(), d};
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(static_cast<std::size_t>(transformer_xl::rows(q.config)) * d);
    sv::check_own(transformer_xl::fill_table<T>(q.config, std::span<T>(out)), dtype_of<T>(), "Transformer-XL table");
    return out;
  };
  const auto laws = [&]<class T>(std::span<const T> v, table_dtype dt, std::vector<law_findings>& out) {
    registry::scheme_tables<T> t;
    t.config.family = registry::scheme_family::transformer_xl;
    t.config.transformer_xl = q.config;
    t.config.rows = positions.size();
    t.values.assign(v.begin(), v.end());
    t.positions = positions;
    sv::run_laws<T>(
        t, dt, [](std::string_view) { return std::string(); }, out);
  };
  sv::verify_real_tables(
      rep, tables, positions.size() * d,
      "a table of " + std::to_string(positions.size()) + " rows x " + std::to_string(d) + " elements",
      [&exact](std::size_t i) -> const sv::exact_entry& { return exact[i]; },
      [&positions, d](std::uint64_t i) { return sv::row_element(positions, d, i, "row"); }, q.max_ulp, own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

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
};

namespace detail::sv {

// The registry's XPOS law reads the scales and the inverse scales of the same positions, with RoPE's
// interleaved rotation (registry/schemes.hpp): here the table verified and posenc's other one.
template <class T>
void xpos_laws(const xpos_verify_request& q, std::span<const T> v, table_dtype dt, bool own,
               std::vector<law_findings>& out) {
  registry::scheme_tables<T> t;
  t.config.family = registry::scheme_family::xpos;
  t.config.xpos = q.config;
  t.config.first = q.start;
  t.config.rows = q.positions;
  if (!own) {
    sv::run_laws<T>(
        t, dt,
        [](std::string_view) {
          return std::string("reads the scales and the inverse scales together: verify posenc's own table");
        },
        out);
    return;
  }
  const auto d = static_cast<std::size_t>(q.config.head_dim);
  (q.inverse ? t.inverse_scales : t.scales).assign(v.begin(), v.end());
  std::vector<T>& other = q.inverse ? t.scales : t.inverse_scales;
  other.resize(v.size());
  check_own(xpos::fill_scales<T>(xpos::checked_config{q.config}, q.start, std::span<T>(other), !q.inverse), dt,
            "XPOS scales");
  const rope::config rc{.head_dim = q.config.head_dim, .rope_theta = 10000.0};
  t.rope_cos.resize(q.positions * d);
  t.rope_sin.resize(q.positions * d);
  check_own(rope::fill_table<float>(rc, std::span<float>(t.rope_cos), std::span<float>(t.rope_sin),
                                    rope::layout::interleaved),
            table_dtype::f32, "RoPE rotation under the XPOS law");
  sv::run_laws<T>(
      t, dt, [](std::string_view) { return std::string(); }, out);
}

}  // namespace detail::sv

inline scheme_verify_report verify_xpos(const xpos_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  const xpos::checked_config cc{q.config};
  if (const posenc::validation v = cc.check(); !v.ok())
    throw std::invalid_argument(std::string("invalid XPOS config: ") + v.message);
  if (q.positions == 0) throw std::invalid_argument("the table has no positions");
  const auto d = static_cast<std::int64_t>(q.config.head_dim);
  const auto pairs = static_cast<std::size_t>(d / 2);
  bool wanted[4] = {false, false, false, false};
  sv::wanted_of(tables, wanted);
  std::vector<sv::exact_entry> exact(q.positions * pairs);
  for (std::size_t r = 0; r < q.positions; ++r)
    for (std::size_t j = 0; j < pairs; ++j) {
      // zeta_j = (2j + 0.4 d) / (1.4 d) = (10 j + 2 d) / (7 d) (torchscale's XPOS), to n / scale_base.
      const std::int64_t n = q.start + static_cast<std::int64_t>(r);
      auto v = rational_power_value(10 * static_cast<std::int64_t>(j) + 2 * d, 7 * d, q.inverse ? -n : n,
                                    q.config.scale_base);
      exact[r * pairs + j] = sv::exact_of(v, wanted);
    }
  scheme_verify_report rep;
  rep.scheme = "xpos";
  rep.description = q.description;
  rep.max_ulp_allowed = q.max_ulp;
  rep.keys = {"position - start", "pair"};
  rep.shape = {q.positions, pairs};
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out(q.positions * pairs);
    sv::check_own(xpos::fill_scales<T>(cc, q.start, std::span<T>(out), q.inverse), dtype_of<T>(), "XPOS scales");
    return out;
  };
  bool given = false;
  for (const values_input& in : tables) given = given || in.data != nullptr;
  const auto laws = [&]<class T>(std::span<const T> v, table_dtype dt, std::vector<law_findings>& out) {
    sv::xpos_laws<T>(q, v, dt, !given, out);
  };
  const std::int64_t first = q.start;
  sv::verify_real_tables(
      rep, tables, q.positions * pairs,
      "a table of " + std::to_string(q.positions) + " positions x " + std::to_string(pairs) + " pairs",
      [&exact](std::size_t i) -> const sv::exact_entry& { return exact[i]; },
      [first, pairs](std::uint64_t i) {
        return "position " + std::to_string(first + static_cast<std::int64_t>(i / pairs)) + ", pair " +
               std::to_string(i % pairs);
      },
      q.max_ulp, own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
