// sincos_table_rows_constexpr.hpp: the constant-evaluation path of the cos/sin table engine for
// float tables of consecutive positions, no folded amplitude, written into a sink that can say
// where a row's values go (row_runs: the sinusoidal tables, RoPE's expanded ones; row_pairs: compact {sin, cos} rows). The same entries as every other path
// (an entry the test decides is correctly rounded; the others come from the source's scalar
// function); what differs is the cost inside the compiler.
//
// Why a path of its own: GCC's and Clang's constant evaluators pay for every call (GCC also keeps
// each call's arguments) and for every interpreted operation. The general path (fill_chunk) makes
// three calls an entry (entry, the rounding test, the sink's store) and computes B + rows / B
// accurate anchors a column; a 1024 x 512 float sinusoidal table cost 4.2x a trivial constexpr fill
// of the same array. Here a row is written whole with no call an entry: each column walks from its
// block's accurate anchor, V_0 = A = cis(p0 theta), V_{b+1} = fl(V_b E_1), one complex product an
// entry, then the two-ended float test and the two stores. A column costs rows / B + 1 accurate
// anchors (B up to 2048) and keeps no table of E_b, which GCC's evaluator would hold as a node per
// value. The walk's bound, eta_0 = a, eta_{b+1} <= eta_b (1 + a) + a + R (1 + eta_b)(1 + a), is
// derived in sincos_table_rows.hpp (walk_bounds; docs/rope.md 9.3.1); tests/test_table_rows.cpp
// checks it against MPFR. docs/performance.md 2.2 has the figures.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

#include "posenc/math/detail/sincos_table_entry.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/status.hpp"

