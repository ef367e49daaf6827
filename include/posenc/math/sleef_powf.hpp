// sleef_powf.hpp: x^y in float the way SLEEF 3.5's vectorised powf (u10) computes it with FMA,
// which is what torch's CPU float32 pow runs on AVX2 machines. constexpr, standard library only.
//
// Why this exists: HF transformers computes inv_freq as 1.0 / (base ** (arange(0, dim, 2) / dim))
// on a float32 tensor. torch 1.13's CPU kernel for that (aten/src/ATen/native/cpu/PowKernel.cpp,
// pow_tensor_tensor_kernel; pow(Scalar, Tensor) wraps the base into a 0-dim tensor, converted to
// float32 by type promotion) hands 2 * Vectorized<float>::size() elements at a time to
// Vectorized<float>::pow, which on the AVX2 build (vec256_float.h) is Sleef_powf8_u10, SLEEF's
// dispatcher, which picks Sleef_powf8_u10avx2 on a CPU with AVX2 + FMA. The elements after the
// last whole block (n mod 16 of them on AVX2) go through std::pow(float, float), libm's powf.
// SLEEF's powf is accurate to 1 ULP, not correctly rounded: for RoPE frequencies it differs from
// the correctly rounded value a few times per table (docs/rope-precision.md).
//
// The algorithm (SLEEF 3.5.1, src/libm/sleefsimdsp.c: xpowf, logkf, expkf; src/libm/df.h: the
// float-float ("df") arithmetic in its ENABLE_FMA_SP form, which helperavx2.h and the AVX-512
// helper enable; SLEEF builds with -ffp-contract=off, so the only fused operations are the
// explicit ones): written here from that description, step by step, as one lane of the vector
// code. Every float operation below is one IEEE binary32 rounding (posenc's targets evaluate
// float in float: FLT_EVAL_METHOD 0, and -ffp-contract=off keeps a*b+c unfused); every fused
// multiply-add of SLEEF is fma() below, one rounding of the exact a*b+c. The integer steps
// (exponent extraction, ldexp) use SLEEF's bit manipulations with the vector unit's wrap-around
// and out-of-range conversion rules, so the special and extreme inputs come out as SLEEF's do.
//
// Not the scalar Sleef_powf_u10 (sleefsp.c): that one has no FMA (its df products split operands
// into halves) and rounds q half away from zero, so it can differ in the last bit; tests compare
// both (tests/sleef/test_sleef_powf.cpp).
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

namespace posenc::detail::sleef {

// ---- one float operation of the vector unit ------------------------------------------------

// fma(a, b, c): RN(a*b + c) with one rounding, like vfmadd. std::fma is not constexpr in C++20
// and Clang 16 rejects __builtin_fmaf in constant expressions, so: a*b of two floats is exact in
// double (24 + 24 <= 53 bits, exponents within double's range); s = RN_double(a*b + c) and its
// exact error e come from TwoSum; rounding s to odd (the last bit set when e != 0) keeps the
// information that the exact sum is not s, and a round-to-odd value with at least 2 more bits
// than the target rounds to the target correctly (Boldo & Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 57(4), 2008).
constexpr float fma(float a, float b, float c) noexcept {
  const double p = static_cast<double>(a) * static_cast<double>(b);  // exact
  const double cd = static_cast<double>(c);
  const double s = p + cd;
  // inf or NaN (compared, not subtracted: inf - inf would make a NaN): no error term to keep.
  if (!(s == s) || s == std::numeric_limits<double>::infinity() || s == -std::numeric_limits<double>::infinity())
    return static_cast<float>(s);
  const double bb = s - p;
  const double e = (p - (s - bb)) + (cd - bb);  // p + c == s + e exactly
  if (e == 0.0) return static_cast<float>(s);
  std::uint64_t bits = std::bit_cast<std::uint64_t>(s);
  if ((bits & 1u) == 0) {
    // s is even: step one ulp toward the exact value (toward e) to make it odd. s != 0 here
    // (s == 0 implies e == 0), so the step never crosses zero; |s| grows when e has s's sign.
    const bool same_sign = (s > 0) == (e > 0);
    bits = same_sign ? bits + 1 : bits - 1;
  }
  return static_cast<float>(std::bit_cast<double>(bits));
}

// The vector unit's integer lanes wrap around (two's complement); C++ signed overflow would be
// undefined (and not a constant expression), so additions go through uint32.
constexpr std::int32_t wrap_add(std::int32_t a, std::int32_t b) noexcept {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
constexpr std::int32_t wrap_sub(std::int32_t a, std::int32_t b) noexcept {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}
constexpr std::int32_t wrap_shl(std::int32_t a, int s) noexcept {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) << s);
}
constexpr std::int32_t bits_of(float x) noexcept { return std::bit_cast<std::int32_t>(x); }
constexpr float float_of(std::int32_t i) noexcept { return std::bit_cast<float>(i); }

