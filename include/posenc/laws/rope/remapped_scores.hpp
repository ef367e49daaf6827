// remapped_scores.hpp: laws "a remapped RoPE score computed the way a prefill kernel does equals
// the score of the remapped relative position", for ReRoPE, Leaky ReRoPE and StreamingLLM's cache
// (rope/rerope.hpp, rope/leaky_rerope.hpp, rope/streaming_cache.hpp; docs/rope-remap.md).
//
// Each law compares, per query/key case and pair j, two 2x2 blocks that the scheme says are the
// same rotation:
//   absolute form  M1 = A~_a^T A~_b   (q rotated at row a, k at row b of an absolute table: the
//                                      score <R_a q, R_b k> = q^T R_a^T R_b k), or M1 = A~_a^T when
//                                      k is not rotated (ReRoPE outside the window);
//   relative form  M2 = D~_r^T        (q unrotated, k rotated by R_{-r} with row r of a relative
//                                      table: the decode kernels of the references).
//   rerope_scores(plain, decode, w)            rel = i - j < w: a = i, b = j of the plain table;
//                                              else a = w, k unrotated; r = min(rel, w)
//   leaky_rerope_scores(plain, scaled, decode, w, k)
//                                              rel < w: as ReRoPE; else a = i + w (k - 1), b = j of
//                                              the scaled table; r = rel (the decode table's row
//                                              rel holds the remapped angle)
//   streaming_scores(step_rows, plain)         the rows of one StreamingLLM step in slot order,
//                                              the query at the last slot q: a = q, b = s;
//                                              r = q - s of the plain table (the cache-position
//                                              difference, not the tokens' distance in the text)
// Cases: every query i < queries and key j <= i (every slot s for streaming). Tables are read by
// position (the rotary_table views' position column): a row the law needs and the table lacks
// fails the case (index: position = i, partner = j, pair -1).
//
// Bound (laws/bounds.hpp's notation): ||M1 - R_theta||_2 <= 2 u_t + u_t^2 (table_dot_bound: two
// correctly rounded blocks), ||M2 - R_theta||_2 <= u_t (table_block_error: one), the exact rotations
// being the same when the scheme's remapping holds, so ||M1 - M2||_2 <= 3 u_t + u_t^2; times
// 1 + 2^-40 for the double-double evaluation of double tables, plus 2^-51 for the narrower types
// (M1's two entries one rounding each in double, as relative_dot_bound). A wrong row (the window
// off by one, the leaky offset w k instead of w (k - 1), keys rotated at their text positions
// instead of their cache slots) moves M1 or M2 by a whole rotation and fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/blocks.hpp"
#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/math/sqrt.hpp"

