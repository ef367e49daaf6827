// Prints limbs (big-endian, 64-bit) of constants, from MPFR at 4000 bits.
#include <mpfr.h>
#include <stdio.h>
#include <stdint.h>
static void dump(const char* name, mpfr_t x, int nlimbs, int intbits) {
  // x in [2^(intbits-1), 2^intbits): print floor(x * 2^(64*nlimbs - intbits)) limb by limb
  mpz_t z; mpz_init(z);
  mpfr_t t; mpfr_init2(t, 5000);
  mpfr_mul_2si(t, x, 64*nlimbs - intbits, MPFR_RNDN);
  mpfr_get_z(z, t, MPFR_RNDD);
  printf("// %s\n", name);
  for (int i = 0; i < nlimbs; i++) {
    mpz_t q; mpz_init(q);
    mpz_fdiv_q_2exp(q, z, 64*(nlimbs-1-i));
    mpz_fdiv_r_2exp(q, q, 64);
    printf("0x%016llxu,%s", (unsigned long long)mpz_get_ui(q), (i%4==3)?"\n":" ");
    mpz_clear(q);
  }
  printf("\n");
}
int main(void) {
  mpfr_t pi, x; mpfr_init2(pi, 4000); mpfr_init2(x, 4000);
  mpfr_const_pi(pi, MPFR_RNDN);
  mpfr_div_2ui(x, pi, 1, MPFR_RNDN); dump("pi/2, 1 integer bit", x, 20, 1);
  mpfr_const_log2(x, MPFR_RNDN); dump("ln2, 0 integer bits", x, 20, 0);
  mpfr_ui_div(x, 2, pi, MPFR_RNDN); dump("2/pi, 0 integer bits", x, 48, 0);
  return 0;
}
