// rope_verify.hpp: verify a RoPE cos/sin table of any size, posenc's own or one someone else built,
// against the MPFR oracle and every law of the registry, on all cores (`posenc verify rope`, the
// Python module's posenc.verify).
//
//   posenc::verify::rope_verify_request q{.config = llama31, .rows = 131072};
//   const posenc::verify::table_input own[] = {posenc::verify::own_table(posenc::verify::table_dtype::f32)};
//   const auto report = posenc::verify::verify_rope(q, own);         // report.hpp
//   std::vector<float> cos(rows * d), sin(rows * d);                   // a framework's cache
//   const posenc::verify::table_input theirs[] = {posenc::verify::given_table<float>(cos, sin)};
//   if (!posenc::verify::verify_rope(q, theirs).passed()) ...
//
// What is checked, for each table (one per dtype):
//  - every entry (every element of every row, cos and sin) against RN_T of the exact value, from
//    rope_table_oracle.hpp (MPFR at 320 bits, each value proven to round alike to every format):
//    whether it is that correctly rounded value, how many representable steps it is from it (at
//    most max_ulp allowed), and its error in ULPs of the exact value (definitions: compare.hpp);
//  - every law of registry::every_law, by its core (constexpr) definition, on each block of
//    verify_block_rows rows (verify/law_measures/table_laws.hpp), with the table in the other layout for
//    layout equivalence when the table is posenc's own.
// A q15/q31 table (numeric/fixed_point.hpp) is held to RN_even(x 2^F) saturated, its ULP being the
// grid step 2^-F; its findings count the saturated entries, and only the laws that hold of such
// tables run, at their quantised bounds (registry fixed_point_too, laws/bounds.hpp).
// The MPFR value of a (position, pair) is computed once and serves every dtype's table. Blocks are
// the unit of work: threads take them in any order, and a shard (request.shard) takes a fixed
// range of them, so the findings do not depend on either (blocks.hpp runs them; report.hpp). Cost: one
// mpfr_sin_cos per pair and position, about 4 us: a 131072 x 64-pair table in two dtypes takes
// about 17 s on two cores.
//
// A request that cannot be carried out (invalid config, positions past rope::max_table_position,
// spans of the wrong size, a shard index not below the count) throws std::invalid_argument with one
// line naming it. Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/fixed_point_table.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/seq_len.hpp"
#include "posenc/verify/blocks.hpp"
#include "posenc/verify/compare.hpp"
#include "posenc/verify/law_measures/table_laws.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/report.hpp"
#include "posenc/verify/rope_table_oracle.hpp"