namespace posenc::laws::failed {

// Where a failing law of this header stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool rerope_scores(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<rerope_scores>(position) && pair + element > 0;
}
constexpr bool leaky_rerope_scores(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<leaky_rerope_scores>(position) && pair + element > 0;
}
constexpr bool streaming_scores(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<streaming_scores>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity rerope_scores{failed::rerope_scores, law_indices::rotary};
inline constexpr law_identity leaky_rerope_scores{failed::leaky_rerope_scores, law_indices::rotary};
inline constexpr law_identity streaming_scores{failed::streaming_scores, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

// ||M1 - M2||_2 of a correctly rounded absolute and relative table of T (the derivation above).
template <class T>
constexpr double remapped_score_bound() noexcept {
  return (table_dot_bound<T>() + table_block_error<T>()) * (1 + 0x1p-40) + (std::is_same_v<T, double> ? 0.0 : 0x1p-51);
}

}  // namespace posenc::laws

namespace posenc::laws::detail {

// One case of a score law: rows (qa of A, kb of A or null for an unrotated key, r of D), every pair.
template <class T>
struct score_case {
  const T *qc = nullptr, *qs = nullptr, *kc = nullptr, *ks = nullptr, *rc = nullptr, *rs = nullptr;
};

struct score_state {
  double bound = 0, bound2 = 0, worst2 = -1;
};

template <class T>
constexpr void check_score_case(law_result& r, score_state& st, const score_case<T>& c, std::size_t d, rotary_layout l,
                                std::int64_t query, std::int64_t key) noexcept {
  const std::size_t step = l == rotary_layout::interleaved ? 2 : 1;
  std::uint64_t within = 0;
  for (std::size_t j = 0; j < d / 2; ++j) {
    const std::size_t k = j * step;
    // M1 = A~_a^T A~_b, or A~_a^T = [[c, s], [-s, c]]: a = c, b = -s; M2 = D~_r^T likewise.
    const block x = c.kc != nullptr ? block_product<T, true>(c.qc, c.qs, c.kc, c.ks, k)
                                    : block{to_double(c.qc[k]), -to_double(c.qs[k])};
    const double da = (x.a - to_double(c.rc[k])) + x.a_lo, db = (x.b + to_double(c.rs[k])) + x.b_lo;
    const double dev2 = da * da + db * db;
    if (dev2 <= st.worst2 && dev2 <= st.bound2) {
      ++within;
      continue;
    }
    st.worst2 = dev2 > st.worst2 ? dev2 : st.worst2;
    r.add(math::sqrt(dev2), st.bound, {query, static_cast<std::int64_t>(j), -1, key});
  }
  r.pass(within);
}

// The row at position p of a view, or null (the case then fails).
// A view and whether its rows are consecutive (worked out once per law, not per case).
template <rotary_table V>
struct rows_by_position {
  const V& v;
  bool cons = consecutive(v);
};

template <rotary_table V>
constexpr bool find_row(const rows_by_position<V>& t, std::int64_t p, const typename V::value_type*& c,
                        const typename V::value_type*& s) noexcept {
  const V& v = t.v;
  const std::size_t row = row_of(v, p, t.cons);
  if (row == no_row) return false;
  c = v.cos_row(row);
  s = v.sin_row(row);
  return true;
}

template <class T>
constexpr score_state make_score_state() noexcept {
  const double b = remapped_score_bound<T>();
  return {b, b * b * (1 - 0x1p-40), -1};
}

}  // namespace posenc::laws::detail

namespace posenc::laws {

// ReRoPE: queries 0 .. queries - 1 (default: every row of plain), plain rows at positions
// 0 .. max(queries - 1, w), decode rows 0 .. w.
template <rotary_table P, rotary_table D>
constexpr law_result rerope_scores(const P& plain, const D& decode, std::uint64_t window,
                                   std::size_t queries = 0) noexcept {
  using T = typename P::value_type;
  static_assert(std::is_same_v<T, typename D::value_type>, "posenc: rerope_scores reads two tables of one type");
  law_result r =
      make_result("rerope scores: <R_i q, R_j k> inside the window, <R_w q, k> outside, = q^T R_-min(i-j,w) k",
                  &kind::rerope_scores);
  if (!well_shaped(plain) || !well_shaped(decode) || plain.rotary_dim() != decode.rotary_dim() ||
      plain.layout() != decode.layout() || window == 0) {
    r.require(false, {});
    return r;
  }
  detail::score_state st = detail::make_score_state<T>();
  const detail::rows_by_position<P> pt{plain};
  const detail::rows_by_position<D> dt{decode};
  const std::size_t n = queries == 0 ? plain.rows() : queries;
  const auto w = static_cast<std::int64_t>(window);
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      const bool inside = i - j < w;
      detail::score_case<T> c{};
      bool ok =
          detail::find_row(pt, inside ? i : w, c.qc, c.qs) && detail::find_row(dt, inside ? i - j : w, c.rc, c.rs);
      if (ok && inside) ok = detail::find_row(pt, j, c.kc, c.ks);
      if (!ok) {
        r.require(false, {i, -1, -1, j});
        continue;
      }
      detail::check_score_case(r, st, c, plain.rotary_dim(), plain.layout(), i, j);
    }
  return r;
}

// Leaky ReRoPE: queries 0 .. queries - 1 (default: every row of plain); plain rows 0 .. w - 1 (and
// the queries' rows inside the window), scaled rows 0 .. queries - 1 + w (k - 1), decode rows
// 0 .. queries - 1 (row rel).
template <rotary_table P, rotary_table S, rotary_table D>
constexpr law_result leaky_rerope_scores(const P& plain, const S& scaled, const D& decode, std::uint64_t window,
                                         std::uint64_t scaling_factor, std::size_t queries = 0) noexcept {
  using T = typename P::value_type;
  static_assert(std::is_same_v<T, typename S::value_type> && std::is_same_v<T, typename D::value_type>,
                "posenc: leaky_rerope_scores reads three tables of one type");
  law_result r = make_result(
      "leaky rerope scores: <R_i q, R_j k> inside the window, <R'_(i+w(k-1)) q, R'_j k> "
      "outside, = q^T R_-rel' k",
      &kind::leaky_rerope_scores);
  const std::size_t d = plain.rotary_dim();
  if (!well_shaped(plain) || !well_shaped(scaled) || !well_shaped(decode) || scaled.rotary_dim() != d ||
      decode.rotary_dim() != d || scaled.layout() != plain.layout() || decode.layout() != plain.layout() ||
      window == 0 || scaling_factor < 2) {
    r.require(false, {});
    return r;
  }
  detail::score_state st = detail::make_score_state<T>();
  const detail::rows_by_position<P> pt{plain};
  const detail::rows_by_position<S> sct{scaled};
  const detail::rows_by_position<D> dt{decode};
  const std::size_t n = queries == 0 ? plain.rows() : queries;
  const auto w = static_cast<std::int64_t>(window);
  const std::int64_t offset = w * (static_cast<std::int64_t>(scaling_factor) - 1);
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      detail::score_case<T> c{};
      const bool ok = i - j < w ? detail::find_row(pt, i, c.qc, c.qs) && detail::find_row(pt, j, c.kc, c.ks)
                                : detail::find_row(sct, i + offset, c.qc, c.qs) && detail::find_row(sct, j, c.kc, c.ks);
      if (!ok || !detail::find_row(dt, i - j, c.rc, c.rs)) {
        r.require(false, {i, -1, -1, j});
        continue;
      }
      detail::check_score_case(r, st, c, d, plain.layout(), i, j);
    }
  return r;
}

