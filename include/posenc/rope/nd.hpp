// nd.hpp: ND axial RoPE: a head's pairs split among 2, 3 or 4 position axes, each axis a 1D RoPE
// of its own dimension, correctly rounded: FLUX's EmbedND, 2D axial ViT RoPE.
//
//   constexpr int flux_axes[] = {16, 56, 56};
//   constexpr rope::nd_config flux{.axes_dim = flux_axes, .rope_theta = 10000.0};
//   rope::fill_nd_table<float>(flux, positions, cos, sin, rope::layout::interleaved);
//
// Axis a has the pairs [o_a, o_a + axes_dim[a] / 2) of the row, o_a the sum of the earlier axes'
// pairs, and pair o_a + k rotates by p_a theta_{a,k}, theta_{a,k} = rope_theta^(-2k / axes_dim[a]):
// the index restarts per axis and the exponent is over the axis dim, not the head dim (FLUX
// src/flux/math.py rope, layers.py EmbedND; ../shared/reference/pe-formulas-more.md 6.1, 6.2).
// Each axis is rope::axis_config(c, a) = {.head_dim = axes_dim[a], .rope_theta = rope_theta}, and
// an entry is rope::sincos_at<T>(axis_config(c, a), p_a, k) bit for bit.
//   FLUX.1: axes_dim {16, 56, 56}, theta 10000, interleaved pairs; text tokens at (0, 0, 0).
//   FLUX.2: axes_dim {32, 32, 32, 32}, theta 2000.
//   Qwen2-VL ViT, EVA-02, RoPE-ViT axial: two axes of head_dim / 2 (RoPE-ViT: theta 100).
//   Llama-4 vision: two axes of 44 at the 1-based grid positions x + 1, y + 1.
// angle = angle_unit::turns: pair o_a + k rotates by 2 pi p_a theta_{a,k} (DINOv3's 2 pi coord /
// period with period = 1 / theta; rope/turns.hpp), an entry rope::sincos_turns_at<T>(...) bit for bit.
//   DINOv3 ViT (head dim D): axes_dim {D/2, D/2} (y then x), theta 100, turns, half-split rows,
//   positions rope::dinov3_coord(i, H) (rope/dinov3.hpp).
// Positions are reals (EVA-02's fractional i * pt / ft; negative coordinates), axis-major:
// positions[a * tokens + i], each finite with |p| <= 2^21 (rope/real_position.hpp: the exact double).
// Errors: domain_error with the sentence of validate(cfg), or a shape that does not match; in
// constant evaluation a compile error naming it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/math/detail/sincos_table_engine.hpp"
#include "posenc/math/detail/sincos_table_entry.hpp"
#include "posenc/math/detail/turn_angle.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/frequency_cache.hpp"
#include "posenc/rope/detail/stream_fill.hpp"
#include "posenc/rope/detail/table_column.hpp"
#include "posenc/rope/detail/token_rows.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/real_position.hpp"
#include "posenc/rope/turns.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

// What p theta counts: radians (RoPE, FLUX) or turns (the angle is 2 pi p theta: DINOv3).
enum class angle_unit : unsigned char { radians, turns };

struct nd_config {
  std::span<const int> axes_dim{};  // each axis's rotary dim (even, > 0); their sum is the row's
  double rope_theta = 10000.0;      // FLUX's theta
  angle_unit angle = angle_unit::radians;
};

// The most axes a config may have (FLUX.2 has four).
inline constexpr std::size_t nd_max_axes = 8;
static_assert(nd_max_axes <= detail::max_position_streams, "an ND table reads one position stream an axis");

// Axis a as a 1D RoPE config.
constexpr config axis_config(const nd_config& c, std::size_t a) noexcept {
  return {.head_dim = c.axes_dim[a], .rope_theta = c.rope_theta};
}

// The row's rotary dim: the sum of the axes' dims.
constexpr int nd_rotary_dim(const nd_config& c) noexcept {
  int d = 0;
  for (const int a : c.axes_dim) d += a;
  return d;
}

}  // namespace posenc::rope