namespace posenc::verify {

struct rope_verify_request {
  rope::config config{};
  std::uint64_t start = 0;  // the table's first position
  std::uint64_t rows = 0;   // its number of rows (positions start .. start + rows - 1)
  rope::layout layout = rope::layout::half_split;
  bool fold_attention = false;  // entries af cos, af sin
  std::uint64_t max_ulp = 0;    // representable steps an entry may be from RN_T(exact); 0: correctly rounded
  shard_spec shard{};           // verify only this slice of the blocks
  unsigned threads = 0;         // 0: every hardware thread
  // Called (from the worker threads, one call at a time) after each block: blocks done, of how many.
  std::function<void(std::uint64_t, std::uint64_t)> progress{};
  std::string description{};  // what the table is, for the report (merge compares it)
};

// One table to verify: someone else's (cos and sin, rows x rotary_dim entries each, row-major, in
// request.layout), or, with null pointers, posenc's own table built block by block (own_table).
struct table_input {
  table_dtype dtype = table_dtype::f32;
  const void* cos = nullptr;
  const void* sin = nullptr;
  std::size_t size = 0;  // entries in each of cos and sin
};

inline table_input own_table(table_dtype t) noexcept { return {t, nullptr, nullptr, 0}; }

template <class T>
table_input given_table(std::span<const T> cos, std::span<const T> sin) {
  if (cos.size() != sin.size()) throw std::invalid_argument("the cos and sin arrays differ in size");
  return {dtype_of<T>(), cos.data(), sin.data(), cos.size()};
}

namespace detail::rv {

// The exact values of a block, computed once for every dtype: per (row, pair), cos and sin as an
// unevaluated sum hi + lo of doubles (relative error below 2^-105, for the ULP errors), the binade
// exponent of the exact value (for the ULP), and RN_T of each value in each dtype asked for.
struct exact_block {
  std::size_t pairs = 0;
  std::vector<double> hi[2], lo[2];               // [0] cos, [1] sin; index r * pairs + j
  std::vector<long> binade[2];                    // floor(log2 |exact|), or zero_binade for 0
  std::vector<std::uint64_t> rn[dtype_count][2];  // by dtype, RN_T bits
};

inline void compute_exact(const rope_table_oracle& oracle, std::uint64_t first_position, std::size_t n, bool fold,
                          const bool (&wanted)[dtype_count], exact_block& e) {
  const std::size_t cells = n * e.pairs;
  for (int w = 0; w < 2; ++w) {
    e.hi[w].resize(cells);
    e.lo[w].resize(cells);
    e.binade[w].resize(cells);
    for (int t = 0; t < dtype_count; ++t)
      if (wanted[t]) e.rn[t][w].resize(cells);
  }
  rope_table_oracle::value v;
  rope_detail::M tmp(rope_table_oracle::prec);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t j = 0; j < e.pairs; ++j) {
      oracle.eval(first_position + r, static_cast<int>(j), fold, v);
      const std::size_t i = r * e.pairs + j;
      const mpfr_srcptr y[2] = {v.cos.get(), v.sin.get()};
      for (int w = 0; w < 2; ++w) {
        posenc::verify::detail::split_exact(y[w], tmp.get(), e.hi[w][i], e.lo[w][i], e.binade[w][i]);
        if (wanted[0]) e.rn[0][w][i] = posenc::verify::detail::rn_bits<double>(y[w]);
        if (wanted[1]) e.rn[1][w][i] = posenc::verify::detail::rn_bits<float>(y[w]);
        if (wanted[2]) e.rn[2][w][i] = posenc::verify::detail::rn_bits<posenc::bfloat16>(y[w]);
        if (wanted[3]) e.rn[3][w][i] = posenc::verify::detail::rn_bits<posenc::float16>(y[w]);
        if (wanted[4]) e.rn[4][w][i] = posenc::verify::detail::rn_bits<posenc::q15>(y[w]);
        if (wanted[5]) e.rn[5][w][i] = posenc::verify::detail::rn_bits<posenc::q31>(y[w]);
      }
    }
}

// The findings of one dtype's table on one block. cos/sin point at the block's n rows of d entries;
// other_cos/other_sin at the same rows in the other layout, or null.
template <class T>
void check_block(const rope_verify_request& q, const exact_block& e, std::uint64_t first_position, std::size_t n,
                 std::size_t d, const T* cos, const T* sin, const T* other_cos, const T* other_sin, dtype_findings& f,
                 std::vector<law_findings>& laws) {
  constexpr int t = posenc::verify::detail::dtype_index<T>();
  f.dtype = dtype_of<T>();
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t k = 0; k < d; ++k) {
      const std::size_t j = posenc::laws::detail::pair_of_element(q.layout, k, d);
      const std::size_t i = r * e.pairs + j;
      for (int w = 0; w < 2; ++w) {
        const T got = (w == 0 ? cos : sin)[r * d + k];
        const table_entry at{first_position + r, static_cast<std::uint32_t>(k), w == 1};
        posenc::verify::detail::compare_entry<T>(f, got, e.rn[t][w][i], e.hi[w][i], e.lo[w][i], e.binade[w][i], at,
                                                 q.max_ulp);
        if constexpr (fixed_point_type<T>)
          f.saturated += posenc::verify::detail::saturates<T>(e.hi[w][i], e.lo[w][i]) ? 1u : 0u;
      }
    }
  const posenc::laws::span_table<T> view{std::span<const T>(cos, n * d), std::span<const T>(sin, n * d), d, q.layout,
                                         first_position};
  const rope::layout other =
      q.layout == rope::layout::half_split ? rope::layout::interleaved : rope::layout::half_split;
  const posenc::laws::span_table<T> other_view{std::span<const T>(other_cos, other_cos ? n * d : 0),
                                               std::span<const T>(other_sin, other_sin ? n * d : 0), d, other,
                                               first_position};
  const auto outcomes = posenc::verify::law_measures::run_table_laws<posenc::laws::span_table<T>>(
      {view,
       other_cos != nullptr ? &other_view : nullptr,
       q.config,
       static_cast<std::size_t>(q.config.head_dim),
       {.max_ulp = q.max_ulp, .fold_attention = q.fold_attention}});
  for (const auto& o : outcomes)
    laws.push_back(law_findings::from(dtype_of<T>(), o.law, o.ran ? &o.result : nullptr, o.skipped));
}