// cvtps2dq / cvttps2dq: float to int32 rounded to nearest even / toward zero; a NaN or a value
// outside int32 gives the "integer indefinite" 0x80000000.
constexpr std::int32_t cvt_rne(float x) noexcept {
  if (!(x > -0x1p31f && x < 0x1p31f)) return std::numeric_limits<std::int32_t>::min();
  const double d = x;
  const auto t = static_cast<std::int64_t>(d);     // toward zero, exact
  const double frac = d - static_cast<double>(t);  // exact: |d| < 2^31, d and t share the binade scale
  std::int64_t r = t;
  if (frac > 0.5 || (frac == 0.5 && (t & 1) != 0)) ++r;
  if (frac < -0.5 || (frac == -0.5 && (t & 1) != 0)) --r;
  if (r > std::numeric_limits<std::int32_t>::max() || r < std::numeric_limits<std::int32_t>::min())
    return std::numeric_limits<std::int32_t>::min();
  return static_cast<std::int32_t>(r);
}
constexpr std::int32_t cvt_trunc(float x) noexcept {
  if (!(x > -0x1p31f && x < 0x1p31f)) return std::numeric_limits<std::int32_t>::min();
  return static_cast<std::int32_t>(x);
}
// roundps toward zero, float to float: |x| >= 2^23 is already an integer (and inf, NaN stay).
constexpr float trunc_f(float x) noexcept {
  if (!(x > -0x1p23f && x < 0x1p23f)) return x;
  const float t = static_cast<float>(static_cast<std::int32_t>(x));
  return x < 0 && t == 0.0f ? -0.0f : t;  // roundps keeps the sign of a result of zero
}

// ---- float-float arithmetic (df.h, FMA forms): a value is hi + lo, unevaluated ----------------

struct f2 {
  float x = 0, y = 0;
};