namespace posenc::rope::detail {

constexpr rope::validation validate_nd(const rope::nd_config& c, bool report) noexcept {
  if (c.axes_dim.empty()) return bad("axes_dim needs at least one axis", report);
  if (c.axes_dim.size() > rope::nd_max_axes) return bad("axes_dim has more than 8 axes", report);
  std::int64_t total = 0;
  for (const int a : c.axes_dim) {
    if (a <= 0 || a % 2 != 0) return bad("axes_dim entries must be even and positive", report);
    total += a;
  }
  if (total > 65536) return bad("the sum of axes_dim is above 65536", report);
  if (c.angle != rope::angle_unit::radians && c.angle != rope::angle_unit::turns)
    return bad("angle must be angle_unit::radians or angle_unit::turns", report);
  for (std::size_t a = 0; a < c.axes_dim.size(); ++a)
    if (const rope::validation v = validate_config(rope::axis_config(c, a), report); !v) return v;
  return {};
}

// The axis of pair j and its index inside the axis.
struct nd_pair {
  int axis = 0;
  int k = 0;
};
constexpr nd_pair nd_pair_of(const rope::nd_config& c, int j) noexcept {
  int a = 0;
  while (a + 1 < static_cast<int>(c.axes_dim.size()) && j >= c.axes_dim[static_cast<std::size_t>(a)] / 2) {
    j -= c.axes_dim[static_cast<std::size_t>(a)] / 2;
    ++a;
  }
  return {a, j};
}

// Axis a's positions on a grid: each is (-1)^s n 2^-shift with n an integer, shift >= 0 the least
// that holds them all, and n <= max_table_position; then [lo, hi] is the range of n. A position
// n 2^-shift at pair k is the 1D entry at integer position n of the axis config with its
// frequencies divided by 2^shift (grid_config: linear scaling, factor 2^shift), bit for bit: both
// are RN(cos, sin of the exact real n 2^-shift theta_k); a negative position negates sin. So
// EVA-02's i * 0.75 (shift 2, n = 3i) and negative coordinates take the 1D row kernels as integer
// positions do (shift 0); positions far apart on their grid (n past 2^21: i * 16 / 14 in doubles,
// whose last bits put them on a grid of 2^-50) are not a grid axis (near_grid_axis below).
// Found in one pass with the rows' order, and whether they are a progression first + step i.
struct axis_grid {
  bool rows = false;  // whether the axis is on a grid (grid_axis's result)
  std::uint64_t lo = 0, hi = 0;
  int shift = 0;
  row_order order = row_order::goes_back;
  bool progression = false;  // n = first + step i along the tokens, step >= 0
  std::uint64_t first = 0, step = 0;
};
constexpr bool grid_axis(std::span<const double> positions, std::size_t tokens, std::size_t a, axis_grid& g) noexcept {
  g = {};
  int& shift = g.shift;
  const double* const at = positions.data() + a * tokens;
  // One pass: n = |x| 2^shift at the shift found so far, one multiplication (exact: a power of
  // two), one compare and one conversion a token (through int64: one instruction, where double to
  // uint64 is a branch and two), about 1.5 ns a token at run time, a tenth of a 64-pair ND row
  // where every token has its own row. Only a position finer than the shift so far (a few tokens
  // at most: the shift only grows, to 21 at most) takes split_position's bit work, and raises the
  // shift, scaling the rows seen so far with it. Until 2026-11-29 every non-integer took
  // split_position and a second pass computed n: in constant evaluation a tenth of an own-rows
  // table's cost (bench/compile_time/nd_table.cpp variant 2 against 6). The same pass says how n
  // runs along the tokens (fill_grid_direct's condition), where a pass of its own cost as much again.
  double up = 1;  // 2^shift
  row_scan scan{};
  for (std::size_t i = 0; i < tokens; ++i) {
    double n = dabs(at[i]) * up;  // NaN, inf and |x| past 2^21: not below the bound
    auto q = static_cast<std::int64_t>(n <= static_cast<double>(max_table_position) ? n : 0.0);
    if (!(n <= static_cast<double>(max_table_position) && n == static_cast<double>(q))) {
      const rope::real_position r = rope::split_position(at[i]);
      // A bad position, or finer than 2^-21 (n past 2^21 unless 0), or n past 2^21 at this shift.
      if (!r.ok() || -r.scale_exp > 21 || -r.scale_exp <= shift) return false;
      const int more = -r.scale_exp - shift;  // rows seen so far times 2^more: steps of one no longer
      if (scan.hi > (max_table_position >> more)) return false;
      scan.rescale(more, i);
      shift = -r.scale_exp, up = pow2(shift);
      n = dabs(at[i]) * up;  // an integer now, exact
      if (!(n <= static_cast<double>(max_table_position))) return false;
      q = static_cast<std::int64_t>(n);
    }
    scan.add(static_cast<std::uint64_t>(q), i == 0);  // n <= 2^21 = max_table_position
  }
  g.lo = scan.lo, g.hi = scan.hi, g.order = scan.order();
  g.progression = scan.progression(), g.first = scan.first, g.step = scan.step;
  return g.rows = true;
}

// The 1D config whose integer position n is the axis's position n 2^-shift (see grid_axis).
constexpr rope::config grid_config(const rope::config& axis, int shift) noexcept {
  if (shift == 0) return axis;
  rope::config g = axis;  // axis_config: default scaling
  g.rope_type = scaling::linear;
  g.factor = pow2(shift);
  return g;
}

// A turns axis's frequencies, for its entries at negative positions whose sin is zero.
struct turns_zeros {
  const rope::config* axis = nullptr;
  const math::frequency_value* theta = nullptr;
};

// sin at -x from the row's sin at |x|: negated (RN(-y) = -RN(y), so an underflowed +0 becomes
// -0, as the scalar entries have it), except a zero of a turns axis (turns != nullptr): an exact
// quarter turn keeps +0 there (rope/turns.hpp) and an underflowed one does not, so that entry is
// the scalar function's (rare: a zero sin). In radians sin is never exactly 0 at x != 0.
template <class T>
constexpr T sin_at_negative(T s, const turns_zeros* turns, double x, std::size_t k) noexcept {
  const auto b = posenc::detail::float_format<T>::to_bits(s);
  if (turns == nullptr || static_cast<decltype(b)>(b << 1) != 0) return negated(s);
  return sincos_turns_split<T>(*turns->axis, turns->theta[k], rope::split_position(x), static_cast<int>(k)).value.sin;
}

// Token i at position x: its pairs from a 1D row of |x| (column[k] of dest's pairs from j0 on),
// copied, sin negated at a negative position (sin_at_negative; k is the axis's pair).
template <class T>
[[gnu::always_inline]] constexpr void gather_grid_pairs(const math::sincos_result<T>* from, std::size_t n, double x,
                                                        std::size_t i, std::size_t j0, const std::size_t* column,
                                                        table_dest<T>& dest,
                                                        const turns_zeros* turns = nullptr) noexcept {
  const bool negative = x < 0;  // -0.0: not (sin 0 stays +0)
  if (dest.pairs != nullptr) {  // in place: each call costs about what the copy does in constant evaluation
    math::sincos_result<T>* const to = dest.pairs + i * dest.stride + j0;
    if (negative) {
      for (std::size_t k = 0; k < n; ++k) to[column[k]] = {sin_at_negative(from[k].sin, turns, x, k), from[k].cos};
    } else {
      for (std::size_t k = 0; k < n; ++k) to[column[k]] = from[k];
    }
  } else {
    for (std::size_t k = 0; k < n; ++k)
      dest.store(i, j0, column[k],
                 negative ? math::sincos_result<T>{sin_at_negative(from[k].sin, turns, x, k), from[k].cos} : from[k]);
  }
}

// An axis's grid positions (grid_axis): token i at row n_i - lo.
struct grid_positions {
  const double* at = nullptr;  // the axis's positions
  double up = 1;               // 2^shift
  // Through int64 (n <= 2^21): one instruction, where double to uint64 is a branch and two.
  constexpr std::uint64_t n(std::size_t i) const noexcept {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(dabs(at[i]) * up));
  }
};

// The 1D rows lo .. hi of the axis's grid config into rows (pa pairs each), then each token's pairs
// of the axis gathered from them into dest's columns first .. first + pa.
template <class T>
constexpr posenc::status fill_nd_axis_rows(const rope::config& grid, std::uint64_t lo, std::uint64_t hi, std::size_t pa,
                                           math::sincos_result<T>* rows, const grid_positions& g, std::size_t tokens,
                                           std::size_t first, table_dest<T>& dest) noexcept {
  const std::size_t n_rows = static_cast<std::size_t>(hi - lo + 1);
  if (const posenc::status st = rope::fill_pair_table<T>(grid, std::span(rows, n_rows * pa), {.start = lo});
      st != posenc::status::ok)
    return st;
  constexpr std::size_t chunk = posenc::detail::sincos_table::chunk_columns;
  std::size_t column[chunk] = {};
  for (std::size_t k = 0; k < chunk; ++k) column[k] = k;
  for (std::size_t j0 = 0; j0 < pa; j0 += chunk) {
    const std::size_t n = pa - j0 < chunk ? pa - j0 : chunk;
    dest.begin_chunk(first + j0, n);
    for (std::size_t i = 0; i < tokens; ++i)
      gather_grid_pairs<T>(rows + static_cast<std::size_t>(g.n(i) - lo) * pa + j0, n, g.at[i], i, first + j0, column,
                           dest);
  }
  return posenc::status::ok;
}

