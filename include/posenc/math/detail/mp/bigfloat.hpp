// bigfloat.hpp: fixed-length binary floating point on 64-bit limbs, truncating arithmetic.
//
// The accurate path (docs/internals.md, "The accurate path") evaluates at 64 * Limbs bits with a
// proven error bound and lets Ziv's loop (ziv.hpp) decide whether that is enough. Truncation
// (rounding toward zero in magnitude) is used everywhere because its error is one-sided and easy
// to bound; the bounds below are the ones every error analysis in this directory relies on.
//
// Representation: value = (-1)^neg * M * 2^e with M = sum m[i] 2^(64 i) (little-endian limbs),
// normalised so that 2^(64L-1) <= M < 2^(64L), or M == 0 for zero. Hence |v| < 2^top(v) with
// top(v) = e + 64L, and one ulp of v is 2^e <= 2^(1-64L) |v|.
//
// Error bounds (u = 2^(1-64L), a relative ulp bound):
//   from_limbs, mul_small, div_small: < 2 ulp of the result (relative < 2u).
//   mul: < (2L + 1) ulp of the result (truncated product, see mul) <= 2^(7-64L) relative for L<=16.
//   add/sub: absolute < 2 ulp of the larger-magnitude operand or of the result, whichever is
//            larger (truncation of the aligned smaller operand, plus one bit on a carry).
// Algorithms: schoolbook multiplication and short division, Knuth TAOCP vol. 2, 4.3.1.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "posenc/math/detail/wide_int.hpp"
#include "posenc/math/round_dyadic.hpp"

namespace posenc::detail::mp {

// An int array extent as std::size_t (array bounds from int template arguments would trip
// -Wsign-conversion).
template <int N>
inline constexpr std::size_t sz = static_cast<std::size_t>(N);

template <int L>
struct bigfloat {
  static_assert(L >= 2 && L <= 32, "bigfloat: 2 to 32 limbs");
  std::uint64_t m[sz<L>] = {};
  int e = 0;
  bool neg = false;

