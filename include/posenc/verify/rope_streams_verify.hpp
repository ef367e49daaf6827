// rope_streams_verify.hpp: verify an M-RoPE or ND axial RoPE table (rope/mrope.hpp, rope/nd.hpp),
// posenc's own or someone else's, against MPFR (`posenc verify mrope`, `posenc verify rope-nd`;
// scheme_verify.hpp explains the reports).
//
// The table is laid out as `posenc emit mrope|rope-nd --format bin` writes it: every token's cos of
// pair j at [token][pair], then every sin the same way (2 x tokens x rotary_dim / 2 entries). Each
// exact value comes from rope_table_oracle.hpp (the frequencies of any HF scaling transcribed
// independently, 320 bits): pair j of a token is cos/sin of its stream's position times the
// frequency of its plan (M-RoPE: the text config's theta_j; ND: axis a's theta_{a,k}). The stream
// maps are the core's (rope::mrope_stream, the axes' order), checked against the derivations of
// ../shared/reference/pe-formulas-more.md by tests/test_rope_streams.cpp. The registry's laws of
// the scheme (registry/rope_streams.hpp) run on each table (their failures are findings). A request that cannot be carried
// out throws std::invalid_argument with one line naming it. Not constexpr; links MPFR.
#pragma once

#include <mpfr.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "posenc/rope/mrope.hpp"
#include "posenc/rope/nd.hpp"
#include "posenc/verify/registry/rope_streams.hpp"
#include "posenc/verify/rope_table_oracle.hpp"
#include "posenc/verify/scheme_verify_core.hpp"