// Axis positions near a progression, off any grid of 2^-s (EVA-02 at pt / ft = 2 / 3: i / 24 * 16
// in doubles, whose last bits put them on a grid of 2^-52): each |x| = r h + delta, h the least
// positive |x|, r an integer up to 2^21 (r = 0 only at x = 0: the row kernels write cis(0)
// exactly), |delta| <= 2^-20 h. Row r is then walked at step h theta_k, and the walk's value is
// within |delta| theta_k of cis(x theta_k): that angle error goes into the frequencies' bound
// (near_grid_rows), so the kernels' rounding test still decides only correctly rounded entries,
// and the others are rope::sincos_at of the row's own position. Float, bfloat16, float16 tables.
// A double's test could decide hardly any entry within that bound: the double row kernel instead
// turns row r by its own offset, cis(delta_r theta_k), |delta_r theta_k| <= 2^-30
// (near_grid_offset_source; sincos_table_rows_double.hpp), at run time.
struct near_grid {
  double h = 0;
  double max_delta = 0;  // the largest |x - r h|, rounded up
  std::uint64_t lo = 0, hi = 0;
  bool turns = false;                      // the axis's angle is 2 pi x theta_k (DINOv3: rope/turns.hpp)
  double inv_h = 0;                        // 1 / h, rounded
  row_order order = row_order::goes_back;  // how the rows run along the tokens
  bool progression = false;                // r = first + step i along the tokens
  std::uint64_t first = 0, step = 0;
  // The row of |x|: the integer nearest |x| / h, through a product (a fill reads it several times a
  // token, and a division costs about as much as a row's entry). Any rounding of the quotient
  // gives the same r where |x| is within 2^-20 h of r h (near_grid_axis checks that of this r), and
  // it never decreases as |x| grows. Callers: |x| / h below 2^21 (near_grid_axis).
  constexpr std::uint64_t row(double x) const noexcept {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(dabs(x) * inv_h + 0.5));
  }
};

constexpr bool near_grid_axis(const double* at, std::size_t tokens, near_grid& g) noexcept {
  double h = 0;
  for (std::size_t i = 0; i < tokens; ++i) {
    const double a = dabs(at[i]);
    if (!(a <= rope::max_real_position)) return false;
    if (a > 0 && (h == 0 || a < h)) h = a;
  }
  // Below 2^-900 the products r h could leave the normal range, where a rounding's error is no
  // longer relative (the bound below assumes it is): such axes take the scalar entries.
  if (!(h >= 0x1p-900)) return false;
  const near_grid at_h{h, 0, 0, 0, false, 1 / h};
  // Locals, not g's members, in the loop: a double store to g could alias at[i].
  double max_delta = 0;
  row_scan scan{};  // the rows' range and how they run, in the same pass (grid_axis)
  for (std::size_t i = 0; i < tokens; ++i) {
    const double a = dabs(at[i]);
    if (!(a * at_h.inv_h <= static_cast<double>(max_table_position))) return false;  // 1 / h past double: inf
    const std::uint64_t r = at_h.row(a);
    scan.add(r, i == 0);
    if (r == 0 && a != 0) return false;
    if (r != 0) {
      // P = RN(r h) is within 2^-53 |P| of r h, and a - P is exact when a and P are within a
      // factor 2 of each other (Sterbenz): so |delta| <= |fl(a - P)| + 2^-53 |P|, the sum's own
      // roundings in the (1 + 2^-50). Were a - P not exact, it would be at least P / 2 >= h / 2,
      // and the axis refused below either way. A bound, not delta itself (a TwoProduct a token
      // cost half of this pass: 4 ns a position); the rows' offsets take delta exactly
      // (near_grid_offset_source).
      const double P = static_cast<double>(r) * h;
      const double bound = (dabs(a - P) + dabs(P) * 0x1p-53) * (1 + 0x1p-50);
      if (!(bound <= h * 0x1p-20)) return false;
      max_delta = bound > max_delta ? bound : max_delta;
    }
  }
  g = {h, max_delta, scan.lo, scan.hi, false, at_h.inv_h, scan.order(), scan.progression(), scan.first, scan.step};
  return true;
}

// The scalar entry of pair k of a radian or turns axis at a split position (theta_k evaluated).
template <class T>
constexpr posenc::result<math::sincos_result<T>> axis_entry(const rope::config& axis, bool turns,
                                                            const math::frequency_value& theta_k,
                                                            const rope::real_position& x, int k) noexcept {
  return turns ? sincos_turns_split<T>(axis, theta_k, x, k) : sincos_at_split<T>(axis, theta_k, nullptr, x, k);
}

// Token i's pairs of the axis from the scalar function at its own position x (a token near a
// progression whose position differs in its last bits from its row's first token's), into
// dest's pairs first .. first + pa (begin_chunk done); st keeps the first error.
template <class T>
constexpr void store_own_entries(const rope::config& axis, bool turns, const math::frequency_value* theta, double x,
                                 std::size_t i, std::size_t pa, std::size_t first, table_dest<T>& dest,
                                 posenc::status& st) noexcept {
  const rope::real_position xi = rope::split_position(x);  // once a token, not a pair
  for (std::size_t k = 0; k < pa; ++k) {
    const auto e = axis_entry<T>(axis, turns, theta[k], xi, static_cast<int>(k));
    if (st == posenc::status::ok) st = e.error;
    dest.store(i, first, k, e.value);
  }
}

// A near-grid axis's rows as a source of the row kernels (sincos_source.hpp): column k steps by
// h theta_k, and the entry the test leaves undecided is the row's own position's: x_of(r), row
// r's |x| (0 at a row no token reads; a window's array, or the tokens' walk: token_rows.hpp).
template <class RowX>
struct near_grid_source {
  const rope::config* axis = nullptr;
  const math::frequency_value* step = nullptr;   // h theta_k, its bound covering the deviations
  const math::frequency_value* theta = nullptr;  // theta_k of the axis config
  RowX x_of;
  bool turns = false;  // the angle is 2 pi x theta_k (DINOv3: rope/turns.hpp)
  constexpr math::frequency_value frequency(int k) const noexcept { return step[k]; }
  template <class T>
  constexpr posenc::result<math::sincos_result<T>> entry(const math::frequency_value&, const math::amplitude*,
                                                         std::uint64_t r, int k) const noexcept {
    return axis_entry<T>(*axis, turns, theta[k], rope::split_position(x_of(r)), k);
  }
};

// Row r's |x| from a window's array: x_of_row[r - first].
struct window_row_x {
  const double* x_of_row = nullptr;
  std::uint64_t first = 0;
  constexpr double operator()(std::uint64_t r) const noexcept { return x_of_row[r - first]; }
};