// StreamingLLM: step_rows holds one step's rows in slot order (row s rotates the key of slot s, the
// last row the query and the new key); plain holds positions 0 .. step_rows.rows() - 1. Index:
// position = the query's slot, partner = the key's slot.
template <rotary_table V, rotary_table P>
constexpr law_result streaming_scores(const V& step_rows, const P& plain) noexcept {
  using T = typename V::value_type;
  static_assert(std::is_same_v<T, typename P::value_type>, "posenc: streaming_scores reads two tables of one type");
  law_result r =
      make_result("streaming scores: <R_slot(q) q, R_slot(k) k> = q^T R_-(slot(q)-slot(k)) k", &kind::streaming_scores);
  if (!well_shaped(step_rows) || !well_shaped(plain) || step_rows.rotary_dim() != plain.rotary_dim() ||
      step_rows.layout() != plain.layout()) {
    r.require(false, {});
    return r;
  }
  detail::score_state st = detail::make_score_state<T>();
  const detail::rows_by_position<P> pt{plain};
  const std::size_t q = step_rows.rows() - 1;
  for (std::size_t s = 0; s <= q; ++s) {
    detail::score_case<T> c{step_rows.cos_row(q), step_rows.sin_row(q), step_rows.cos_row(s), step_rows.sin_row(s)};
    const auto qi = static_cast<std::int64_t>(q), si = static_cast<std::int64_t>(s);
    if (!detail::find_row(pt, qi - si, c.rc, c.rs)) {
      r.require(false, {qi, -1, -1, si});
      continue;
    }
    detail::check_score_case(r, st, c, plain.rotary_dim(), step_rows.layout(), qi, si);
  }
  return r;
}

}  // namespace posenc::laws