// posenc's own table of the block in layout lay.
template <class T>
void fill_block(const rope_verify_request& q, std::uint64_t first_position, std::size_t n, std::size_t d,
                rope::layout lay, std::vector<T>& cos, std::vector<T>& sin) {
  cos.assign(n * d, T{});
  sin.assign(n * d, T{});
  const auto filled = rope::fill_table<T>(q.config, std::span<T>(cos), std::span<T>(sin), lay,
                                          {.start = first_position, .fold_attention = q.fold_attention});
  posenc::status st = posenc::status::ok;
  if constexpr (fixed_point_type<T>)  // a saturation is counted against the oracle, not an error here
    st = filled.error;
  else
    st = filled;
  if (st != posenc::status::ok)
    throw std::invalid_argument(std::string("posenc cannot build this table: ") + posenc::to_string(st) +
                                (st == posenc::status::overflow ? " (a folded entry overflows the dtype)" : ""));
}

template <class T>
void verify_block_of(const rope_verify_request& q, const table_input& in, const exact_block& e, std::uint64_t row0,
                     std::size_t n, std::size_t d, dtype_findings& f, std::vector<law_findings>& laws) {
  const std::uint64_t first_position = q.start + row0;
  if (in.cos != nullptr) {
    const T* c = static_cast<const T*>(in.cos) + row0 * d;
    const T* s = static_cast<const T*>(in.sin) + row0 * d;
    check_block<T>(q, e, first_position, n, d, c, s, nullptr, nullptr, f, laws);
    return;
  }
  std::vector<T> c, s, oc, os;
  fill_block<T>(q, first_position, n, d, q.layout, c, s);
  fill_block<T>(q, first_position, n, d,
                q.layout == rope::layout::half_split ? rope::layout::interleaved : rope::layout::half_split, oc, os);
  check_block<T>(q, e, first_position, n, d, c.data(), s.data(), oc.data(), os.data(), f, laws);
}

}  // namespace detail::rv

// Verifies the tables (one per dtype, each given or posenc's own) of the request's positions.
inline verify_report verify_rope(const rope_verify_request& given, std::span<const table_input> tables) {
  namespace rv = detail::rv;
  // Dynamic NTK and LongRoPE with seq_len unset read the whole table's length, as HF does
  // (rope/seq_len.hpp): resolved here, once, so that every block and shard sees the same config.
  rope_verify_request q = given;
  if (q.rows > 0) q.config = rope::with_seq_len_of_positions(q.config, q.start + (q.rows - 1));
  const auto t0 = std::chrono::steady_clock::now();
  bool wanted[dtype_count] = {};
  detail::distinct_dtypes(tables, wanted);  // no table, or two of one dtype, is an error
  if (q.rows == 0) throw std::invalid_argument("the table has no rows");
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(q.config));
  if (const rope::validation v = rope::check_table(q.config, static_cast<std::size_t>(q.rows), d, q.start); !v)
    throw std::invalid_argument(v.message);
  for (const table_input& in : tables) {
    if (in.cos != nullptr && (in.sin == nullptr || in.size != q.rows * d))
      throw std::invalid_argument("the " + std::string(dtype_name(in.dtype)) + " table has " + std::to_string(in.size) +
                                  " entries in each of cos and sin, expected " + std::to_string(q.rows) + " rows x " +
                                  std::to_string(d) + " = " + std::to_string(q.rows * d));
  }

  verify_report rep;
  rep.scheme = "rope";
  rep.description = q.description;
  rep.keys = {"position - start", "element"};
  rep.shape = {q.rows, d};
  rep.naming = entry_naming::cos_sin;
  rep.start = q.start;
  rep.rows = q.rows;
  rep.block_rows = verify_block_rows;
  rep.max_ulp_allowed = q.max_ulp;
  const rope_table_oracle oracle(q.config);
  run_blocks(rep, {q.shard, q.threads, q.progress}, [&](std::uint64_t block, block_findings& out) {
    rv::exact_block e;
    e.pairs = d / 2;
    const std::uint64_t row0 = block * verify_block_rows;
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(verify_block_rows, q.rows - row0));
    rv::compute_exact(oracle, q.start + row0, n, q.fold_attention, wanted, e);
    for (const table_input& in : tables) {
      out.dtypes.emplace_back();
      detail::with_dtype<true>(in.dtype, [&]<class T>(std::type_identity<T>) {
        rv::verify_block_of<T>(q, in, e, row0, n, d, out.dtypes.back(), out.laws);
      });
    }
  });
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

}  // namespace posenc::verify