  constexpr bool is_zero() const noexcept { return m[L - 1] == 0; }
  constexpr int top() const noexcept { return e + 64 * L; }  // |v| < 2^top, |v| >= 2^(top-1)
};

// A value with an absolute error bound: |v - exact| <= 2^err.
template <int L>
struct approx {
  bigfloat<L> v;
  int err;
};

inline constexpr int exact_err = -1000000;  // err of a value known exactly

constexpr int max_int(int a, int b) noexcept { return a > b ? a : b; }

// The integer src[0..n) (little-endian) times 2^e, truncated to L limbs and normalised.
template <int L>
constexpr bigfloat<L> from_limbs(const std::uint64_t* src, int n, int e, bool neg) noexcept {
  bigfloat<L> r;
  int t = n - 1;
  while (t >= 0 && src[t] == 0) --t;
  if (t < 0) return r;
  const int lz = std::countl_zero(src[t]);
  for (int i = 0; i < L; ++i) {
    const int k = t - i;
    const std::uint64_t hi = k >= 0 ? src[k] : 0, lo = k >= 1 ? src[k - 1] : 0;
    r.m[L - 1 - i] = lz == 0 ? hi : (hi << lz) | (lo >> (64 - lz));
  }
  r.e = e + 64 * (t + 1) - lz - 64 * L;  // leading bit at e + 64 t + 63 - lz
  r.neg = neg;
  return r;
}

template <int L>
constexpr bigfloat<L> from_u128(u128 v, int e, bool neg) noexcept {
  const std::uint64_t limbs[2] = {v.lo, v.hi};
  return from_limbs<L>(limbs, 2, e, neg);
}

// Exact conversion of a finite double.
template <int L>
constexpr bigfloat<L> from_double(double x) noexcept {
  const std::uint64_t b = std::bit_cast<std::uint64_t>(x);
  const int field = static_cast<int>((b >> 52) & 0x7FF);
  const std::uint64_t frac = b & 0x000FFFFFFFFFFFFFu;
  const std::uint64_t mant = field == 0 ? frac : frac | (std::uint64_t{1} << 52);
  return from_limbs<L>(&mant, 1, (field == 0 ? 1 : field) - 1075, (b >> 63) != 0);
}

// A constant stored big-endian (table[0] most significant) with |c| < 2^top, truncated.
template <int L>
constexpr bigfloat<L> from_table(const std::uint64_t* table, int top) noexcept {
  bigfloat<L> r;
  for (int i = 0; i < L; ++i) r.m[L - 1 - i] = table[i];
  r.e = top - 64 * L;
  return r;
}

template <int L>
constexpr bigfloat<L> one() noexcept {
  bigfloat<L> r;
  r.m[L - 1] = std::uint64_t{1} << 63;
  r.e = 1 - 64 * L;
  return r;
}

template <int L>
constexpr bigfloat<L> negate(bigfloat<L> a) noexcept {
  a.neg = !a.neg && !a.is_zero();
  return a;
}

// a * 2^k, exact.
template <int L>
constexpr bigfloat<L> ldexp(bigfloat<L> a, int k) noexcept {
  if (!a.is_zero()) a.e += k;
  return a;
}

// The leading 53 bits as a double (truncated), saturated far outside the double range. Used
// only to pick integer quotients (exp's k), never as a result.
template <int L>
constexpr double to_double_approx(const bigfloat<L>& a) noexcept {
  if (a.is_zero()) return 0.0;
  const int k = a.top() - 53;
  const double m = static_cast<double>(a.m[L - 1] >> 11);
  const double v = k > 970 ? 0x1p1020 : k < -1074 ? 0.0 : m * posenc::detail::pow2(k);
  return a.neg ? -v : v;
}

template <int L>
constexpr bool mant_less(const bigfloat<L>& a, const bigfloat<L>& b) noexcept {
  for (int i = L - 1; i >= 0; --i)
    if (a.m[i] != b.m[i]) return a.m[i] < b.m[i];
  return false;
}

// a + b, truncated. Error: see the header comment.
template <int L>
constexpr bigfloat<L> add(const bigfloat<L>& x, const bigfloat<L>& y) noexcept {
  if (y.is_zero()) return x;
  if (x.is_zero()) return y;
  const bool swap = y.e > x.e || (y.e == x.e && mant_less(x, y));
  const bigfloat<L>& a = swap ? y : x;
  const bigfloat<L>& b = swap ? x : y;
  const int d = a.e - b.e;
  if (d >= 64 * L) return a;  // |b| < 2^(b.e + 64L) <= ulp(a)
  const int q = d / 64, sh = d % 64;
  std::uint64_t s[sz<L + 1>] = {};
  for (int i = 0; i + q < L; ++i) {
    const std::uint64_t lo = b.m[i + q], hi = i + q + 1 < L ? b.m[i + q + 1] : 0;
    s[i] = sh == 0 ? lo : (lo >> sh) | (hi << (64 - sh));
  }
  std::uint64_t c = 0;
  if (a.neg == b.neg) {
    for (int i = 0; i < L; ++i) s[i] = add_carry(a.m[i], s[i], c, c);
    s[L] = c;
  } else {
    for (int i = 0; i < L; ++i) s[i] = sub_borrow(a.m[i], s[i], c, c);
  }
  return from_limbs<L>(s, L + 1, a.e, a.neg);
}

template <int L>
constexpr bigfloat<L> sub(const bigfloat<L>& a, const bigfloat<L>& b) noexcept {
  return add(a, negate(b));
}

// a * b, truncated: only the partial products a[i] b[j] with i + j >= L - 1 are formed. The
// omitted ones sum to less than L * 2^(64L) (column k < L-1 holds k+1 products below 2^(128+64k)),
// i.e. L units of limb L of the 2L-limb product; with the final truncation and the one-bit
// normalisation the error is below (2L + 1) ulp of the result.
template <int L>
constexpr bigfloat<L> mul(const bigfloat<L>& a, const bigfloat<L>& b) noexcept {
  if (a.is_zero() || b.is_zero()) return bigfloat<L>{};
  std::uint64_t p[sz<2 * L>] = {};
  for (int i = 0; i < L; ++i) {
    std::uint64_t carry = 0;
    for (int j = L - 1 - i; j < L; ++j) {
      const u128 t = mul_add2(a.m[i], b.m[j], p[i + j], carry);
      p[i + j] = t.lo;
      carry = t.hi;
    }
    p[i + L] = carry;
  }
  bigfloat<L> r;
  r.neg = a.neg != b.neg;
  if ((p[2 * L - 1] >> 63) != 0) {
    for (int i = 0; i < L; ++i) r.m[i] = p[L + i];
    r.e = a.e + b.e + 64 * L;
  } else {  // product in [2^(128L-2), 2^(128L-1)): one bit from limb L-1
    for (int i = 0; i < L; ++i) r.m[i] = (p[L + i] << 1) | (p[L + i - 1] >> 63);
    r.e = a.e + b.e + 64 * L - 1;
  }
  return r;
}

// a * k for an integer k, truncated (< 1 ulp).
template <int L>
constexpr bigfloat<L> mul_small(const bigfloat<L>& a, std::uint64_t k) noexcept {
  std::uint64_t p[sz<L + 1>] = {};
  std::uint64_t carry = 0;
  for (int i = 0; i < L; ++i) {
    const u128 t = mul_add2(a.m[i], k, 0, carry);
    p[i] = t.lo;
    carry = t.hi;
  }
  p[L] = carry;
  return from_limbs<L>(p, L + 1, a.e, a.neg);
}

// a / d for 1 <= d < 2^32, truncated (< 2 ulp): short division on 32-bit digits, so that every
// partial dividend fits in 64 bits, continued one limb below a's last.
template <int L>
constexpr bigfloat<L> div_small(const bigfloat<L>& a, std::uint32_t d) noexcept {
  std::uint64_t q[sz<L + 1>] = {};
  std::uint64_t rem = 0;
  for (int i = L; i >= 0; --i) {
    const std::uint64_t limb = i > 0 ? a.m[i - 1] : 0;
    std::uint64_t cur = (rem << 32) | (limb >> 32);
    const std::uint64_t qh = cur / d;
    rem = cur % d;
    cur = (rem << 32) | (limb & 0xFFFFFFFFu);
    q[i] = (qh << 32) | (cur / d);
    rem = cur % d;
  }
  return from_limbs<L>(q, L + 1, a.e - 64, a.neg);
}

// Nearest integer to a double of magnitude below 2^30 (ties away from zero).
constexpr int nearest_int(double x) noexcept { return x >= 0 ? static_cast<int>(x + 0.5) : -static_cast<int>(0.5 - x); }

// floor(log2(n)) for n >= 1.
constexpr int ilog2(std::uint64_t n) noexcept { return 63 - std::countl_zero(n); }

}  // namespace posenc::detail::mp