// s = x + y and its error, x and y of any magnitude (TwoSum; df.h dfadd2_vf2_vf_vf).
constexpr f2 add2(float x, float y) noexcept {
  const float s = x + y;
  const float v = s - x;
  return {s, (x - (s - v)) + (y - v)};
}
// (x.x + x.y) + y with TwoSum on the leading parts (dfadd2_vf2_vf2_vf).
constexpr f2 add2(f2 x, float y) noexcept {
  const float s = x.x + y;
  const float v = s - x.x;
  const float t = (x.x - (s - v)) + (y - v);
  return {s, t + x.y};
}
// x + y, both float-float, TwoSum on the leading parts (dfadd2_vf2_vf2_vf2).
constexpr f2 add2(f2 x, f2 y) noexcept {
  const float s = x.x + y.x;
  const float v = s - x.x;
  const float t = (x.x - (s - v)) + (y.x - v);
  return {s, t + (x.y + y.y)};
}
// x + y assuming |x.x| >= |y.x| (Fast2Sum; dfadd_vf2_vf2_vf2). The tail sums left to right.
constexpr f2 add(f2 x, f2 y) noexcept {
  const float s = x.x + y.x;
  return {s, (((x.x - s) + y.x) + x.y) + y.y};
}
// x + y, |x| >= |y.x| (dfadd_vf2_vf_vf2).
constexpr f2 add(float x, f2 y) noexcept {
  const float s = x + y.x;
  return {s, ((x - s) + y.x) + y.y};
}
// Renormalise so that lo is below half an ulp of hi (dfnormalize_vf2_vf2).
constexpr f2 normalize(f2 t) noexcept {
  const float s = t.x + t.y;
  return {s, (t.x - s) + t.y};
}
// Both parts times s (dfscale_vf2_vf2_vf): exact for s a power of two.
constexpr f2 scale(f2 d, float s) noexcept { return {d.x * s, d.y * s}; }
// x * y of two floats, exact (dfmul_vf2_vf_vf: the error of the product is one fmsub).
constexpr f2 mul(float x, float y) noexcept {
  const float s = x * y;
  return {s, fma(x, y, -s)};
}
// (x.x + x.y) * y (dfmul_vf2_vf2_vf): x.y * y folded into the error term with one more fma.
constexpr f2 mul(f2 x, float y) noexcept {
  const float s = x.x * y;
  return {s, fma(x.y, y, fma(x.x, y, -s))};
}
// x * y, float-float (dfmul_vf2_vf2_vf2); the x.y * y.y term is dropped, as in SLEEF.
constexpr f2 mul(f2 x, f2 y) noexcept {
  const float s = x.x * y.x;
  return {s, fma(x.x, y.y, fma(x.y, y.x, fma(x.x, y.x, -s)))};
}
// x * x (dfsqu_vf2_vf2): 2 * x.x * x.y added to the exact error of x.x^2.
constexpr f2 square(f2 x) noexcept {
  const float s = x.x * x.x;
  return {s, fma(x.x + x.x, x.y, fma(x.x, x.x, -s))};
}
// n / d (dfdiv_vf2_vf2_vf2, FMA form): t = 1/d.x; s = n.x t; the correction uses the residuals
// t n.x - s and 1 - d t (vfmanp is -(a*b) + c, the fnmadd instruction).
constexpr f2 div(f2 n, f2 d) noexcept {
  const float t = 1.0f / d.x;  // vrec: a real division, not the approximate rcpps
  const float s = n.x * t;
  const float u = fma(t, n.x, -s);
  const float v = fma(-d.y, t, fma(-d.x, t, 1.0f));
  return {s, fma(s, v, fma(n.y, t, u))};
}

// ---- exponent helpers -----------------------------------------------------------------------

// vilogb2k_vi2_vf: the biased exponent field minus 127 (no subnormal handling: callers scale).
constexpr std::int32_t ilogb2k(float d) noexcept { return ((bits_of(d) >> 23) & 0xff) - 0x7f; }
// vldexp3_vf_vf_vi2: add q to the exponent field directly (no range checks).
constexpr float ldexp3(float d, std::int32_t q) noexcept { return float_of(wrap_add(bits_of(d), wrap_shl(q, 23))); }
// x * u for u a power of two or +inf, as the float multiply rounds it, without overflowing in
// constant evaluation (GCC rejects a float operation that overflows; the vector unit gives inf):
// the product is exact in double, so one conversion rounds it, after an explicit overflow check.
constexpr float mul_pow2(float x, float u) noexcept {
  constexpr float inf = std::numeric_limits<float>::infinity();
  if (x != x) return x;
  if (u == inf) return x == 0.0f ? std::numeric_limits<float>::quiet_NaN() : (x < 0 ? -inf : inf);  // 0 * inf
  if (x == inf || x == -inf) return x;
  const double p = static_cast<double>(x) * static_cast<double>(u);
  // RN to float overflows from 2^128 - 2^103 (half an ulp above FLT_MAX) up.
  if (p >= 0x1p128 - 0x1p103) return inf;
  if (p <= -(0x1p128 - 0x1p103)) return -inf;
  return static_cast<float>(p);
}

