// pass_through.hpp: law "under partial rotary, applying a row of the table to a head leaves the
// elements past rotary_dim untouched, bit for bit" (GPT-NeoX rotary_pct, GPT-J rotary_dim, HF's
// partial_rotary_factor: q = cat(rotate(q[..., :d]), q[..., d:])). For every row of the table
// (rotary_dim d) and a head of head_dim > d elements x, the kernel's output holds x[k]'s bits for
// every k >= d: -0 stays -0, a NaN keeps its payload, infinities and subnormals pass.
//
// The kernel: by default posenc's (rope/apply.hpp): rope::rotate_copy forward out of place (the
// tail is copied) for the rows in even places, rope::rotate inverse in place (the tail must not be
// written) for those in odd places. Or the caller's: kernel(row, in, out) writes the head rotated by row `row` of the
// table into out (head_dim elements of S), e.g. a port of a framework's apply. A kernel that
// rotates the whole head with a table padded by cos = 1, sin = 0 (a common way to write partial
// rotary) fails: x 1 - y 0 turns -0 into +0 and 0 x inf into NaN.
// The head: the caller's (std::span of head_dim elements of S), or by default one of the table's
// type: the rotary part from laws/rope/norm_preservation.hpp's LCG, the pass-through part cycling
// through -0, a quiet NaN, +inf, -inf, the smallest subnormal, -(the largest finite), 1, -0.5.
// head_dim at most pass_through_max_head_dim (the head is copied on the stack; no heap in the
// core), and more than rotary_dim; otherwise the law fails at "the table". The first failure is
// named by the row's position and the element's index in the head (pair -1). Rows: those of
// kernel_grid (laws/rope/norm_preservation.hpp): every row up to 1024 rows, else a stride and the last.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rope/norm_preservation.hpp"
#include "posenc/laws/rope/table_view.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/apply.hpp"

namespace posenc::laws::failed {

// Where a failing pass_through stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool pass_through(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<pass_through>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity pass_through{failed::pass_through, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

inline constexpr std::size_t pass_through_max_head_dim = 512;

namespace detail {

// The special values of S the pass-through part of the default head cycles through, by their bits
// (sign, exponent and fraction fields from the format's width and precision).
template <class S>
constexpr S special_value(std::size_t i) noexcept {
  using F = posenc::detail::float_format<S>;
  using U = typename F::storage;
  constexpr int width = 8 * sizeof(U), p = F::precision;
  constexpr U sign = static_cast<U>(U{1} << (width - 1));
  constexpr U inf = static_cast<U>(((U{1} << (width - p)) - 1) << (p - 1));
  constexpr U one = static_cast<U>(((U{1} << (width - p - 1)) - 1) << (p - 1));  // exponent = bias
  constexpr U half = static_cast<U>(one - (U{1} << (p - 1)));
  constexpr U pattern[8] = {sign,
                            static_cast<U>(inf | (U{1} << (p - 2))),  // quiet NaN
                            inf,
                            static_cast<U>(sign | inf),
                            U{1},  // the smallest subnormal
                            static_cast<U>(sign | (inf - 1)),
                            one,
                            static_cast<U>(sign | half)};
  return F::from_bits(pattern[i % 8]);
}

template <class S>
constexpr std::array<S, pass_through_max_head_dim> default_head(std::size_t rotary_dim) noexcept {
  std::array<S, pass_through_max_head_dim> x{};
  const auto rot = lcg_vector<S>();
  for (std::size_t k = 0; k < x.size(); ++k)
    x[k] = k < rotary_dim ? rot[k % rot.size()] : special_value<S>(k - rotary_dim);
  return x;
}

constexpr law_result pass_through_result() noexcept {
  return make_result("pass-through: elements past rotary_dim keep their bits", &kind::pass_through);
}

}  // namespace detail

// The caller's head x (head_dim elements of S) and kernel(row, in, out).
template <rotary_table V, class S, class Kernel>
constexpr law_result pass_through(const V& v, std::size_t head_dim, std::span<const S> x, Kernel kernel,
                                  kernel_grid g = {}) noexcept {
  law_result r = detail::pass_through_result();
  const std::size_t d = v.rotary_dim();
  if (!well_shaped(v) || head_dim <= d || head_dim > pass_through_max_head_dim || x.size() != head_dim) {
    r.require(false, {});
    return r;
  }
  std::array<S, pass_through_max_head_dim> out{};
  const std::size_t stride = detail::row_stride(v.rows(), g);
  for (std::size_t row = 0; row < v.rows(); row = detail::next_row(row, v.rows(), stride)) {
    kernel(row, x.data(), out.data());
    std::uint64_t same = 0;
    for (std::size_t k = d; k < head_dim; ++k) {
      if (detail::same_bits(out[k], x[k]))
        ++same;
      else
        r.require(false, {detail::position_of(v, row), -1, static_cast<std::int64_t>(k)});
    }
    if (r.checked == 0 && same > 0) {  // the first case sets the worst index
      r.require(true, {detail::position_of(v, row), -1, static_cast<std::int64_t>(d)});
      --same;
    }
    r.pass(same);
  }
  return r;
}

// The caller's head with posenc's kernel (storage S; the table's type must load exactly into
// rope::compute_t<S>): rows in even places through rope::rotate_copy forward, out of place (the
// tail is copied), rows in odd places through rope::rotate inverse, in place (the tail must not be
// written): both paths, one application per row.
template <rotary_table V, class S>
constexpr law_result pass_through(const V& v, std::size_t head_dim, std::span<const S> x, kernel_grid g = {}) noexcept {
  using T = typename V::value_type;
  const std::size_t d = v.rotary_dim();
  const std::size_t step = v.layout() == rope::layout::interleaved ? 2 : 1;
  const rope::apply_shape sh{.heads = 1, .head_dim = head_dim, .rotary_dim = d, .lay = v.layout()};
  std::array<math::sincos_result<T>, pass_through_max_head_dim / 2> row_cs{};
  bool ok = true;
  std::size_t applied = 0;  // even places forward, odd places inverse
  auto posenc_kernel = [&](std::size_t row, const S* in, S* out) {
    const T *cr = v.cos_row(row), *sr = v.sin_row(row);
    for (std::size_t j = 0; j < d / 2; ++j) row_cs[j] = {sr[j * step], cr[j * step]};
    if (applied++ % 2 == 0) {
      ok = ok && rope::rotate_copy(in, out, sh, row_cs.data()) == posenc::status::ok;
    } else {
      for (std::size_t k = 0; k < head_dim; ++k) out[k] = in[k];
      ok = ok && rope::rotate(out, sh, row_cs.data(), rope::direction::inverse) == posenc::status::ok;
    }
  };
  law_result r = pass_through(v, head_dim, x, posenc_kernel, g);
  if (!ok) r.require(false, {});
  return r;
}

// The default head in the table's type, with posenc's kernel.
template <rotary_table V>
constexpr law_result pass_through(const V& v, std::size_t head_dim, kernel_grid g = {}) noexcept {
  using T = typename V::value_type;
  if (head_dim > pass_through_max_head_dim || head_dim <= v.rotary_dim()) {
    law_result r = detail::pass_through_result();
    r.require(false, {});
    return r;
  }
  const auto x = detail::default_head<T>(v.rotary_dim());
  return pass_through(v, head_dim, std::span<const T>(x.data(), head_dim), g);
}

}  // namespace posenc::laws