namespace posenc::detail::sincos_table {

template <class Sink>
concept has_row_runs = requires(Sink& s, std::size_t i, row_runs<float>& r) {
  { s.row_runs(i, i, i, r) } -> std::same_as<bool>;
};

// A sink that can give a row's pairs as contiguous {sin, cos} floats (the math tables, RoPE's
// compact tables): the constant-evaluation path stores them in place, with no call an entry.
template <class Sink>
concept has_row_pairs = requires(Sink& s, std::size_t i) {
  { s.row_pairs(i, i, i) } -> std::same_as<math::sincos_result<float>*>;
};

// A row_pairs sink whose null row means that nothing reads the row (M-RoPE's stream rows at a
// position no token has): the walk steps past it, with no test and no store.
template <class Sink>
concept skips_unread_rows = has_row_pairs<Sink> && Sink::skips_unread_rows;

// A sink told when a row's columns [j0, j0 + n) are written (RoPE's half-split rows then copy them
// to their second half, keeping the table's stores in order).
template <class Sink>
concept has_end_row = requires(Sink& s, std::size_t i) { s.end_row(i, i, i); };

// Columns written in one pass, and rows a block's anchor is walked over at most. A row is
// written whole, left to right: GCC's constant evaluator appends an array element stored past the
// last one in constant time but inserts one stored before it in linear time, so a table written
// chunk after chunk of columns (the general path's 128) costs time quadratic in its size. A
// constant evaluation has no stack to spare, only operations: these arrays cost what is written.
inline constexpr std::size_t constexpr_columns_max = 512;
inline constexpr std::size_t constexpr_block_max = 2048;

// Whether compact {sin, cos} rows are walked two rows a pass. Clang's evaluator pays for each read
// and write of an array element: one row a pass reads a column's state and step (eight reads) and
// writes the state (two writes) for each entry; two rows a pass do it once for two entries, which
// took the compact table from 1.42x to 1.15x a trivial fill per entry (docs/performance.md, section
// 1, "Compact tables two rows a pass on Clang"). GCC walks one row a pass: there the second row's stores
// land before the first row's next ones, and its evaluator inserts such a store in time linear in
// the elements after it. The same bits either way; tests/test_table_rows.cpp runs both.
#if defined(__clang__)
inline constexpr bool clang_evaluator = true;  // which constant evaluator the tuned paths are for
#else
inline constexpr bool clang_evaluator = false;
#endif
inline constexpr bool constexpr_two_rows = clang_evaluator;

// A source whose columns run progressions of their own: column j of row i is at position
// src.column_first(j) + src.column_step(j) i, step >= 0 (an ND table whose every axis is a
// progression along the tokens: rope/nd.hpp). The walk is the same, one product a row, by
// E = cis(step theta) (an accurate anchor, as E_1 is, so the same bound eb[b] after b products);
// a column's anchors, its scalar entries and its bound's last position follow its progression.
// Other sources: start + i, step 1.
template <class Source>
concept has_column_progressions = requires(const Source& s, std::size_t j) {
  { s.column_first(j) } -> std::same_as<std::uint64_t>;
  { s.column_step(j) } -> std::same_as<std::uint64_t>;
};
template <class Source>
constexpr std::uint64_t column_step(const Source& src, std::size_t j) noexcept {
  if constexpr (has_column_progressions<Source>)
    return src.column_step(j);
  else
    return 1;
}
// Column j's position at row i of a fill from `start`.
template <class Source>
constexpr std::uint64_t column_position(const Source& src, std::size_t j, std::uint64_t start, std::size_t i) noexcept {
  if constexpr (has_column_progressions<Source>)
    return src.column_first(j) + src.column_step(j) * i;
  else
    return start + i;
}

// The source's scalar entry at (p, column), for an entry the walk's test leaves undecided (about
// 2^-15 of them), its first error kept in st. Every loop below shares it: it is off the hot path,
// so its call costs the decided entries nothing; the test itself stays inline in each loop.
template <class Source>
constexpr math::sincos_result<float> undecided_entry(const Source& src, const math::frequency_value& f, std::uint64_t p,
                                                     std::size_t column, posenc::status& st) noexcept {
  const auto x = src.template entry<float>(f, nullptr, p, static_cast<int>(column));
  if (st == posenc::status::ok) st = x.error;
  return x.value;
}

// Columns [j0, j0 + n) of rows i < rows at positions start + i, n <= constexpr_columns_max.
template <class Source, class Sink>
constexpr posenc::status fill_chunk_float_constexpr(const Source& src, std::uint64_t start, std::size_t rows,
                                                    std::size_t j0, std::size_t n, Sink& sink,
                                                    bool two_rows = constexpr_two_rows) noexcept {
  // B: the walk costs the same whatever B, so B is as long as the bound allows: rows / B + 1
  // accurate anchors a column (at start 0 the first is cis(0), free). At B = 2048 the walk's bound
  // is about 2^-40: the float test still decides all but about 2^-15 of the entries.
  const std::size_t nb = rows < constexpr_block_max ? rows : constexpr_block_max;
  math::frequency_value f[constexpr_columns_max] = {};
  double c1[constexpr_columns_max] = {}, s1[constexpr_columns_max] = {};
  double vc[constexpr_columns_max] = {}, vs[constexpr_columns_max] = {};
  bool slow[constexpr_columns_max] = {};
  double eb[constexpr_block_max] = {};
  walk_bounds(eb, nb);
  double ferr = 0;
  for (std::size_t j = 0; j < n; ++j) {
    f[j] = src.frequency(static_cast<int>(j0 + j));
    if (!f[j].ok()) return f[j].error;
    slow[j] = f[j].value.hi == 0 || !cis_anchor(column_step(src, j0 + j), f[j].value, c1[j], s1[j]);
    const double fe = static_cast<double>(column_position(src, j0 + j, start, rows)) * dabs(f[j].value.hi) *
                      (f[j].rel_err * 1.0000001);
    ferr = fe > ferr ? fe : ferr;
  }
  sink.begin_chunk(j0, n);
  posenc::status st = posenc::status::ok;
  for (std::size_t i0 = 0; i0 < rows; i0 += nb) {
    bool block_slow = false;
    for (std::size_t j = 0; j < n; ++j) {
      if (!slow[j] && !cis_anchor(column_position(src, j0 + j, start, i0), f[j].value, vc[j], vs[j])) slow[j] = true;
      block_slow = block_slow || slow[j];
    }
    for (std::size_t i = i0; i < i0 + nb && i < rows; ++i) {
      const std::uint64_t p = start + i;
      const double e = (eb[i - i0] + ferr) * (1 + 0x1p-50);
      const bool step = i > i0;  // row i0 is the anchor itself
      row_runs<float> r{};
      math::sincos_result<float>* pairs = nullptr;
      if constexpr (has_row_pairs<Sink>) pairs = sink.row_pairs(i, j0, n);
      if constexpr (skips_unread_rows<Sink>)
        if (pairs == nullptr) {  // an unread row: the walk's step alone (none at the block's anchor)
          for (std::size_t k = 0; step && k < n; ++k) {
            const double c = vc[k] * c1[k] - vs[k] * s1[k];
            vs[k] = vs[k] * c1[k] + vc[k] * s1[k];
            vc[k] = c;
          }
          continue;
        }
      bool direct = false;
      if constexpr (has_row_runs<Sink>) direct = pairs == nullptr && sink.row_runs(i, j0, n, r);
      std::size_t j = 0;
      if (pairs != nullptr && !block_slow && p != 0 && step) {
        // Assigned, not declared, an entry: Clang's evaluator allocates a local each time it is
        // declared. The walk's state and step are read once an entry, or once for two rows.
        double c = 0, s = 0, t = 0, k1 = 0, k2 = 0;
        float sv = 0, cv = 0;
        math::sincos_result<float>* q = pairs;
        math::sincos_result<float>* q2 = nullptr;  // pairs != nullptr: the sink has row_pairs
        const bool pass_of_two = two_rows && i + 1 < i0 + nb && i + 1 < rows;
        if (pass_of_two)
          if constexpr (has_row_pairs<Sink>) q2 = sink.row_pairs(i + 1, j0, n);
        if (skips_unread_rows<Sink> && pass_of_two &&
            q2 == nullptr) {  // skips_unread_rows: row i, then row i + 1's step alone
          for (; j < n; ++j, ++q) {
            k1 = c1[j], k2 = s1[j], c = vc[j], s = vs[j];
            t = c * k1 - s * k2, s = s * k1 + c * k2, c = t;
            sv = static_cast<float>(s - e), cv = static_cast<float>(c - e);
            if (sv != static_cast<float>(s + e) || cv != static_cast<float>(c + e)) {
              *q = undecided_entry(src, f[j], column_position(src, j0 + j, start, i), j0 + j, st);
            } else {
              q->sin = sv, q->cos = cv;
            }
            t = c * k1 - s * k2, s = s * k1 + c * k2, c = t;
            vc[j] = c, vs[j] = s;
          }
          if constexpr (has_end_row<Sink>) sink.end_row(i, j0, n);
          ++i;                       // row i + 1, unread, is stepped past (its end_row below finds no token)
        } else if (q2 != nullptr) {  // rows i and i + 1: both steps of the walk
          const double e2 = (eb[i + 1 - i0] + ferr) * (1 + 0x1p-50);
          for (; j < n; ++j, ++q, ++q2) {
            k1 = c1[j], k2 = s1[j], c = vc[j], s = vs[j];
            t = c * k1 - s * k2, s = s * k1 + c * k2, c = t;
            sv = static_cast<float>(s - e), cv = static_cast<float>(c - e);
            if (sv != static_cast<float>(s + e) || cv != static_cast<float>(c + e)) {
              *q = undecided_entry(src, f[j], column_position(src, j0 + j, start, i), j0 + j, st);
            } else {  // two scalar stores: a braced pair costs Clang's evaluator a temporary
              q->sin = sv, q->cos = cv;
            }
            t = c * k1 - s * k2, s = s * k1 + c * k2, c = t;
            sv = static_cast<float>(s - e2), cv = static_cast<float>(c - e2);
            if (sv != static_cast<float>(s + e2) || cv != static_cast<float>(c + e2)) {
              *q2 = undecided_entry(src, f[j], column_position(src, j0 + j, start, i + 1), j0 + j, st);
            } else {
              q2->sin = sv, q2->cos = cv;
            }
            vc[j] = c, vs[j] = s;
          }
          if constexpr (has_end_row<Sink>) sink.end_row(i, j0, n);
          ++i;  // row i + 1 is written: the end_row below is its own (j == n skips the loops between)
        } else {
          for (; j < n; ++j, ++q) {
            c = vc[j] * c1[j] - vs[j] * s1[j];
            s = vs[j] * c1[j] + vc[j] * s1[j];
            vc[j] = c, vs[j] = s;
            sv = static_cast<float>(s - e), cv = static_cast<float>(c - e);
            if (sv != static_cast<float>(s + e) || cv != static_cast<float>(c + e)) {
              *q = undecided_entry(src, f[j], column_position(src, j0 + j, start, i), j0 + j, st);
            } else {
              q->sin = sv, q->cos = cv;
            }
          }
        }
      }
      if (direct && !block_slow && p != 0 && step && r.sin_stride == r.cos_stride) {
        // Both runs step alike (the sinusoidal layouts do): one offset k serves both.
        float* const sp = r.sin;
        float* const cp = r.cos;
        const std::size_t step_k = r.sin_stride, nc = r.cos_count;
        for (std::size_t k = 0; j < nc; ++j, k += step_k) {  // one local: Clang allocates each
          const double c = vc[j] * c1[j] - vs[j] * s1[j];
          vs[j] = vs[j] * c1[j] + vc[j] * s1[j];
          vc[j] = c;
          sp[k] = static_cast<float>(vs[j] - e);
          cp[k] = static_cast<float>(c - e);
          if (sp[k] != static_cast<float>(vs[j] + e) || cp[k] != static_cast<float>(c + e)) {
            const math::sincos_result<float> x =
                undecided_entry(src, f[j], column_position(src, j0 + j, start, i), j0 + j, st);
            sp[k] = x.sin;
            cp[k] = x.cos;
          }
        }
      }
      for (; j < n; ++j) {
        if (step) {
          const double c = vc[j] * c1[j] - vs[j] * s1[j];
          const double s = vs[j] * c1[j] + vc[j] * s1[j];
          vc[j] = c;
          vs[j] = s;
        }
        float sv = static_cast<float>(vs[j] - e), cv = static_cast<float>(vc[j] - e);
        if (column_position(src, j0 + j, start, i) == 0) {
          sv = 0.0f, cv = 1.0f;
        } else if (slow[j] || sv != static_cast<float>(vs[j] + e) || cv != static_cast<float>(vc[j] + e)) {
          const math::sincos_result<float> x =
              undecided_entry(src, f[j], column_position(src, j0 + j, start, i), j0 + j, st);
          sv = x.sin, cv = x.cos;
        }
        if (pairs != nullptr) {
          pairs[j].sin = sv, pairs[j].cos = cv;
        } else if (direct) {
          r.sin[j * r.sin_stride] = sv;
          if (j < r.cos_count) r.cos[j * r.cos_stride] = cv;
        } else {
          sink.store(i, j0, j, math::sincos_result<float>{sv, cv});
        }
      }
      if constexpr (has_end_row<Sink>) sink.end_row(i, j0, n);
    }
  }
  return st;
}

}  // namespace posenc::detail::sincos_table
