// ziv.hpp: rounding a bigfloat with an absolute error bound into T, and Ziv's loop.
//
// Ziv, "Fast evaluation of elementary mathematical functions with correctly rounded last bit",
// ACM TOMS 17(3), 1991: evaluate with a proven error bound; if both ends of the enclosure
// [v - err, v + err] round to the same T, every real inside does (RN-even is monotone), so that is
// RN_T(exact); otherwise evaluate again with more limbs. The ends are exact dyadic numbers,
// rounded by posenc::detail::round_dyadic (round_dyadic.hpp), which handles subnormals and
// overflow to infinity.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/round_dyadic.hpp"
#include "posenc/numeric/format.hpp"

namespace posenc::detail::mp {

// The exact integer s[0..n) (little-endian, n >= 2) times 2^e as a dyadic: its top 128 bits
// from the leading nonzero limb, the rest folded into sticky (at least 65 significant bits are
// kept, more than the 2 + 53 that round_dyadic needs).
constexpr dyadic limbs_to_dyadic(const std::uint64_t* s, int n, int e, bool neg) noexcept {
  int t = n - 1;
  while (t > 1 && s[t] == 0) --t;
  bool sticky = false;
  for (int i = 0; i < t - 1; ++i) sticky = sticky || s[i] != 0;
  return dyadic{neg, e + 64 * (t - 1), s[t], s[t - 1], sticky};
}

template <class T>
constexpr bool same_bits(T a, T b) noexcept {
  return float_format<T>::to_bits(a) == float_format<T>::to_bits(b);
}

// RN_T(v) of the value v itself (no error bound): the last resort of the loop.
template <class T, int L>
constexpr T round_value(const bigfloat<L>& v) noexcept {
  return round_dyadic<T>(limbs_to_dyadic(v.m, L, v.e, v.neg));
}

// true iff every real within 2^err of v rounds to the same T; then out is that value.
template <class T, int L>
constexpr bool round_checked(const bigfloat<L>& v, int err, T& out) noexcept {
  if (v.is_zero()) return false;
  const int t = max_int(err - v.e, 0);  // the error in ulps of v, rounded up to 2^t
  if (t > 64 * L - 4) return false;     // the enclosure is not small against |v|
  std::uint64_t lo[sz<L + 1>] = {}, hi[sz<L + 1>] = {};
  std::uint64_t cl = 0, ch = 0;
  for (int i = 0; i <= L; ++i) {
    const std::uint64_t mi = i < L ? v.m[i] : 0;
    const std::uint64_t bit = (i == t / 64) ? std::uint64_t{1} << (t % 64) : 0;
    lo[i] = sub_borrow(mi, bit, cl, cl);
    hi[i] = add_carry(mi, bit, ch, ch);
  }
  const T a = round_dyadic<T>(limbs_to_dyadic(lo, L + 1, v.e, v.neg));
  const T b = round_dyadic<T>(limbs_to_dyadic(hi, L + 1, v.e, v.neg));
  if (!same_bits(a, b)) return false;
  out = a;
  return true;
}

template <int L>
using level = std::integral_constant<int, L>;

// Ziv's loop over 4, 8 and 16 limbs (256, 512, 1024 bits). eval(level<L>{}) returns an
// approx<L>. The callers only pass values that are not midpoints of T (transcendental, or pow's
// non-dyadic cases, see pow.hpp), and the hardest known double cases need about 2^-120 relative
// accuracy (Lefevre-Muller worst cases), so the first level answers in practice; the last resort
// after 1024 bits is RN_T of the best approximation, which is reached only by an input closer to
// a midpoint than about 2^-900 relative.
template <class T, class Eval>
constexpr T ziv_loop(Eval eval) noexcept {
  T out{};
  {
    const auto a = eval(level<4>{});
    if (round_checked<T>(a.v, a.err, out)) return out;
  }
  {
    const auto a = eval(level<8>{});
    if (round_checked<T>(a.v, a.err, out)) return out;
  }
  const auto a = eval(level<16>{});
  if (round_checked<T>(a.v, a.err, out)) return out;
  return round_value<T>(a.v);
}

// T's quiet NaN and +-infinity, built from the format (bfloat16 and float16 have no
// numeric_limits): exponent field all ones.
template <class T>
constexpr T special_value(bool nan, bool neg) noexcept {
  using F = float_format<T>;
  const int w = static_cast<int>(sizeof(typename F::storage) * 8);
  std::uint64_t bits = ((std::uint64_t{1} << (w - F::precision)) - 1) << (F::precision - 1);
  if (nan) bits |= std::uint64_t{1} << (F::precision - 2);
  if (neg) bits |= std::uint64_t{1} << (w - 1);
  return F::from_bits(static_cast<typename F::storage>(bits));
}

constexpr bool is_finite(double x) noexcept {
  return (std::bit_cast<std::uint64_t>(x) & 0x7FF0000000000000u) != 0x7FF0000000000000u;
}

template <class T>
constexpr T exact_dyadic(bool neg, int exponent, std::uint64_t hi, std::uint64_t lo) noexcept {
  return round_dyadic<T>(dyadic{neg, exponent, hi, lo, false});
}

}  // namespace posenc::detail::mp
