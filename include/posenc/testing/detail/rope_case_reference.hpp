// rope_case_reference.hpp: the exact rotation of one drawn case (tokens x heads x head_dim at
// given positions), for the checks of check_rope_apply.hpp. Internal.
//
// cos and sin of m theta_j come from verify::rope_table_oracle (320 bits, error below 2^-250),
// plain and with the attention factor folded in as HF folds it (cos = emb.cos() *
// attention_scaling), the latter through the oracle's fold so that both are the same numbers the
// table tests use. The exact outputs y_a = a c - b s, y_b = a s + b c are formed at 400 bits: a
// and b have at most 53 significant bits, so the products are exact and the one rounding of the
// sum is far below any bound.
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "posenc/rope/config.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/rope_table_oracle.hpp"

namespace posenc::testing::detail {

using mp = posenc::verify::detail::mp;
inline constexpr mpfr_prec_t exact_prec = 400;

// cos/sin of one (position, pair): plain and folded at 320 bits, folded rounded to double.
struct pair_angle {
  verify::rope_table_oracle::value plain, folded;
  double c = 0, s = 0;  // folded cos and sin, rounded to double away from zero (for the bounds)
};

class case_reference {
 public:
  // The angles of every (token, pair); positions are the case's, the oracle the config's (with
  // HF's seq_len already resolved for these positions).
  case_reference(const verify::rope_table_oracle& o, std::span<const std::int64_t> positions, std::size_t pairs)
      : pairs_(pairs), af_(verify::rope_table_oracle::prec) {
    verify::rope_table_oracle::value one;
    mpfr_set_ui(one.cos.get(), 1, MPFR_RNDN);
    mpfr_set_ui(one.sin.get(), 0, MPFR_RNDN);
    verify::rope_table_oracle::value af;
    o.fold(one, true, af);
    mpfr_set(af_.get(), af.cos.get(), MPFR_RNDN);  // 1 * af, exact
    angles_.reserve(positions.size() * pairs);
    for (const std::int64_t m : positions)
      for (std::size_t j = 0; j < pairs; ++j) {
        auto a = std::make_unique<pair_angle>();
        o.eval(static_cast<std::uint64_t>(m), static_cast<int>(j), false, a->plain);
        o.fold(a->plain, m == 0 || mpfr_zero_p(a->plain.sin.get()), a->folded);
        a->c = mpfr_get_d(a->folded.cos.get(), MPFR_RNDA);
        a->s = mpfr_get_d(a->folded.sin.get(), MPFR_RNDA);
        angles_.push_back(std::move(a));
      }
  }

  const pair_angle& angle(std::size_t token, std::size_t pair) const { return *angles_[token * pairs_ + pair]; }
  mpfr_srcptr attention_factor() const noexcept { return af_.get(); }

  // out = the exact y of component t (0: a c - b s, 1: a s + b c) of the pair (a, b).
  void exact(std::size_t token, std::size_t pair, int t, double a, double b, mp& out) const {
    const pair_angle& g = angle(token, pair);
    mp pa(exact_prec), pb(exact_prec);
    mpfr_mul_d(pa.get(), t == 0 ? g.folded.cos.get() : g.folded.sin.get(), a, MPFR_RNDN);
    mpfr_mul_d(pb.get(), t == 0 ? g.folded.sin.get() : g.folded.cos.get(), b, MPFR_RNDN);
    if (t == 0) {
      mpfr_sub(out.get(), pa.get(), pb.get(), MPFR_RNDN);
    } else {
      mpfr_add(out.get(), pa.get(), pb.get(), MPFR_RNDN);
    }
  }

 private:
  std::size_t pairs_;
  std::vector<std::unique_ptr<pair_angle>> angles_;
  mp af_;
};

}  // namespace posenc::testing::detail
