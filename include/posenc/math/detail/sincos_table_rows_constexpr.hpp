// sincos_table_rows_constexpr.hpp: the constant-evaluation path of the cos/sin table engine for
// float tables of consecutive positions, no folded amplitude, written into a sink that can say
// where a row's values go (row_runs: the sinusoidal tables). The same entries as every other path
// (an entry the test decides is correctly rounded; the others come from the source's scalar
// function); what differs is the cost inside the compiler.
//
// Why a path of its own: GCC's and Clang's constant evaluators pay for every call (GCC also keeps
// each call's arguments) and for every interpreted operation. The general path (fill_chunk) makes
// three calls an entry (entry, the rounding test, the sink's store) and computes B + rows / B
// accurate anchors a column; a 1024 x 512 float sinusoidal table cost 4.2x a trivial constexpr fill
// of the same array. Here an entry is the complex product, the two-ended float test and the two
// stores, written out in the row loop with no call; E_b, b < B, comes from the recurrence
// E_{b+1} = fl(E_b E_1) (bounds: entry_bounds, derived in sincos_table_rows.hpp), so a column costs
// rows / B + 1 accurate anchors with B up to 256 (docs/performance.md 2.2 has the figures).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

#include "posenc/math/detail/sincos_table_entry.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/status.hpp"

namespace posenc::detail::sincos_table {

// Where the columns [j0, j0 + n) of a row go: sin of column j0 + j at sin[j * sin_stride], its cos
// at cos[j * cos_stride] for j < cos_count (an encoding may have a sin without its cos: the
// paper's odd d).
template <class T>
struct row_runs {
  T* sin = nullptr;
  std::size_t sin_stride = 1;
  T* cos = nullptr;
  std::size_t cos_stride = 1;
  std::size_t cos_count = 0;
};

template <class Sink>
concept has_row_runs = requires(Sink& s, std::size_t i, row_runs<float>& r) {
  { s.row_runs(i, i, i, r) } -> std::same_as<bool>;
};

// Columns written in one pass, and E_b anchors (doubles in each of ec, es) they share. A row is
// written whole, left to right: GCC's constant evaluator appends an array element stored past the
// last one in constant time but inserts one stored before it in linear time, so a table written
// chunk after chunk of columns (the general path's 128) costs time quadratic in its size. A
// constant evaluation has no stack to spare, only operations: these arrays cost what is written.
inline constexpr std::size_t constexpr_columns_max = 512;
inline constexpr std::size_t constexpr_block_max = 256;
inline constexpr std::size_t constexpr_anchor_budget = 65536;

// Columns [j0, j0 + n) of rows i < rows at positions start + i, n <= constexpr_columns_max.
template <class Source, class Sink>
constexpr posenc::status fill_chunk_float_constexpr(const Source& src, std::uint64_t start, std::size_t rows,
                                                    std::size_t j0, std::size_t n, Sink& sink) noexcept {
  // B near sqrt(40 rows) (an accurate anchor costs about 40 recurrence steps here), within budget.
  std::size_t nb = 1;
  while (nb < constexpr_block_max && nb * nb < 40 * rows && 2 * nb * n <= constexpr_anchor_budget) nb *= 2;
  if (nb > rows) nb = rows;
  math::frequency_value f[constexpr_columns_max] = {};
  double c1[constexpr_columns_max] = {}, s1[constexpr_columns_max] = {};
  double ac[constexpr_columns_max] = {}, as[constexpr_columns_max] = {};
  bool slow[constexpr_columns_max] = {};
  double ec[constexpr_anchor_budget] = {}, es[constexpr_anchor_budget] = {};
  double eb[constexpr_block_max] = {};
  entry_bounds(eb, nb);
  const double end = static_cast<double>(start + rows);
  double ferr = 0;
  for (std::size_t j = 0; j < n; ++j) {
    f[j] = src.frequency(static_cast<int>(j0 + j));
    if (!f[j].ok()) return f[j].error;
    slow[j] = f[j].value.hi == 0 || !cis_anchor(1, f[j].value, c1[j], s1[j]);
    const double fe = end * dabs(f[j].value.hi) * (f[j].rel_err * 1.0000001);
    ferr = fe > ferr ? fe : ferr;
    ec[j] = 1;
    if (nb > 1) ec[n + j] = c1[j], es[n + j] = s1[j];
  }
  for (std::size_t b = 2; b < nb; ++b) {
    const double *pc = ec + (b - 1) * n, *ps = es + (b - 1) * n;
    double *qc = ec + b * n, *qs = es + b * n;
    for (std::size_t j = 0; j < n; ++j) {
      qc[j] = pc[j] * c1[j] - ps[j] * s1[j];
      qs[j] = ps[j] * c1[j] + pc[j] * s1[j];
    }
  }
  sink.begin_chunk(j0, n);
  posenc::status st = posenc::status::ok;
  for (std::size_t i0 = 0; i0 < rows; i0 += nb) {
    for (std::size_t j = 0; j < n; ++j)
      if (!slow[j] && !cis_anchor(start + i0, f[j].value, ac[j], as[j])) slow[j] = true;
    for (std::size_t i = i0; i < i0 + nb && i < rows; ++i) {
      const std::uint64_t p = start + i;
      const double e = (eb[i - i0] + ferr) * (1 + 0x1p-50);
      const double *pc = ec + (i - i0) * n, *ps = es + (i - i0) * n;
      row_runs<float> r{};
      const bool direct = sink.row_runs(i, j0, n, r);
      for (std::size_t j = 0; j < n; ++j) {
        const double c = ac[j] * pc[j] - as[j] * ps[j];
        const double s = as[j] * pc[j] + ac[j] * ps[j];
        float sv = static_cast<float>(s - e), cv = static_cast<float>(c - e);
        if (p == 0) {
          sv = 0.0f, cv = 1.0f;  // cis(0) = 1 exactly
        } else if (slow[j] || sv != static_cast<float>(s + e) || cv != static_cast<float>(c + e)) {
          const auto x = src.template entry<float>(f[j], nullptr, p, static_cast<int>(j0 + j));
          if (st == posenc::status::ok) st = x.error;
          sv = x.value.sin, cv = x.value.cos;
        }
        if (direct) {
          r.sin[j * r.sin_stride] = sv;
          if (j < r.cos_count) r.cos[j * r.cos_stride] = cv;
        } else {
          sink.store(i, j0, j, math::sincos_result<float>{sv, cv});
        }
      }
    }
  }
  return st;
}

}  // namespace posenc::detail::sincos_table
