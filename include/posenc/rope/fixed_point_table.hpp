// fixed_point_table.hpp: RoPE cos/sin tables in CMSIS-DSP's q15 and q31 (numeric/fixed_point.hpp),
// for cores without an FPU. The same calls as fill.hpp's, with a fixed-point T:
//
//   rope::fill_table<q15>(cfg, cos, sin, layout, options)          -> posenc::fixed_fill_status
//   rope::fill_table<q31>(cfg, positions, cos, sin, layout, fold)
//   rope::fill_pair_table<q15>(cfg, out, options), (cfg, positions, out, fold)
// and rope::make_table / make_pair_table (table.hpp), whose tables then carry the count.
//
// Each value is RN_even(x 2^F) of the exact x = cos/sin(p theta_j) (or af cos, af sin with
// fold_attention), F = 15 or 31, rounded once and then saturated to [-2^F, 2^F - 1] as CMSIS does
// (cos 0 = 1 becomes 0x7FFF, q31 0x7FFFFFFF). The returned status is that of fill.hpp (domain_error
// for a broken precondition, which in constant evaluation is a compile error naming it), and
// `saturated` counts the values clamped: each cos and sin of a row and pair once, whatever the
// layout's copies. A saturation is not an error (CMSIS's own tables hold 0x7FFF for 1.0).
//
// How the bits are decided (docs/fixed-point.md): the table engine rounds each entry into float
// (q15) or double (q31) by its two-ended test; every grid midpoint is such a value, so that
// rounding gives the grid value unless it IS a midpoint; those few entries are decided by the
// entry's correctly rounded double (q15), and the rarer ones left by the exact angle's 256-bit
// enclosure (detail/angle_mp.hpp), in math/detail/sincos_table_fixed.hpp.
// Cost: a float table's for q15; a double table's for q31 (in constant evaluation the double
// tables' scalar path per entry, so keep constexpr q31 tables small).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/sincos_table_engine.hpp"
#include "posenc/math/detail/sincos_table_fixed.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/angle_mp.hpp"
#include "posenc/rope/detail/table_column.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/seq_len.hpp"
#include "posenc/status.hpp"

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// The enclosures of cos/sin(p theta_j) (times af when fold) at 64 L bits. p == 0 or a frequency-0
// pair (proportional): the angle is exactly 0, so sin = 0 and cos = 1 (or af) exactly.
constexpr auto fixed_entry_enclosure(const rope::config& c, std::uint64_t p, int j, bool fold,
                                     bool zero_angle) noexcept {
  return [&c, p, j, fold, zero_angle](auto lv) {
    constexpr int L = decltype(lv)::value;
    if (!zero_angle && p != 0) return scaled_sincos_approx<L>(c, p, j, fold);
    mp::sincos_approx<L> r{};
    r.sin = {mp::bigfloat<L>{}, mp::exact_err};
    r.cos = fold ? attention_mp<L>(c) : eval::mp_num<L>::of(1.0);
    return r;
  };
}

// An entry's double rounding and enclosure from its row and pair (sincos_table_fixed.hpp).
struct fixed_resolver {
  const rope::config* c;
  std::uint64_t start;
  const std::uint64_t* list;
  const attention_value* af;  // nullptr: not folded
  constexpr std::uint64_t position(std::size_t i) const noexcept { return list != nullptr ? list[i] : start + i; }
  constexpr posenc::result<math::sincos_result<double>> rounded_double(std::size_t i, std::size_t j) const noexcept {
    const rope::frequency_value f = rope::frequency_dd(*c, static_cast<int>(j));
    if (!f.ok()) return {{}, f.error};
    return sincos_with<double>(*c, f, af, position(i), static_cast<int>(j));
  }
  constexpr auto operator()(std::size_t i, std::size_t j) const noexcept {
    return fixed_entry_enclosure(*c, position(i), static_cast<int>(j), af != nullptr, false);
  }
};