namespace posenc::verify {

struct mrope_verify_request {
  rope::mrope_config config{};
  std::vector<std::uint64_t> positions;  // 3 x tokens, stream-major
  bool fold_attention = false;
  std::uint64_t max_ulp = 0;
  std::string description{};
  run_options run{};
};

struct rope_nd_verify_request {
  std::vector<int> axes_dim;
  double rope_theta = 10000.0;
  bool turns = false;             // the angle is 2 pi p theta (DINOv3: rope/turns.hpp)
  std::vector<double> positions;  // axes x tokens, axis-major
  std::uint64_t max_ulp = 0;
  std::string description{};
  run_options run{};
};

namespace detail::streams {

// One oracle value in the shape exact_of reads: output 0 is cos, 1 is sin.
struct pair_value {
  const rope_table_oracle::value* v;
  mpfr_srcptr approx(std::size_t k) const { return k == 0 ? v->cos.get() : v->sin.get(); }
  template <class T>
  T round(std::size_t k) const {
    return posenc::verify::detail::round_into<T>(approx(k));
  }
};

// The pair plans of a table: which oracle, which of its frequencies, which stream.
struct plan {
  std::size_t oracle = 0;
  int k = 0;
  int stream = 0;  // < 0: position 0
};

template <class Position>
void exact_block(const std::vector<std::unique_ptr<rope_table_oracle>>& oracles, const std::vector<plan>& plans,
                 std::size_t tokens, bool fold, Position position, std::uint64_t first, std::size_t count,
                 const bool (&wanted)[dtype_count], std::vector<sv::exact_entry>& out) {
  const std::size_t pairs = plans.size(), half = tokens * pairs;
  rope_table_oracle::value v;
  for (std::uint64_t i = first; i < first + count; ++i) {
    const std::size_t part = static_cast<std::size_t>(i / half), r = static_cast<std::size_t>(i % half);
    const std::size_t token = r / pairs, j = r % pairs;
    const plan& p = plans[j];
    const rope_table_oracle& o = *oracles[p.oracle];
    if (p.stream < 0)
      o.eval(0, p.k, fold, v);
    else
      position(o, p.stream, token, p.k, fold, v);
    pair_value pv{&v};
    out.push_back(sv::exact_of(pv, wanted, false, part));
  }
}

inline std::string locate(std::uint64_t i, std::size_t tokens, std::size_t pairs) {
  const std::size_t half = tokens * pairs, r = static_cast<std::size_t>(i % half);
  return std::string(i < half ? "cos" : "sin") + " of token " + std::to_string(r / pairs) + ", pair " +
         std::to_string(r % pairs);
}

// The registry's laws of descriptor D (registry/rope_streams.hpp) on a table of T given as the
// [cos | sin] compact (token, pair) arrays verify reads: expanded into D's tables (M-RoPE's rows
// half-split, ND's interleaved, as their views read them) and run by sv::run_laws.
template <class D, class T, class Config, class Positions>
void run_laws(std::span<const T> table, table_dtype dt, std::string_view skip, const Config& config,
              const Positions& positions, std::size_t tokens, std::size_t pairs, const std::string& missing,
              std::vector<law_findings>& out) {
  typename D::template tables<T> t;
  t.config = config;
  t.positions.assign(positions.begin(), positions.end());
  const std::size_t d = 2 * pairs;
  const rotary_layout lay = t.view().layout();
  t.cos.resize(tokens * d);
  t.sin.resize(tokens * d);
  if (!table.empty())
    for (std::size_t i = 0; i < tokens; ++i)
      for (std::size_t j = 0; j < pairs; ++j)
        for (int e = 0; e < 2; ++e) {
          const std::size_t k = i * d + rope::pair_index(lay, j, e, d);
          t.cos[k] = table[i * pairs + j];
          t.sin[k] = table[tokens * pairs + i * pairs + j];
        }
  sv::run_laws<D>(
      t, dt, skip, [&missing](std::string_view) { return missing; }, out);
}

}  // namespace detail::streams

inline verify_report verify_mrope(const mrope_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  namespace st = detail::streams;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (const posenc::validation v = rope::validate(q.config); !v.ok())
    throw std::invalid_argument(std::string("invalid M-RoPE config: ") + v.message);
  if (q.positions.empty() || q.positions.size() % 3 != 0)
    throw std::invalid_argument("the position ids must be 3 x tokens (t, h, w)");
  for (const std::uint64_t p : q.positions)
    if (p > rope::max_table_position) throw std::invalid_argument("a position id is past 2^21");
  const std::size_t tokens = q.positions.size() / 3,
                    pairs = static_cast<std::size_t>(rope::rotary_dim(q.config.text)) / 2;
  std::vector<std::unique_ptr<rope_table_oracle>> oracles;
  oracles.push_back(std::make_unique<rope_table_oracle>(q.config.text));
  std::vector<st::plan> plans(pairs);
  for (std::size_t j = 0; j < pairs; ++j)
    plans[j] = {0, static_cast<int>(j), rope::mrope_stream(q.config, static_cast<int>(j))};
  const std::uint64_t entries = 2 * tokens * pairs;
  verify_report rep =
      sv::indexed_report("mrope", q.description, {"part", "token", "pair"}, {2, tokens, pairs}, entries, q.max_ulp);
  const auto position = [&q, tokens](const rope_table_oracle& o, int s, std::size_t token, int k, bool fold,
                                     rope_table_oracle::value& v) {
    o.eval(q.positions[static_cast<std::size_t>(s) * tokens + token], k, fold, v);
  };
  const auto exact = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                         std::vector<sv::exact_entry>& out) {
    st::exact_block(oracles, plans, tokens, q.fold_attention, position, first, count, wanted, out);
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    // What `posenc emit mrope` writes: the scratch fill (the same bits as the scalar one).
    std::vector<math::sincos_result<T>> pairs_out(tokens * pairs),
        scratch(rope::mrope_scratch_size(q.config, q.positions));
    sv::check_own(rope::fill_mrope_pair_table<T>(q.config, q.positions, pairs_out, scratch, q.fold_attention),
                  dtype_of<T>(), "M-RoPE table");
    return sv::cos_then_sin<T>(pairs_out);
  };
  const auto laws = [&]<class T>(std::span<const T> table, table_dtype dt, std::string_view skip,
                                 std::vector<law_findings>& out) {
    st::run_laws<registry::mrope_scheme, T>(
        table, dt, skip, q.config, q.positions, tokens, pairs,
        q.fold_attention ? "reads cos and sin: the attention factor is folded in" : "", out);
  };
  sv::verify_real_tables(
      rep, tables, q.run, "an M-RoPE table of " + std::to_string(entries) + " entries", exact,
      [tokens, pairs](std::uint64_t i) { return st::locate(i, tokens, pairs); }, own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

inline verify_report verify_rope_nd(const rope_nd_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  namespace st = detail::streams;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  const rope::nd_config c{.axes_dim = q.axes_dim,
                          .rope_theta = q.rope_theta,
                          .angle = q.turns ? rope::angle_unit::turns : rope::angle_unit::radians};
  if (const posenc::validation v = rope::validate(c); !v.ok())
    throw std::invalid_argument(std::string("invalid ND RoPE config: ") + v.message);
  const std::size_t axes = q.axes_dim.size();
  if (q.positions.empty() || q.positions.size() % axes != 0)
    throw std::invalid_argument("the position ids must be axes x tokens");
  for (const double p : q.positions)
    if (!rope::split_position(p).ok()) throw std::invalid_argument("a position is not finite or past 2^21");
  const std::size_t tokens = q.positions.size() / axes, pairs = static_cast<std::size_t>(rope::nd_rotary_dim(c)) / 2;
  std::vector<std::unique_ptr<rope_table_oracle>> oracles;
  for (std::size_t a = 0; a < axes; ++a)
    oracles.push_back(std::make_unique<rope_table_oracle>(rope::axis_config(c, a)));
  std::vector<st::plan> plans;
  for (std::size_t a = 0; a < axes; ++a)
    for (int k = 0; k < q.axes_dim[a] / 2; ++k) plans.push_back({a, k, static_cast<int>(a)});
  const std::uint64_t entries = 2 * tokens * pairs;
  verify_report rep =
      sv::indexed_report("rope-nd", q.description, {"part", "token", "pair"}, {2, tokens, pairs}, entries, q.max_ulp);
  const auto position = [&q, tokens](const rope_table_oracle& o, int s, std::size_t token, int k, bool,
                                     rope_table_oracle::value& v) {
    const double p = q.positions[static_cast<std::size_t>(s) * tokens + token];
    if (q.turns)
      o.eval_turns_at(p, k, v);
    else
      o.eval_at(p, k, v);
  };
  const auto exact = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                         std::vector<sv::exact_entry>& out) {
    st::exact_block(oracles, plans, tokens, false, position, first, count, wanted, out);
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<math::sincos_result<T>> pairs_out(tokens * pairs), scratch(rope::nd_scratch_size(c, q.positions));
    sv::check_own(rope::fill_nd_pair_table<T>(c, q.positions, pairs_out, scratch), dtype_of<T>(), "ND RoPE table");
    return sv::cos_then_sin<T>(pairs_out);
  };
  const auto laws = [&]<class T>(std::span<const T> table, table_dtype dt, std::string_view skip,
                                 std::vector<law_findings>& out) {
    st::run_laws<registry::rope_nd_scheme, T>(table, dt, skip, c, q.positions, tokens, pairs, "", out);
  };
  sv::verify_real_tables(
      rep, tables, q.run, "an ND RoPE table of " + std::to_string(entries) + " entries", exact,
      [tokens, pairs](std::uint64_t i) { return st::locate(i, tokens, pairs); }, own, laws);
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