// vldexp_vf_vf_vi2: d * 2^q in steps (four times 2^m then 2^q') so that huge |q| saturate the
// way SLEEF's does: m is clamped to the exponent field's range before it becomes a float (0xff:
// +inf), and the remaining q' always gives a finite power of two.
constexpr float ldexp(float x, std::int32_t q) noexcept {
  std::int32_t m = q >> 31;  // arithmetic shift (C++20): -1 for q < 0
  m = wrap_shl(wrap_sub(wrap_add(m, q) >> 6, m), 4);
  q = wrap_sub(q, wrap_shl(m, 2));
  m = wrap_add(m, 0x7f);
  m = m > 0 ? m : 0;
  m = m > 0xff ? 0xff : m;
  float u = float_of(wrap_shl(m, 23));
  x = mul_pow2(x, u);
  x = mul_pow2(x, u);
  x = mul_pow2(x, u);
  x = mul_pow2(x, u);
  u = float_of(wrap_shl(wrap_add(q, 0x7f), 23));
  return mul_pow2(x, u);
}

// ---- log and exp kernels ----------------------------------------------------------------------

// logkf: log(d) as a float-float for d > 0 (SLEEF's non-AVX-512 form; the AVX-512 build gets e
// and m from vgetexp / vgetmant, the same values for every normal d). d = m 2^e with m in
// [0.75, 1.5); log m = 2 atanh(x), x = (m - 1)/(m + 1), by an odd series in x whose low terms are
// float-float.
constexpr f2 logk(float d) noexcept {
  const bool tiny = d < std::numeric_limits<float>::min();  // subnormal: scale by 2^64 first
  if (tiny) d = d * (0x1p32f * 0x1p32f);
  std::int32_t e = ilogb2k(d * (1.0f / 0.75f));  // exponent of d/0.75: m lands in [0.75, 1.5)
  const float m = ldexp3(d, -e);
  if (tiny) e -= 64;

  const f2 x = div(add2(-1.0f, m), add2(1.0f, m));
  const f2 x2 = square(x);

  float t = 0.240320354700088500976562f;
  t = fma(t, x2.x, 0.285112679004669189453125f);
  t = fma(t, x2.x, 0.400007992982864379882812f);
  const f2 c{0.66666662693023681640625f, 3.69183861259614332084311e-09f};  // 2/3 as float-float

  f2 s = mul(f2{0.69314718246459960938f, -1.904654323148236017e-09f}, static_cast<float>(e));  // e ln 2
  s = add(s, scale(x, 2.0f));                                                                  // + 2x
  s = add(s, mul(mul(x2, x), add2(mul(x2, t), c)));                                            // + x^3 (2/3 + x^2 t)
  return s;
}

// expkf: e^(d.x + d.y) as a float. q = rint(d / ln 2) (round half even: cvtps2dq), the reduced
// argument s = d - q ln2 with ln 2 in two parts (L2U has trailing zeros, so q L2U is exact for
// |q| < 2^11), a degree-5 polynomial for (e^s - 1 - s)/s^2, then 2^q.
constexpr float expk(f2 d) noexcept {
  // SLEEF computes the whole kernel and then masks a lane with d.x < -104 to +0; the result is
  // +0 whatever the kernel gave, so return it first. Above 1e4 the result is far past FLT_MAX:
  // the vector kernel gives inf there (ldexp saturates), or a NaN when q leaves int32 (d.x >
  // 1.49e9, or d.x = inf, d.y = -inf from an overflowing product), which xpowf turns into inf.
  // Returning inf first keeps NaNs out of constant evaluation and gives the same bits.
  if (d.x < -104.0f) return 0.0f;
  if (d.x > 1e4f) return std::numeric_limits<float>::infinity();
  constexpr float r_ln2 = 1.442695040888963407359924681001892137426645954152985934135449406931f;
  constexpr float l2u = 0.693145751953125f;
  constexpr float l2l = 1.428606765330187045e-06f;
  const std::int32_t q = cvt_rne((d.x + d.y) * r_ln2);
  const float qf = static_cast<float>(q);  // cvtdq2ps: rounds to nearest for |q| > 2^24

  f2 s = add2(d, qf * -l2u);
  s = add2(s, qf * -l2l);
  s = normalize(s);

  float u = 0.00136324646882712841033936f;
  u = fma(u, s.x, 0.00836596917361021041870117f);
  u = fma(u, s.x, 0.0416710823774337768554688f);
  u = fma(u, s.x, 0.166665524244308471679688f);
  u = fma(u, s.x, 0.499999850988388061523438f);

  f2 t = add(s, mul(square(s), u));  // s + s^2 u = e^s - 1
  t = add(1.0f, t);
  return ldexp(t.x + t.y, q);
}

}  // namespace posenc::detail::sleef

