// mpfr_oracle.hpp: now split by concept (issue 8); this forwarding header goes once its includers
// name what they use:
//   mpfr.hpp         the MPFR wrapper, precision constants, exact_real, rounding into T, ziv_value
//   oracle.hpp       the correctly rounded values cr_*, *_value, exact_*
//   stats.hpp        ulp_error, ulp_distance, same_result, error_stats, unwrap
//   random.hpp       test_seed, seed_for, print_seed, rng
//   rope_oracle.hpp  rope_frequency, rope_value, cr_rope_sincos, exact_rope_theta
#pragma once

#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/oracle.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/rope_oracle.hpp"
#include "posenc/verify/stats.hpp"