// The same rows for the double row kernel: row r at r + delta_r / h steps (sincos_source.hpp's row
// offsets), delta_r = x_r - r h to one rounding (r h = P + p exactly, x_r - P exact as in
// near_grid_axis), divided by h with one more: with step_k's high part (2^-53 of h theta_k plus its
// bound), the kernel's t = o_r step_k is within 2^-50 |t| of delta_r theta_k. A row no token reads
// (x_of 0) has offset 0: its walk value is never read.
template <class RowX>
struct near_grid_offset_source : near_grid_source<RowX> {
  double h = 0;
  double offset_bound = 0;  // max_delta / h, rounded up
  constexpr double row_offset(std::uint64_t r) const noexcept {
    const double x = this->x_of(r);
    if (x == 0) return 0;
    const math::double_double rh = two_prod(static_cast<double>(r), h);
    return ((x - rh.hi) - rh.lo) / h;
  }
  constexpr double row_offset_bound() const noexcept { return offset_bound; }
};

// A near-grid axis's column k as the row kernels walk it: step_k = h theta_k (2 pi h theta_k in
// turns: 2 pi within 2^-107, two_pi_dd, a second product). The walk at row r is within
// r |h theta_k - step_k| + |delta_r| theta_k of cis(x_r theta_k); the kernels bound the first part
// by end |step_k| rel_err (end: the walk's last position), so rel_err gets delta_max / (h end) on
// top of theta's own bound and the products' rounding (dd_mul, below 2^-100). deviations = false
// leaves the second part out (double tables turn each row by its offset: near_grid_offset_source).
constexpr math::frequency_value near_grid_step(const near_grid& g, const math::frequency_value& theta_k, double end,
                                               bool deviations = true) noexcept {
  const double extra = deviations ? g.max_delta / (g.h * end) * (1 + 0x1p-40) : 0.0;
  const math::double_double ht = dd_mul(theta_k.value, g.h);
  return {g.turns ? dd_mul(ht, two_pi_dd) : ht, theta_k.rel_err * (1 + 0x1p-50) + 0x1p-99 + extra, posenc::status::ok};
}

// Rows p0 .. p0 + n_rows - 1 of a near-grid axis into sink (pa pairs each; x_of as in
// near_grid_source), each column walking near_grid_step's step to p0 + n_rows.
template <class T, class RowX, class Sink>
constexpr posenc::status near_grid_rows(const rope::config& axis, const math::frequency_value* theta,
                                        const near_grid& g, std::uint64_t p0, std::size_t n_rows, std::size_t pa,
                                        const RowX& x_of, Sink& sink) noexcept {
  math::frequency_value step[frequency_cache::capacity] = {};
  const double end = static_cast<double>(p0 + n_rows);
  for (std::size_t k = 0; k < pa; ++k) step[k] = near_grid_step(g, theta[k], end, !std::is_same_v<T, double>);
  const near_grid_source<RowX> src{&axis, step, theta, x_of, g.turns};
  if constexpr (std::is_same_v<T, double>) {
    const near_grid_offset_source<RowX> off{src, g.h, g.max_delta / g.h * (1 + 0x1p-50)};
    return posenc::detail::sincos_table::fill_rows<T>(off, p0, n_rows, pa, nullptr, nullptr, sink);
  } else {
    return posenc::detail::sincos_table::fill_rows<T>(src, p0, n_rows, pa, nullptr, nullptr, sink);
  }
}

// A near-grid axis, window by window of per_window rows (buffer: per_window x pa pairs, x_of_row:
// per_window doubles): each window's rows at the positions its tokens hold (a row no token reads
// at position 0), then each token's pairs copied from its row (sin negated for a negative x), or,
// for a token whose position differs in its last bits from the first at its row, its own scalar
// entries.
template <class T>
constexpr posenc::status fill_near_grid_axis(const rope::config& axis, const math::frequency_value* theta,
                                             const near_grid& g, const double* at, std::size_t tokens, std::size_t pa,
                                             std::size_t first, table_dest<T>& dest, math::sincos_result<T>* buffer,
                                             double* x_of_row, std::uint64_t per_window) noexcept {
  constexpr std::size_t chunk = posenc::detail::sincos_table::chunk_columns;
  std::size_t column[chunk] = {};
  for (std::size_t k = 0; k < pa; ++k) column[k] = k;
  posenc::status st = posenc::status::ok;
  const turns_zeros zeros{&axis, theta};
  dest.begin_chunk(first, pa);
  for (std::uint64_t p0 = g.lo; p0 <= g.hi; p0 += per_window) {
    const auto rows = static_cast<std::size_t>(g.hi - p0 + 1 < per_window ? g.hi - p0 + 1 : per_window);
    for (std::size_t r = 0; r < rows; ++r) x_of_row[r] = -1;
    for (std::size_t i = 0; i < tokens; ++i) {
      const std::uint64_t r = g.row(at[i]) - p0;  // wraps past rows when below p0
      if (r < rows && x_of_row[r] < 0) x_of_row[r] = dabs(at[i]);
    }
    for (std::size_t r = 0; r < rows; ++r)
      if (x_of_row[r] < 0) x_of_row[r] = 0;
    table_dest<T> window{nullptr, nullptr, buffer, pa, layout::half_split};
    if (const posenc::status e = near_grid_rows<T>(axis, theta, g, p0, rows, pa, window_row_x{x_of_row, p0}, window);
        e != posenc::status::ok)
      return e;
    for (std::size_t i = 0; i < tokens; ++i) {
      const std::uint64_t r = g.row(at[i]) - p0;
      if (r >= rows) continue;
      if (dabs(at[i]) == x_of_row[r]) {
        gather_grid_pairs<T>(buffer + static_cast<std::size_t>(r) * pa, pa, at[i], i, first, column, dest,
                             g.turns ? &zeros : nullptr);
      } else {
        store_own_entries<T>(axis, g.turns, theta, at[i], i, pa, first, dest, st);
      }
    }
  }
  return st;
}

// At run time: the windows' 16 KiB on the stack of this call alone, not of every ND fill.
template <class T>
[[gnu::noinline]] posenc::status fill_near_grid_windows(const rope::config& axis, const math::frequency_value* theta,
                                                        const near_grid& g, const double* at, std::size_t tokens,
                                                        std::size_t pa, std::size_t first,
                                                        table_dest<T>& dest) noexcept {
  math::sincos_result<T> buffer[stream_window_entries<T>];
  double x_of_row[stream_window_entries<T>];
  return fill_near_grid_axis<T>(axis, theta, g, at, tokens, pa, first, dest, buffer, x_of_row,
                                stream_window_entries<T> / pa);
}

// Whether one fill over the rows [lo, hi] of a stream, written straight into its tokens' rows
// (token_rows.hpp), pays: at most 16 rows a token (a row entry costs about 1.5 ns at run time, a
// scalar one about 60), as for the windows, but no limit on the rows: no window pays a set-up.
constexpr bool direct_rows_pay(std::uint64_t lo, std::uint64_t hi, std::size_t tokens) noexcept {
  return hi >= lo && hi - lo < 16 * static_cast<std::uint64_t>(tokens);
}

// In constant evaluation the one fill writes compact float rows in place (token_rows_sink's
// row_pairs); other tables keep the rows allocated for the evaluation and the gather there.
template <class T>
constexpr bool direct_in_constant_evaluation(const table_dest<T>& dest) noexcept {
  return std::is_same_v<T, float> && dest.pairs != nullptr;
}