namespace posenc::math {

// x^y as SLEEF 3.5.1's Sleef_powf8_u10avx2 / Sleef_powf16_u10avx512f compute it (1 ULP, not
// correctly rounded), for every float x and y, special values included (xpowf's selects in
// order: each later one overrides the earlier ones).
constexpr float sleef_powf(float x, float y) noexcept {
  namespace s = posenc::detail::sleef;
  constexpr float inf = std::numeric_limits<float>::infinity();
  // vabs: the sign bit cleared (also for -0 and NaN).
  const float ax = std::bit_cast<float>(std::bit_cast<std::uint32_t>(x) & 0x7fffffffu);
  const float ay = std::bit_cast<float>(std::bit_cast<std::uint32_t>(y) & 0x7fffffffu);
  const bool yisint = s::trunc_f(y) == y || ay > 0x1p24f;
  const bool yisodd = (s::cvt_trunc(y) & 1) == 1 && yisint && ay < 0x1p24f;

  // xpowf computes the kernel for every lane and then overrides the special lanes with selects,
  // each later select winning. Here the overrides come first, in reverse order, as early returns:
  // the same results, and no NaN is ever produced from non-NaN operands (a constant expression
  // may not do that).
  if (y == 0.0f || x == 1.0f) return 1.0f;  // even for a NaN operand
  // A NaN operand: all bits set (vor with the all-ones mask), a negative quiet NaN.
  if (x != x || y != y) return std::bit_cast<float>(0xffffffffu);
  if (ax == inf || x == 0.0f) {
    // vsign(x): +-1 with x's sign bit; the magnitude is 0 or inf from the sign of y (of -y for 0).
    const float sx = std::bit_cast<float>(0x3f800000u | (std::bit_cast<std::uint32_t>(x) & 0x80000000u));
    const float yy = x == 0.0f ? -y : y;
    return (yisodd ? sx : 1.0f) * (yy < 0.0f ? 0.0f : inf);
  }
  if (ay == inf) {
    // vmulsign(|x| - 1, y): |x| - 1 with its sign flipped when y is negative (sign-bit xor).
    const float am1 = ax - 1.0f;
    const float efx =
        std::bit_cast<float>(std::bit_cast<std::uint32_t>(am1) ^ (std::bit_cast<std::uint32_t>(y) & 0x80000000u));
    return efx < 0.0f ? 0.0f : (efx == 0.0f ? 1.0f : inf);
  }
  // x finite, nonzero, != 1; y finite, nonzero. A negative x needs an integer y (else NaN: the
  // kernel's result times SLEEF_NANf, 0x7fc00000); an odd y gives the result x's sign.
  if (!(x > 0) && !yisint) return std::numeric_limits<float>::quiet_NaN();
  const s::f2 l = s::logk(ax);
  float result = 0.0f;
  // l.x * y, the leading part of the kernel's argument, is exact in double. Far beyond expk's
  // thresholds (|d.x| > 1e4 gives inf, d.x < -104 gives +0) the float product may overflow
  // (+-inf, and a NaN in the error term): return expk's result without forming it.
  const double lead = static_cast<double>(l.x) * static_cast<double>(y);
  if (lead >= 0x1p100)
    result = inf;
  else if (lead <= -0x1p100)
    result = 0.0f;
  else
    result = s::expk(s::mul(l, y));
  if (result != result) result = inf;  // xpowf: a NaN from the kernel becomes inf
  return x > 0 ? result : result * (yisodd ? -1.0f : 1.0f);
}

}  // namespace posenc::math
