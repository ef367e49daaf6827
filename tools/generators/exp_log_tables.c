// Table/constant generator for posenc exp/log kernels. Build: gcc gen.c -lmpfr -lgmp
#include <stdio.h>
#include <mpfr.h>
#include <math.h>
static void dd(mpfr_t v, double* h, double* l) {
  mpfr_t t; mpfr_init2(t, 400);
  *h = mpfr_get_d(v, MPFR_RNDN); mpfr_sub_d(t, v, *h, MPFR_RNDN); *l = mpfr_get_d(t, MPFR_RNDN);
  mpfr_clear(t);
}
// round v to 'bits' significant bits, return double
static double rbits(mpfr_t v, int bits) { mpfr_t t; mpfr_init2(t, bits); mpfr_set(t, v, MPFR_RNDN); double d = mpfr_get_d(t, MPFR_RNDN); mpfr_clear(t); return d; }
int main(int argc, char** argv) {
  mpfr_t v, w, ln2; mpfr_inits2(400, v, w, ln2, (mpfr_ptr)0);
  mpfr_const_log2(ln2, MPFR_RNDN);
  double h, l;
  if (argc > 1 && argv[1][0] == 'e') {
    printf("// 2^(i/64), i = 0..63\n");
    for (int i = 0; i < 64; ++i) { mpfr_set_si(v, i, MPFR_RNDN); mpfr_div_si(v, v, 64, MPFR_RNDN); mpfr_exp2(v, v, MPFR_RNDN); dd(v, &h, &l); printf("    %a, %a,\n", h, l); }
    printf("// 2^(j/4096) - 1, j = 0..63\n");
    for (int i = 0; i < 64; ++i) { mpfr_set_si(v, i, MPFR_RNDN); mpfr_div_si(v, v, 4096, MPFR_RNDN); mpfr_exp2(v, v, MPFR_RNDN); mpfr_sub_ui(v, v, 1, MPFR_RNDN); dd(v, &h, &l); printf("    %a, %a,\n", h, l); }
  } else if (argc > 1 && argv[1][0] == 'l') {
    // cell i: m in [1 + i/256, 1 + (i+1)/256); R ~ 1/center, 14 bits; i=0 -> 1, i=255 -> 1/2.
    double zmax = 0;
    for (int i = 0; i < 256; ++i) {
      double R;
      if (i == 0) R = 1.0; else if (i == 255) R = 0.5; else {
        mpfr_set_d(v, 1.0 + (i + 0.5) / 256.0, MPFR_RNDN); mpfr_ui_div(v, 1, v, MPFR_RNDN); R = rbits(v, 14); }
      double z1 = fabs((1.0 + i / 256.0) * R - 1), z2 = fabs((1.0 + (i + 1) / 256.0) * R - 1);
      if (z1 > zmax) zmax = z1; if (z2 > zmax) zmax = z2;
      // L = -log(R) for i < 106, -log(2R) for i >= 106
      mpfr_set_d(v, i >= 106 ? 2 * R : R, MPFR_RNDN); mpfr_log(v, v, MPFR_RNDN); mpfr_neg(v, v, MPFR_RNDN);
      dd(v, &h, &l); printf("    %a, %a, %a,\n", R, h, l);
    }
    fprintf(stderr, "zmax = %a = 2^%g\n", zmax, log2(zmax));
  } else {
    // constants
    mpfr_set(v, ln2, MPFR_RNDN); double L1 = rbits(v, 42); mpfr_sub_d(v, v, L1, MPFR_RNDN); double L2 = rbits(v, 42); mpfr_sub_d(v, v, L2, MPFR_RNDN); double L3 = mpfr_get_d(v, MPFR_RNDN);
    printf("ln2 = %a + %a + %a\n", L1, L2, L3);
    mpfr_div_ui(v, ln2, 4096, MPFR_RNDN); L1 = rbits(v, 30); mpfr_sub_d(v, v, L1, MPFR_RNDN); L2 = mpfr_get_d(v, MPFR_RNDN); mpfr_sub_d(v, v, L2, MPFR_RNDN); L3 = mpfr_get_d(v, MPFR_RNDN);
    printf("ln2/4096 = %a + %a + %a\n", L1, L2, L3);
    mpfr_div_ui(v, ln2, 64, MPFR_RNDN); L1 = rbits(v, 38); mpfr_sub_d(v, v, L1, MPFR_RNDN); L2 = mpfr_get_d(v, MPFR_RNDN); mpfr_sub_d(v, v, L2, MPFR_RNDN); L3 = mpfr_get_d(v, MPFR_RNDN);
    printf("ln2/64 = %a + %a + %a\n", L1, L2, L3);
    mpfr_ui_div(v, 4096, ln2, MPFR_RNDN); printf("4096/ln2 = %a\n", mpfr_get_d(v, MPFR_RNDN));
    mpfr_ui_div(v, 64, ln2, MPFR_RNDN); printf("64/ln2 = %a\n", mpfr_get_d(v, MPFR_RNDN));
    for (int k = 2; k <= 14; ++k) { mpfr_set_ui(v, 1, MPFR_RNDN); mpfr_div_si(v, v, (k % 2) ? k : -k, MPFR_RNDN); dd(v, &h, &l); printf("log1p c%d = %a, %a\n", k, h, l); }
    mpfr_set_ui(v, 1, MPFR_RNDN);
    for (int k = 2; k <= 8; ++k) { mpfr_div_ui(v, v, k, MPFR_RNDN); dd(v, &h, &l); printf("1/%d! = %a, %a\n", k, h, l); }
    mpfr_sqrt_ui(v, 2, MPFR_RNDN); printf("sqrt2 %a\n", mpfr_get_d(v, MPFR_RNDN));
  }
  return 0;
}
