// sinusoid_decay: the dot product P(p) . P(p + k) of two sinusoidal encodings as a function of the
// distance k (it depends on k alone: laws/sinusoid/relative_dot.hpp), for the data of the plot in
// docs/laws.md section 6 (tools/plot-sinusoid-decay.sh draws it with gnuplot).
//
// The dot is sum_i cos(k omega_i) over the d/2 frequencies (sin a sin b + cos a cos b = cos(a - b)),
// evaluated with MPFR at 128 bits from the exact frequencies base^(-e_i) (the exponents exact
// fractions): independent of posenc's own tables, and exact to far below the plot's resolution.
// Output: one line per k, "k paper fairseq", each dot divided by d/2 (1 at k = 0).
// Build: the CMake target sinusoid_decay, or g++ -std=c++20 -O2 tools/sinusoid_decay.cpp -lmpfr -lgmp
// Run:   ./sinusoid_decay [d] [k_max]       (default d = 512, k_max = 4096)
#include <mpfr.h>

#include <cstdio>
#include <cstdlib>

namespace {

// sum_{i < d/2} cos(k base^(-num_i / den)) / (d/2), num_i = i * num_step.
double mean_cos(long k, long d, long num_step, long den) {
  mpfr_t w, x, acc, e;
  mpfr_inits2(128, w, x, acc, e, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_zero(acc, 1);
  for (long i = 0; i < d / 2; ++i) {
    mpfr_set_si(e, -i * num_step, MPFR_RNDN);  // exact: small integers
    mpfr_div_si(e, e, den, MPFR_RNDN);
    mpfr_set_ui(w, 10000, MPFR_RNDN);
    mpfr_pow(w, w, e, MPFR_RNDN);
    mpfr_mul_si(x, w, k, MPFR_RNDN);
    mpfr_cos(x, x, MPFR_RNDN);
    mpfr_add(acc, acc, x, MPFR_RNDN);
  }
  mpfr_div_si(acc, acc, d / 2, MPFR_RNDN);
  const double r = mpfr_get_d(acc, MPFR_RNDN);
  mpfr_clears(w, x, acc, e, static_cast<mpfr_ptr>(nullptr));
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const long d = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 512;
  const long k_max = argc > 2 ? std::strtol(argv[2], nullptr, 10) : 4096;
  if (d < 4 || d % 2 != 0 || k_max < 0 || k_max > 1000000) {
    std::fprintf(stderr, "sinusoid_decay: error: d must be even and >= 4, k_max in [0, 10^6]\n");
    return 2;
  }
  std::printf("# k  paper(2i/d)  fairseq(i/(d/2-1))   P(p).P(p+k) / (d/2), d = %ld, base 10000\n", d);
  for (long k = 0; k <= k_max; ++k)
    std::printf("%ld %.9f %.9f\n", k, mean_cos(k, d, 2, d), mean_cos(k, d, 1, d / 2 - 1));
  return 0;
}