// The axes write their pairs axis after axis, so each row's later pairs are first written after
// the next rows' earlier ones. GCC's evaluator pays for an array element first stored before the
// last one stored at a cost that grows with the table (two axes of 32 pairs at 4096 tokens: 1.94x
// the 1D table's cost an entry; docs/performance.md): there every element is first stored in
// order, as a 1D table stores it. The first axis's one fill does it as it goes when it can (a
// token's rest of row as zeros after its pairs, token_rows_sink); else this pass of zeros over the
// whole table, before the first fill that stores out of order (1.54x). Clang's evaluator holds a
// whole array from the start, so either would only cost it. pending: whether no element is stored
// yet, and the pass is still owed; false after it.
template <class T>
constexpr void store_zeros_in_order(table_dest<T>& dest, std::size_t size, bool& pending) noexcept {
  if (!pending) return;
  pending = false;
  if (dest.pairs != nullptr) {
    for (std::size_t k = 0; k < size; ++k) dest.pairs[k] = math::sincos_result<T>{};
  } else {
    for (std::size_t k = 0; k < size; ++k) dest.cos[k] = T{}, dest.sin[k] = T{};
  }
}

// Whether axis a's one fill (fill_grid_direct, fill_near_grid_direct) can store every element in
// order in place of store_zeros_in_order: the first axis, in one slice of the constant-evaluation
// kernel's columns.
constexpr bool zeros_as_it_goes(bool pending, std::size_t a, std::size_t pa) noexcept {
  return pending && a == 0 && pa <= posenc::detail::sincos_table::constexpr_columns_max;
}

// A grid axis whose rows never go back along the tokens (every token at its own row, a grid's row
// axis, a text run at 0) in one fill over [lo, hi] of the grid config, each row written into the
// rows of its tokens (sin negated at a negative coordinate, as gather_grid_pairs does): at run
// time, and for compact float tables in constant evaluation. True when it filled the axis (st:
// its status).
template <class T>
[[gnu::noinline]] constexpr bool fill_grid_direct(const rope::config& grid, std::uint64_t lo, std::uint64_t hi,
                                                  std::size_t pa, const grid_positions& g, std::size_t tokens,
                                                  std::size_t first, table_dest<T>& dest, posenc::status& st,
                                                  row_order order, bool zero_rest_of_row) noexcept {
  if (std::is_constant_evaluated() && !direct_in_constant_evaluation(dest)) return false;
  if (order == row_order::goes_back || !direct_rows_pay(lo, hi, tokens)) return false;
  const auto row_of = [&g](std::size_t k) { return g.n(k); };
  const frequency_cache theta = cache_frequencies(grid);
  token_walk<decltype(row_of)> walk{row_of, tokens, order == row_order::consecutive, lo};
  const auto negate = [](T s, double, std::size_t) { return negated(s); };
  token_rows_sink<T, decltype(row_of), decltype(negate)> sink{&walk, lo, first, &dest, g.at, negate, zero_rest_of_row};
  const rope_source src{&grid, theta.get()};
  st = posenc::detail::sincos_table::fill_rows<T>(src, lo, static_cast<std::size_t>(hi - lo + 1), pa, nullptr, nullptr,
                                                  sink);
  return true;
}

// A near-grid axis whose rows never go back along the tokens, in one fill over [g.lo, g.hi]
// written into its tokens' rows (when fill_grid_direct would be). A row's x is its first token's (the walk, which the
// source and the sink share: both seek the row the kernel is on); a later token at the row whose
// position differs in its last bits takes its own scalar entries after the fill. True when it
// filled the axis (st: its status).
template <class T>
[[gnu::noinline]] constexpr bool fill_near_grid_direct(const rope::config& axis, const math::frequency_value* theta,
                                                       const near_grid& g, const double* at, std::size_t tokens,
                                                       std::size_t pa, std::size_t first, table_dest<T>& dest,
                                                       posenc::status& st, bool zero_rest_of_row) noexcept {
  if (std::is_constant_evaluated() && !direct_in_constant_evaluation(dest)) return false;
  const auto row_of = [at, &g](std::size_t k) { return g.row(at[k]); };
  if (g.order == row_order::goes_back || !direct_rows_pay(g.lo, g.hi, tokens)) return false;
  token_walk<decltype(row_of)> walk{row_of, tokens, g.order == row_order::consecutive, g.lo};
  const auto x_of = [&walk, at](std::uint64_t r) {
    walk.seek(r);
    return walk.first < walk.last ? dabs(at[walk.first]) : 0.0;
  };
  const turns_zeros zeros{&axis, theta};
  const turns_zeros* const z = g.turns ? &zeros : nullptr;
  const auto negate = [z](T s, double x, std::size_t column) { return sin_at_negative(s, z, x, column); };
  token_rows_sink<T, decltype(row_of), decltype(negate)> sink{&walk, g.lo, first, &dest, at, negate, zero_rest_of_row};
  st = near_grid_rows<T>(axis, theta, g, g.lo, static_cast<std::size_t>(g.hi - g.lo + 1), pa, x_of, sink);
  if (st != posenc::status::ok || g.order == row_order::consecutive) return true;  // a token a row: its own x
  dest.begin_chunk(first, pa);
  std::uint64_t before = row_of(0);
  for (std::size_t k = 1, k0 = 0; k < tokens; ++k) {
    const std::uint64_t row = row_of(k);
    if (row != before) {
      k0 = k, before = row;  // the first token at its row: the row's x
      continue;
    }
    if (dabs(at[k]) != dabs(at[k0])) store_own_entries<T>(axis, g.turns, theta, at[k], k, pa, first, dest, st);
  }
  return true;
}

