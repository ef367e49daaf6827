// exact_real.hpp: exact_real, the Boost.Multiprecision real (100 decimal digits, about 333 bits)
// that carries high-precision values to the verify layer's public API, and the oracle values read
// as one: exact_sin, exact_cos, exact_exp, exact_log, exact_sqrt, exact_pow (oracle.hpp's
// evaluations) and exact_rope_theta (rope_oracle.hpp's frequency).
//
// A header of its own because Boost.Multiprecision's MPFR backend costs about 2.8 s of compile time
// in every translation unit that includes it: the oracles and verify engines work on raw MPFR
// (mpfr.hpp) and do not pay for it; the law measures (verify/law_measures/), stats.hpp and the tests that
// compute with exact reals include this header. Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <boost/multiprecision/mpfr.hpp>

#include "posenc/verify/oracle.hpp"
#include "posenc/verify/rope_oracle.hpp"

namespace posenc::verify {

// A high-precision real for the public API: 100 decimal digits, about 333 bits, so an oracle value
// (at least oracle_precision = 320 bits) converts to it without rounding.
using exact_real =
    boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<100>, boost::multiprecision::et_off>;

// High-precision values (at least oracle_precision bits), for ulp_error and printing: the current
// approximation of each oracle evaluation.
inline exact_real exact_sin(double x) { return exact_real(sin_value(x).approx()); }
inline exact_real exact_cos(double x) { return exact_real(cos_value(x).approx()); }
inline exact_real exact_exp(double x) { return exact_real(exp_value(x).approx()); }
inline exact_real exact_log(double x) { return exact_real(log_value(x).approx()); }
inline exact_real exact_sqrt(double x) { return exact_real(sqrt_value(x).approx()); }
inline exact_real exact_pow(double x, double y) { return exact_real(pow_value(x, y).approx()); }

// The default RoPE frequency theta_j = base^(-2j/d) at high precision (for checking rope_theta).
inline exact_real exact_rope_theta(double base, int j, int d) {
  return exact_real(rope_frequency(base, j, d).theta_mpfr());
}

}  // namespace posenc::verify