template <fixed_point_type Q>
constexpr fixed_fill_status fill_fixed_resolved(const rope::config& c, fill_request<Q> q, std::size_t rows,
                                                std::size_t d, std::size_t width) noexcept {
  using S = sincos_table::fixed_engine_type<Q>;
  if (const rope::validation v = check_fill(c, q, rows, d); !v) return {v.error, 0};
  q.dest.stride = width;
  const attention_value af = q.fold ? attention_dd(c) : attention_value{};
  const attention_value* const fold = q.fold ? &af : nullptr;
  sincos_table::fixed_sink<Q, table_dest<Q>, fixed_resolver> sink{&q.dest, {&c, q.start, nullptr, fold}};
  const std::size_t rotating = static_cast<std::size_t>(rope::detail::rotating_pairs(c));
  const rope_source src{&c};
  posenc::status st = posenc::status::ok;
  if (q.by_list) {
    // A list's runs of consecutive positions as range fills, as fill.hpp's fill_list_rows.
    std::size_t min_run = list_run_length();  // not a const: its initialiser would be constant-evaluated
    st = for_list_parts(q.list, rows, min_run,
                        [&](std::uint64_t start, std::size_t n, const std::uint64_t* list, std::size_t first_row) {
                          table_dest<Q> to = rows_from(q.dest, first_row, width);
                          sincos_table::fixed_sink<Q, table_dest<Q>, fixed_resolver> part{&to, {&c, start, list, fold}};
                          posenc::status e = sincos_table::fill_rows<S>(src, start, n, rotating, list, fold, part);
                          sink.saturated += part.saturated;
                          return e == posenc::status::ok ? part.error : e;
                        });
  } else {
    st = sincos_table::fill_rows<S>(src, q.start, rows, rotating, nullptr, fold, sink);
    if (st == posenc::status::ok) st = sink.error;
  }
  if (st == posenc::status::ok && rotating < d / 2) {
    // Proportional's frequency-0 pairs: the value at angle 0, the same in every row.
    const auto k = sincos_with<S>(c, rope::frequency_value{}, fold, 0, static_cast<int>(rotating));
    st = k.error;
    std::int64_t ks = 0, kc = 0;
    constexpr int F = fixed_format<Q>::fraction_bits;
    if (!sincos_table::grid_from_rounded(k.value.sin, F, ks) || !sincos_table::grid_from_rounded(k.value.cos, F, kc))
      if (!sincos_table::grid_from_enclosure(fixed_entry_enclosure(c, 0, 0, q.fold, true), F, ks, kc))
        st = posenc::status::domain_error;
    const std::uint64_t before = sink.saturated;
    const math::sincos_result<Q> v = sink.finish(ks, kc);
    sink.saturated = before + (sink.saturated - before) * rows * (d / 2 - rotating);
    q.dest.fill_constant_pairs(rows, rotating, v);
  }
  return {st, sink.saturated};
}

template <fixed_point_type Q>
constexpr fixed_fill_status fill_fixed(const rope::config& given, fill_request<Q> q) noexcept {
  const std::int64_t dim = rope::rotary_dim(given);
  const std::size_t d = dim > 0 ? static_cast<std::size_t>(dim) : 0;
  const std::size_t width = q.dest.pairs != nullptr ? d / 2 : d;
  const std::size_t rows = q.by_list ? q.list_size : (width == 0 ? 0 : q.size / width);
  if (rope::reads_seq_len(given) && given.seq_len == 0) {  // as fill.hpp: HF's sequence length
    const rope::config c = rope::with_seq_len_of_positions(given, last_position(q, rows));
    return fill_fixed_resolved<Q>(c, q, rows, d, width);
  }
  return fill_fixed_resolved<Q>(given, q, rows, d, width);
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

template <fixed_point_type Q>
constexpr fixed_fill_status fill_table(const config& c, std::span<Q> cos, std::span<Q> sin,
                                       layout l = layout::half_split, table_options o = {}) noexcept {
  return rope::detail::fill_fixed<Q>(c, {.start = o.start,
                                         .size = cos.size(),
                                         .sin_size = sin.size(),
                                         .fold = o.fold_attention,
                                         .dest = {cos.data(), sin.data(), nullptr, 0, l}});
}

template <fixed_point_type Q>
constexpr fixed_fill_status fill_table(const config& c, std::span<const std::uint64_t> positions, std::span<Q> cos,
                                       std::span<Q> sin, layout l = layout::half_split,
                                       bool fold_attention = false) noexcept {
  return rope::detail::fill_fixed<Q>(c, {.list = positions.data(),
                                         .list_size = positions.size(),
                                         .by_list = true,
                                         .size = cos.size(),
                                         .sin_size = sin.size(),
                                         .fold = fold_attention,
                                         .dest = {cos.data(), sin.data(), nullptr, 0, l}});
}

template <fixed_point_type Q>
constexpr fixed_fill_status fill_pair_table(const config& c, std::span<math::sincos_result<Q>> out,
                                            table_options o = {}) noexcept {
  return rope::detail::fill_fixed<Q>(c, {.start = o.start,
                                         .size = out.size(),
                                         .sin_size = out.size(),
                                         .fold = o.fold_attention,
                                         .dest = {nullptr, nullptr, out.data(), 0, layout::half_split}});
}

template <fixed_point_type Q>
constexpr fixed_fill_status fill_pair_table(const config& c, std::span<const std::uint64_t> positions,
                                            std::span<math::sincos_result<Q>> out,
                                            bool fold_attention = false) noexcept {
  return rope::detail::fill_fixed<Q>(c, {.list = positions.data(),
                                         .list_size = positions.size(),
                                         .by_list = true,
                                         .size = out.size(),
                                         .sin_size = out.size(),
                                         .fold = fold_attention,
                                         .dest = {nullptr, nullptr, out.data(), 0, layout::half_split}});
}

}  // namespace posenc::rope