// An axis near a progression off any grid (near_grid_axis): its rows from the row kernels, at run
// time in windows on the stack, in constant evaluation (float types: double tables take every entry
// from the scalar function there) in rows allocated for the evaluation, when those pay; true when
// it filled the axis (st: its status). turns: DINOv3's angle in turns. near: near_grid_axis's
// finding for the axis (on: whether it is near a progression). zeros: as for
// store_zeros_in_order (true only where zeros_as_it_goes; size: the table's). Out of line, so
// that fill_nd's own code and frame stay as they were.
template <class T>
[[gnu::noinline]] constexpr bool fill_near_grid(const rope::config& axis, bool turns, near_grid ng, bool on,
                                                const double* at, std::size_t tokens, std::size_t pa, std::size_t first,
                                                table_dest<T>& dest, posenc::status& st, std::size_t size,
                                                bool& zeros) noexcept {
  if constexpr (std::is_same_v<T, double>)
    if (std::is_constant_evaluated()) return false;  // the row kernel's offsets are run time's alone
  if (!on) return false;
  ng.turns = turns;
  const frequency_cache theta = cache_frequencies(axis);
  if (theta.get() == nullptr) return false;
  const std::size_t ng_rows = static_cast<std::size_t>(ng.hi - ng.lo + 1);
  if (fill_near_grid_direct<T>(axis, theta.get(), ng, at, tokens, pa, first, dest, st, zeros)) {
    zeros = false;
    return true;
  }
  store_zeros_in_order(dest, size, zeros);
  if (!std::is_constant_evaluated() && stream_windows_pay<T>(ng.lo, ng.hi, pa, tokens)) {
    st = fill_near_grid_windows<T>(axis, theta.get(), ng, at, tokens, pa, first, dest);
    return true;
  }
  if (__builtin_is_constant_evaluated()) {  // the builtin alone: see rows_worth_allocating
    if (rows_worth_allocating(ng_rows * pa, tokens * pa)) {
      math::sincos_result<T>* const own = new math::sincos_result<T>[ng_rows * pa];
      double* const own_x = new double[ng_rows];
      st = fill_near_grid_axis<T>(axis, theta.get(), ng, at, tokens, pa, first, dest, own, own_x, ng_rows);
      delete[] own_x;
      delete[] own;
      return true;
    }
  }
  return false;
}

// One axis's rows in nd_row_source: r = first + step i along the tokens, of its grid config, or for
// an axis near a progression (near != nullptr) of its axis config walked at near_grid_step's step
// (end: the kernel's last position, first + step tokens), an undecided entry the token's own.
struct nd_axis_rows {
  rope::config cfg{};
  const near_grid* near = nullptr;
  const double* x = nullptr;  // the axis's positions
  double end = 0;
  std::uint64_t first = 0, step = 0;
};

// Every axis's pairs of a token as the columns of one row: column j is pair k of axis a
// (nd_pair_of), and column j of row i is at position first + step i of the axis's rows
// (fill_progression_axes; sincos_table_rows_constexpr.hpp, has_column_progressions). Entries and
// frequencies are those of the axis's own fills (the grid config's, or near_grid_rows'), so are
// the bits.
struct nd_row_source {
  const rope::nd_config* c = nullptr;
  const nd_axis_rows* rows = nullptr;            // each axis's
  const math::frequency_value* theta = nullptr;  // theta_k of column j's axis config, for axes near a progression
  constexpr math::frequency_value frequency(int j) const noexcept {
    const nd_pair q = nd_pair_of(*c, j);
    const nd_axis_rows& r = rows[q.axis];
    return r.near == nullptr ? rope::frequency_dd(r.cfg, q.k) : near_grid_step(*r.near, theta[j], r.end);
  }
  template <class T>
  constexpr posenc::result<math::sincos_result<T>> entry(const math::frequency_value& f, const math::amplitude* af,
                                                         std::uint64_t p, int j) const noexcept {
    const nd_pair q = nd_pair_of(*c, j);
    const nd_axis_rows& r = rows[q.axis];
    if (r.near == nullptr) return sincos_with<T>(r.cfg, f, af, p, q.k);
    const double x = r.x[(p - r.first) / r.step];  // near a progression: step >= 1, a row a token
    return axis_entry<T>(r.cfg, false, theta[j], rope::split_position(x), q.k);
  }
  constexpr std::uint64_t column_first(std::size_t j) const noexcept {
    return rows[nd_pair_of(*c, static_cast<int>(j)).axis].first;
  }
  constexpr std::uint64_t column_step(std::size_t j) const noexcept {
    return rows[nd_pair_of(*c, static_cast<int>(j)).axis].step;
  }
};

// Each axis's config and how its positions run: on its grid (grid_axis; not in turns), or off any
// grid near a progression (near_grid_axis). fill_nd's paths read them, found once.
struct nd_axes_found {
  rope::config axis[rope::nd_max_axes] = {};
  axis_grid on[rope::nd_max_axes] = {};
  near_grid near[rope::nd_max_axes] = {};
  bool near_ok[rope::nd_max_axes] = {};
};
constexpr nd_axes_found find_axes(const rope::nd_config& c, std::span<const double> positions,
                                  std::size_t tokens) noexcept {
  nd_axes_found f{};
  for (std::size_t a = 0; a < c.axes_dim.size(); ++a) {
    f.axis[a] = rope::axis_config(c, a);
    if (c.angle != rope::angle_unit::turns) grid_axis(positions, tokens, a, f.on[a]);
    if (!f.on[a].rows) f.near_ok[a] = near_grid_axis(positions.data() + a * tokens, tokens, f.near[a]);
  }
  return f;
}

// Whether every axis's rows are a progression along the tokens, r = first + step i, on its grid
// (step >= 0, not held at 0) or near a progression off any grid (step >= 1: each row one token's),
// at positions >= 0, radians (f: find_axes). An axis held at 0 is not: each of its entries is
// cis(0) exactly, which the walk's test leaves to the scalar path (the axis fills write it as a
// row).
constexpr bool progression_axes(const rope::nd_config& c, const nd_axes_found& f,
                                std::span<const double> positions) noexcept {
  if (c.angle != rope::angle_unit::radians) return false;
  for (std::size_t a = 0; a < c.axes_dim.size(); ++a) {
    const axis_grid& on = f.on[a];
    const near_grid& near = f.near[a];
    const bool grid = on.rows && on.progression && (on.first != 0 || on.step != 0);
    const bool off_grid = !on.rows && f.near_ok[a] && near.progression && near.step > 0;
    if (!grid && !off_grid) return false;
  }
  for (const double x : positions)
    if (x < 0) return false;  // -0.0: not (sin 0 stays +0)
  return true;
}

// Such a table's compact float rows (progression_axes), any evaluation: a token's row is every
// axis's columns at their own progressions, one fill of the constant-evaluation row kernel over
// whole token rows, each row stored in order (sincos_table_rows_constexpr.hpp). theta: scratch of
// a frequency a pair (an axis near a progression walks h theta_k and takes an undecided entry at
// the token's own position from theta_k, evaluated once a column). The test runs it at run time
// on random tables (test_rope_stream_properties.cpp).
constexpr posenc::status fill_progression_rows(const rope::nd_config& c, const nd_axes_found& f,
                                               std::span<const double> positions, std::size_t tokens,
                                               table_dest<float>& dest, math::frequency_value* theta) noexcept {
  const std::size_t axes = c.axes_dim.size(), pairs = static_cast<std::size_t>(rope::nd_rotary_dim(c)) / 2;
  nd_axis_rows rows[rope::nd_max_axes] = {};
  for (std::size_t a = 0; a < axes; ++a) {
    nd_axis_rows& r = rows[a];
    r.x = positions.data() + a * tokens;
    if (f.on[a].rows) {
      r.cfg = grid_config(f.axis[a], f.on[a].shift), r.first = f.on[a].first, r.step = f.on[a].step;
    } else {
      r.cfg = f.axis[a], r.near = &f.near[a], r.first = f.near[a].first, r.step = f.near[a].step;
    }
    r.end = static_cast<double>(r.first + r.step * tokens);
  }
  for (std::size_t j = 0; j < pairs; ++j) {
    const nd_pair q = nd_pair_of(c, static_cast<int>(j));
    theta[j] = rows[q.axis].near != nullptr ? rope::frequency_dd(f.axis[q.axis], q.k) : math::frequency_value{};
    if (!theta[j].ok()) return theta[j].error;
  }
  const nd_row_source src{&c, rows, theta};
  return posenc::detail::sincos_table::fill_chunk_float_constexpr(src, 0, tokens, 0, pairs, dest);
}

