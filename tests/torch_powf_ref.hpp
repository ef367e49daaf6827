// torch's CPU float32 pow of an exponent tensor, as the tests' independent references compute it
// for rope::hf_float32 (docs/rope-precision.md, "torch's pow"; include/posenc/rope/detail/policy_hf.hpp):
// element j of n, on torch 1.13's AVX2 kernel, is SLEEF's vector powf for j below the last whole
// block of 16 and libm's powf after it, for which MPFR's correctly rounded power stands in (as in
// posenc). SLEEF's powf comes from the real library: Sleef_powf1_u10purecfma, SLEEF's one-lane FMA
// build of the same vector source (the same bits as Sleef_powf8_u10avx2: test_sleef_powf), linked
// by tests/CMakeLists.txt where libsleef is found. The symbol is weak so that a build without the
// library still links; it then falls back to posenc's math::sleef_powf (checked against libsleef by
// test_sleef_powf on machines that have it), and so it does on a CPU without FMA.
#pragma once

#include <mpfr.h>

#include "posenc/math/sleef_powf.hpp"

extern "C" __attribute__((weak)) float Sleef_powf1_u10purecfma(float, float);

namespace posenc_test {

// RN_float32(x^y) by MPFR (normal results; the RoPE powers are in [1, 2^40]).
inline float mpfr_powf(float x, float y) {
  mpfr_t a, b, r;
  mpfr_inits2(24, a, b, r, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_flt(a, x, MPFR_RNDN);
  mpfr_set_flt(b, y, MPFR_RNDN);
  mpfr_pow(r, a, b, MPFR_RNDN);
  const float out = mpfr_get_flt(r, MPFR_RNDN);
  mpfr_clears(a, b, r, static_cast<mpfr_ptr>(nullptr));
  return out;
}

inline bool have_real_sleef() { return Sleef_powf1_u10purecfma != nullptr && __builtin_cpu_supports("fma"); }

inline float torch_powf(float base, float t, long j, long n) {
  if (j >= n - n % 16) return mpfr_powf(base, t);
  if (have_real_sleef()) return Sleef_powf1_u10purecfma(base, t);
  return posenc::math::sleef_powf(base, t);
}

}  // namespace posenc_test