// Constant evaluation, compact float rows: a table whose every axis is a progression along the
// tokens (progression_axes: a diagonal such as (i, i), or (i / 2, 3 + 3 i / 4), EVA-02's
// i / 24 * 16 against i * 0.1, an axis held at a position: every token at its own row, or all at
// one) is one fill of whole rows (fill_progression_rows). Axis after axis, each token's row took
// one fill's row an axis and, on GCC, zeros stored first for the later axes
// (store_zeros_in_order): two axes of 32 pairs cost 1.22-1.35x the 1D table an entry on GCC,
// 1.07-1.29x on Clang (docs/performance.md section 7). True when it filled the table (st: its
// status).
template <class T>
constexpr bool fill_progression_axes(const rope::nd_config& c, const nd_axes_found& f,
                                     std::span<const double> positions, std::size_t tokens, table_dest<T>& dest,
                                     posenc::status& st) noexcept {
  const std::size_t pairs = static_cast<std::size_t>(rope::nd_rotary_dim(c)) / 2;
  if (!std::is_constant_evaluated() || !direct_in_constant_evaluation(dest) || c.axes_dim.size() < 2 ||
      pairs > posenc::detail::sincos_table::constexpr_columns_max || !progression_axes(c, f, positions))
    return false;
  if constexpr (std::is_same_v<T, float>) {
    if (__builtin_is_constant_evaluated()) {  // the builtin alone: see rows_worth_allocating
      math::frequency_value* const theta = new math::frequency_value[pairs];
      st = fill_progression_rows(c, f, positions, tokens, dest, theta);
      delete[] theta;
    }
  }
  return true;
}

// In constant evaluation, a compact float table whose every axis is a progression along the tokens
// on its grid is one fill of whole rows (fill_progression_axes). Otherwise
// axis by axis. An axis of grid positions (grid_axis: integers, or fractions such as EVA-02's, of
// either sign) whose rows never go back along the tokens (every token at its own row, a grid's row
// axis) is one fill of the 1D row kernels over [lo, hi] written straight into its tokens' rows
// (fill_grid_direct: at run time, and for compact float tables in constant evaluation). Otherwise
// its 1D rows over [lo, hi] come from the row kernels and are gathered: into scratch when they fit
// it, else at run time window by window in a stack buffer (stream_fill.hpp) when that pays, in
// constant evaluation rows allocated for the evaluation when they are worth it. An axis near a
// progression off any grid (near_grid_axis) takes the row kernels at step h theta_k the same ways
// (no scratch; in constant evaluation float types only). Any other axis (positions far apart or
// with no common step), the scalar entries. The same bits every way (rope::sincos_at of the axis
// config).
template <class T>
constexpr posenc::status fill_nd(const rope::nd_config& c, std::span<const double> positions, std::size_t size,
                                 std::size_t sin_size, table_dest<T> dest,
                                 std::span<math::sincos_result<T>> scratch = {}) noexcept {
  if (const rope::validation v = validate_nd(c, std::is_constant_evaluated()); !v) return v.error;
  const std::size_t axes = c.axes_dim.size(), d = static_cast<std::size_t>(rope::nd_rotary_dim(c));
  const std::size_t tokens = positions.size() / axes, width = dest.pairs != nullptr ? d / 2 : d;
  if (positions.size() % axes != 0 || tokens == 0)
    return table_failure("ND RoPE positions must be axes x tokens, tokens > 0").error;
  if (size != sin_size) return table_failure("table cos and sin spans differ in size").error;
  if (size != tokens * width) return table_failure("table span size is not tokens times the row width").error;
  bool finite = true;  // split_position(p).ok(): NaN and the infinities fail both compares
  for (const double p : positions) finite = finite & (p <= rope::max_real_position) & (p >= -rope::max_real_position);
  if (!finite) return table_failure("ND RoPE positions must be finite, |p| <= 2^21").error;
  const nd_axes_found found = find_axes(c, positions, tokens);  // each axis's grid, or near grid
  const rope::config* const axis = found.axis;
  dest.stride = width;
  // GCC's constant evaluation: every element first stored in order (store_zeros_in_order).
  bool zeros = std::is_constant_evaluated() && !posenc::detail::sincos_table::clang_evaluator && axes > 1;
  const bool turns = c.angle == rope::angle_unit::turns;
  const auto plan = [&c, axis, turns](std::size_t j) {
    const nd_pair q = nd_pair_of(c, static_cast<int>(j));
    return stream_pair{&axis[q.axis], q.k, q.axis, turns};
  };
  const auto position = [positions, tokens](int s, std::size_t i) {
    return rope::split_position(positions[static_cast<std::size_t>(s) * tokens + i]);
  };
  if (posenc::status st = posenc::status::ok; fill_progression_axes<T>(c, found, positions, tokens, dest, st))
    return st;
  std::size_t first = 0;
  for (std::size_t a = 0; a < axes; ++a) {
    const std::size_t pa = static_cast<std::size_t>(c.axes_dim[a]) / 2;
    const std::uint64_t lo = found.on[a].lo, hi = found.on[a].hi;
    const int shift = found.on[a].shift;
    const row_order order = found.on[a].order;
    const bool rows = found.on[a].rows;
    const rope::config grid = grid_config(axis[a], shift);
    const grid_positions g{positions.data() + a * tokens, pow2(shift)};
    const std::size_t need = rows ? static_cast<std::size_t>(hi - lo + 1) * pa : 0;
    posenc::status st = posenc::status::ok;
    bool done = false;
    if (!zeros_as_it_goes(zeros, a, pa)) store_zeros_in_order(dest, size, zeros);
    if (rows) done = fill_grid_direct<T>(grid, lo, hi, pa, g, tokens, first, dest, st, order, zeros);
    if (done) zeros = false;
    if (rows) store_zeros_in_order(dest, size, zeros);
    if (!done && rows && need <= scratch.size()) {
      st = fill_nd_axis_rows<T>(grid, lo, hi, pa, scratch.data(), g, tokens, first, dest);
      done = true;
    }
    if (!done && rows && !std::is_constant_evaluated() && stream_windows_pay<T>(lo, hi, pa, tokens)) {
      // Run time, too little scratch: the axis's rows in windows of a stack buffer (stream_fill.hpp).
      const frequency_cache theta = cache_frequencies(grid);
      const auto fill_window = [&](std::uint64_t p0, std::size_t n_rows, math::sincos_result<T>* buffer) {
        const std::size_t n = n_rows * pa;
        return rope::detail::fill<T>(grid, {.start = p0,
                                            .size = n,
                                            .sin_size = n,
                                            .dest = {nullptr, nullptr, buffer, 0, layout::half_split},
                                            .frequencies = theta.get()});
      };
      const auto position_of = [&g](std::size_t i) { return g.n(i); };
      const auto negative_of = [&g](std::size_t i) { return g.at[i] < 0; };  // -0.0: not
      std::size_t column[posenc::detail::sincos_table::chunk_columns] = {};  // pa <= chunk_columns: windows pay
      for (std::size_t k = 0; k < pa; ++k) column[k] = k;
      dest.begin_chunk(first, pa);
      st = fill_stream_windows<T>(lo, hi, pa, tokens, fill_window, position_of, column, first, dest, negative_of);
      done = true;
    }
    if (__builtin_is_constant_evaluated()) {  // the builtin alone: see rows_worth_allocating
      if (!done && rows && rows_worth_allocating(need, tokens * pa)) {
        math::sincos_result<T>* const own = new math::sincos_result<T>[need];
        st = fill_nd_axis_rows<T>(grid, lo, hi, pa, own, g, tokens, first, dest);
        delete[] own;
        done = true;
      }
    }
    // Positions near a progression but off any grid: the row kernels too (fill_near_grid).
    if (!done && !rows)
      done = fill_near_grid<T>(axis[a], turns, found.near[a], found.near_ok[a], positions.data() + a * tokens, tokens,
                               pa, first, dest, st, size, zeros);
    store_zeros_in_order(dest, size, zeros);
    if (!done) st = fill_streams<T>(plan, pa, tokens, position, false, dest, first);
    if (st != posenc::status::ok) return st;
    first += pa;
  }
  return posenc::status::ok;
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// Every precondition of an ND config, as a value.
constexpr validation validate(const nd_config& c) noexcept { return rope::detail::validate_nd(c, false); }

// The entry of pair j for a token at the axes' positions pos (one per axis).
template <class T = double>
constexpr posenc::result<math::sincos_result<T>> nd_sincos(const nd_config& c, std::span<const double> pos,
                                                           int j) noexcept {
  if (!validate(c) || pos.size() != c.axes_dim.size() || j < 0 || j >= nd_rotary_dim(c) / 2)
    return {{}, posenc::status::domain_error};
  const auto q = rope::detail::nd_pair_of(c, j);
  const config axis = axis_config(c, static_cast<std::size_t>(q.axis));
  const double p = pos[static_cast<std::size_t>(q.axis)];
  return c.angle == angle_unit::turns ? rope::sincos_turns_at<T>(axis, p, q.k) : rope::sincos_at<T>(axis, p, q.k);
}

// Rows i < tokens (positions.size() / axes), expanded in layout l (FLUX: interleaved). An axis of
// integer positions, of fractions on a grid of 2^-s (EVA-02's i * 0.75) or of reals near a
// progression r h (i * 2 / 3 in doubles), either sign, comes from the 1D row kernels: where its
// positions never go back along the tokens (|x| nondecreasing: a grid's row axis, a stream of
// distinct positions), one fill writing each row into its tokens' rows; otherwise gathered from
// 1D rows filled at run time window by window in an 8 KiB stack buffer when that pays (positions
// not far apart; the scalar entries otherwise), in constant evaluation allocated for the
// evaluation (not for double tables of reals off a grid). DINOv3's turns axes take the
// near-progression path. Other axes take the scalar entries. posenc allocates nothing at run
// time. The same bits every way.
template <storage_type T>
constexpr posenc::status fill_nd_table(const nd_config& c, std::span<const double> positions, std::span<T> cos,
                                       std::span<T> sin, layout l = layout::interleaved) noexcept {
  return rope::detail::fill_nd<T>(c, positions, cos.size(), sin.size(), {cos.data(), sin.data(), nullptr, 0, l});
}

// Compact rows {sin, cos} per pair.
template <storage_type T>
constexpr posenc::status fill_nd_pair_table(const nd_config& c, std::span<const double> positions,
                                            std::span<math::sincos_result<T>> out) noexcept {
  return rope::detail::fill_nd<T>(c, positions, out.size(), out.size(),
                                  {nullptr, nullptr, out.data(), 0, layout::half_split});
}

// The scratch the fast fills below use: for each axis of grid positions (integers, or fractions on
// a grid of 2^-shift, of either sign: detail::grid_axis), its 1D rows over the range of n (an axis
// too fine for the grid needs none; nor does a turns config, whose entries are all scalar). An
// axis whose rows never go back along the tokens leaves it unread, at run time and for compact
// float tables in constant evaluation; the size counts it all the same, so that it does not
// depend on the table's type or on where it is evaluated.
constexpr std::size_t nd_scratch_size(const nd_config& c, std::span<const double> positions) noexcept {
  if (c.axes_dim.empty() || positions.size() % c.axes_dim.size() != 0 || c.angle == angle_unit::turns) return 0;
  const std::size_t tokens = positions.size() / c.axes_dim.size();
  std::size_t most = 0;  // the axes reuse the scratch one after the other
  for (std::size_t a = 0; a < c.axes_dim.size(); ++a) {
    rope::detail::axis_grid g{};
    if (tokens == 0 || !rope::detail::grid_axis(positions, tokens, a, g)) continue;
    const std::size_t need = static_cast<std::size_t>(g.hi - g.lo + 1) * static_cast<std::size_t>(c.axes_dim[a] / 2);
    most = need > most ? need : most;
  }
  return most;
}

// The same tables, with the caller's scratch: each axis of grid positions whose rows fit it and go
// back along the tokens (a grid's column axis) comes from one fill of the 1D row kernels into the
// scratch and is gathered; an axis whose rows never go back needs none (one fill into the tokens'
// rows, as above); the others as above. The same bits every way.
template <storage_type T>
constexpr posenc::status fill_nd_table(const nd_config& c, std::span<const double> positions, std::span<T> cos,
                                       std::span<T> sin, std::span<math::sincos_result<T>> scratch,
                                       layout l = layout::interleaved) noexcept {
  return rope::detail::fill_nd<T>(c, positions, cos.size(), sin.size(), {cos.data(), sin.data(), nullptr, 0, l},
                                  scratch);
}
template <storage_type T>
constexpr posenc::status fill_nd_pair_table(const nd_config& c, std::span<const double> positions,
                                            std::span<math::sincos_result<T>> out,
                                            std::span<math::sincos_result<T>> scratch) noexcept {
  return rope::detail::fill_nd<T>(c, positions, out.size(), out.size(),
                                  {nullptr, nullptr, out.data(), 0, layout::half_split}, scratch);
}

}  // namespace posenc::rope
