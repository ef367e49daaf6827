// rope_case_checks.hpp: the five properties of docs/testing-kernels.md on one case, two calls of a
// kernel (positions m and m + t). Internal to check_rope_apply.hpp.
//
// Every left-hand side (a norm, a score difference, an element's error) is computed in MPFR from
// the kernel's outputs and rounded up to double; every right-hand side is the doc's bound in double
// from B (rope_kernel_bound.hpp), times 1 + 2^-40 where it multiplies or sums bounds. A NaN or an
// infinity in an output makes its comparison false, so it fails the first property it enters.
#pragma once

#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <deque>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "posenc/rope/layout.hpp"
#include "posenc/testing/detail/rope_case_reference.hpp"
#include "posenc/testing/rope_kernel_bound.hpp"
#include "posenc/testing/rope_property.hpp"

namespace posenc::testing::detail {

inline constexpr double bound_slack = 1 + 0x1p-40;

struct case_shape {
  std::size_t tokens, heads, head_dim, rotary;
  rope::layout lay;
  std::size_t at(std::size_t token, std::size_t head, std::size_t e) const noexcept {
    return (token * heads + head) * head_dim + e;
  }
  std::size_t elem(std::size_t j, int t) const noexcept { return rope::pair_index(lay, j, t, rotary); }
};

struct failure {
  rope_property property;
  std::string message;
};

// One call of the kernel: its positions, input and output as doubles, the exact rotation, and B
// and the exact y (as mp and as double) of every rotary element (zero elsewhere).
struct call_data {
  std::vector<std::int64_t> positions;
  std::vector<double> x, y;
  const case_reference* ref = nullptr;
  std::vector<double> bound, exact_d;
  std::deque<mp> exact;

  void prepare(const case_shape& sh, const resolved_model& m) {
    const std::size_t n = x.size();
    bound.assign(n, 0.0);
    exact_d.assign(n, 0.0);
    for (std::size_t k = 0; k < n; ++k) exact.emplace_back(exact_prec);
    for (std::size_t i = 0; i < sh.tokens; ++i)
      for (std::size_t h = 0; h < sh.heads; ++h)
        for (std::size_t j = 0; j < sh.rotary / 2; ++j) {
          const std::size_t ia = sh.at(i, h, sh.elem(j, 0)), ib = sh.at(i, h, sh.elem(j, 1));
          const pair_angle& g = ref->angle(i, j);
          const pair_bound b = rope_pair_bound(m, x[ia], x[ib], g.c, g.s);
          bound[ia] = b.a;
          bound[ib] = b.b;
          ref->exact(i, j, 0, x[ia], x[ib], exact[ia]);
          ref->exact(i, j, 1, x[ia], x[ib], exact[ib]);
          exact_d[ia] = mpfr_get_d(exact[ia].get(), MPFR_RNDN);
          exact_d[ib] = mpfr_get_d(exact[ib].get(), MPFR_RNDN);
        }
  }
};

inline std::string where(const call_data& c, std::size_t token, std::size_t head) {
  std::ostringstream o;
  o << "position " << c.positions[token] << " (token " << token << "), head " << head;
  return o.str();
}

// "v (k ulps of D)" with k in ulps of D at magnitude `at`.
inline std::string in_ulps(double v, dtype d, double at) {
  std::ostringstream o;
  o.precision(17);
  o << v << " (" << v / ulp(d, std::fabs(at)) << " ulps of " << name_of(d) << ")";
  return o.str();
}

inline double up(const mp& v) { return mpfr_get_d(v.get(), MPFR_RNDU); }

inline std::optional<failure> check_norm(const case_shape& sh, const call_data& c, dtype d) {
  mp ny(exact_prec), nx(exact_prec), t(exact_prec);
  for (std::size_t i = 0; i < sh.tokens; ++i)
    for (std::size_t h = 0; h < sh.heads; ++h) {
      mpfr_set_zero(ny.get(), 1);
      mpfr_set_zero(nx.get(), 1);
      double b2 = 0;
      for (std::size_t e = 0; e < sh.rotary; ++e) {
        const std::size_t k = sh.at(i, h, e);
        mpfr_set_d(t.get(), c.y[k], MPFR_RNDN);
        mpfr_sqr(t.get(), t.get(), MPFR_RNDN);
        mpfr_add(ny.get(), ny.get(), t.get(), MPFR_RNDN);
        mpfr_set_d(t.get(), c.x[k], MPFR_RNDN);
        mpfr_sqr(t.get(), t.get(), MPFR_RNDN);
        mpfr_add(nx.get(), nx.get(), t.get(), MPFR_RNDN);
        b2 += c.bound[k] * c.bound[k];
      }
      mpfr_sqrt(ny.get(), ny.get(), MPFR_RNDN);
      mpfr_sqrt(nx.get(), nx.get(), MPFR_RNDN);
      mpfr_mul(nx.get(), nx.get(), c.ref->attention_factor(), MPFR_RNDN);  // af ||x||
      const double at = mpfr_get_d(nx.get(), MPFR_RNDN);
      mpfr_sub(t.get(), ny.get(), nx.get(), MPFR_RNDN);
      mpfr_abs(t.get(), t.get(), MPFR_RNDN);
      const double dev = up(t), bound = std::sqrt(b2) * bound_slack;
      if (!(dev <= bound))
        return failure{rope_property::norm, "norm: " + where(c, i, h) +
                                                ": | ||y~|| - af ||x|| | = " + in_ulps(dev, d, at) +
                                                " exceeds sqrt(sum B^2) = " + in_ulps(bound, d, at)};
    }
  return std::nullopt;
}

// <u, v> over the rotary elements of (token i, head h) and (token k, head h); u, v as doubles.
inline void score(const case_shape& sh, const std::vector<double>& u, std::size_t i, std::size_t k, std::size_t h,
                  mp& out) {
  mp t(exact_prec);
  mpfr_set_zero(out.get(), 1);
  for (std::size_t e = 0; e < sh.rotary; ++e) {
    mpfr_set_d(t.get(), u[sh.at(i, h, e)], MPFR_RNDN);
    mpfr_mul_d(t.get(), t.get(), u[sh.at(k, h, e)], MPFR_RNDN);
    mpfr_add(out.get(), out.get(), t.get(), MPFR_RNDN);
  }
}

inline void exact_score(const case_shape& sh, const call_data& c, std::size_t i, std::size_t k, std::size_t h,
                        mp& out) {
  mp t(exact_prec);
  mpfr_set_zero(out.get(), 1);
  for (std::size_t e = 0; e < sh.rotary; ++e) {
    mpfr_mul(t.get(), c.exact[sh.at(i, h, e)].get(), c.exact[sh.at(k, h, e)].get(), MPFR_RNDN);
    mpfr_add(out.get(), out.get(), t.get(), MPFR_RNDN);
  }
}

// E_ik = sum_e (B_ie |y~_ke| + |y_ie| B_ke).
inline double score_bound(const case_shape& sh, const call_data& c, std::size_t i, std::size_t k, std::size_t h) {
  double s = 0;
  for (std::size_t e = 0; e < sh.rotary; ++e) {
    const std::size_t a = sh.at(i, h, e), b = sh.at(k, h, e);
    s += c.bound[a] * std::fabs(c.y[b]) + std::fabs(c.exact_d[a]) * c.bound[b];
  }
  return s * bound_slack;
}

// |<y~_i, y~_k> - <y~'_i, y~'_k>| <= E_ik + E'_ik + |<y_i, y_k> - <y'_i, y'_k>|: the exact scores
// are equal (a function of m_k - m_i) unless the shift changed HF's seq_len and with it the
// frequencies (dynamic, LongRoPE with seq_len unset).
inline std::optional<failure> check_relative(const case_shape& sh, const call_data& c1, const call_data& c2, dtype d) {
  mp s1(exact_prec), s2(exact_prec), e1(exact_prec), e2(exact_prec);
  for (std::size_t h = 0; h < sh.heads; ++h)
    for (std::size_t i = 0; i < sh.tokens; ++i)
      for (std::size_t k = i + 1; k < sh.tokens; ++k) {
        score(sh, c1.y, i, k, h, s1);
        score(sh, c2.y, i, k, h, s2);
        exact_score(sh, c1, i, k, h, e1);
        exact_score(sh, c2, i, k, h, e2);
        const double at = mpfr_get_d(e1.get(), MPFR_RNDN);
        mpfr_sub(s1.get(), s1.get(), s2.get(), MPFR_RNDN);
        mpfr_abs(s1.get(), s1.get(), MPFR_RNDN);
        mpfr_sub(e1.get(), e1.get(), e2.get(), MPFR_RNDN);
        mpfr_abs(e1.get(), e1.get(), MPFR_RNDN);
        mpfr_sub(s1.get(), s1.get(), e1.get(), MPFR_RNDN);
        const double dev = up(s1), bound = score_bound(sh, c1, i, k, h) + score_bound(sh, c2, i, k, h);
        if (!(dev <= bound)) {
          std::ostringstream o;
          o << "relative position: head " << h << ", tokens " << i << " and " << k << " at positions "
            << c1.positions[i] << " and " << c1.positions[k] << ", then shifted to " << c2.positions[i] << " and "
            << c2.positions[k] << ": their score moved by " << in_ulps(dev, d, at)
            << ", more than E + E' = " << in_ulps(bound, d, at);
          return failure{rope_property::relative_position, o.str()};
        }
      }
  return std::nullopt;
}

inline std::string element_where(const case_shape& sh, const call_data& c, std::size_t i, std::size_t h, std::size_t j,
                                 int t) {
  std::ostringstream o;
  o << where(c, i, h) << ", pair " << j << ", element " << sh.elem(j, t) << " (" << (t == 0 ? "x" : "y")
    << " of the pair)";
  return o.str();
}

// R(-m) y~ = (cos y~_a + sin y~_b, -sin y~_a + cos y~_b) against af (a, b), with the plain cos/sin.
inline std::optional<failure> check_inverse(const case_shape& sh, const call_data& c, dtype d) {
  mp u(exact_prec), v(exact_prec), w(exact_prec);
  for (std::size_t i = 0; i < sh.tokens; ++i)
    for (std::size_t h = 0; h < sh.heads; ++h)
      for (std::size_t j = 0; j < sh.rotary / 2; ++j) {
        const pair_angle& g = c.ref->angle(i, j);
        const std::size_t ia = sh.at(i, h, sh.elem(j, 0)), ib = sh.at(i, h, sh.elem(j, 1));
        const double cs = std::fabs(mpfr_get_d(g.plain.cos.get(), MPFR_RNDA)),
                     sn = std::fabs(mpfr_get_d(g.plain.sin.get(), MPFR_RNDA));
        for (int t = 0; t < 2; ++t) {
          // t = 0: cos y~_a + sin y~_b; t = 1: cos y~_b - sin y~_a
          mpfr_mul_d(u.get(), g.plain.cos.get(), t == 0 ? c.y[ia] : c.y[ib], MPFR_RNDN);
          mpfr_mul_d(v.get(), g.plain.sin.get(), t == 0 ? c.y[ib] : c.y[ia], MPFR_RNDN);
          if (t == 0) {
            mpfr_add(u.get(), u.get(), v.get(), MPFR_RNDN);
          } else {
            mpfr_sub(u.get(), u.get(), v.get(), MPFR_RNDN);
          }
          mpfr_mul_d(w.get(), c.ref->attention_factor(), t == 0 ? c.x[ia] : c.x[ib], MPFR_RNDN);
          const double at = mpfr_get_d(w.get(), MPFR_RNDN);
          mpfr_sub(u.get(), u.get(), w.get(), MPFR_RNDN);
          mpfr_abs(u.get(), u.get(), MPFR_RNDN);
          const double dev = up(u);
          const double bound =
              (t == 0 ? cs * c.bound[ia] + sn * c.bound[ib] : sn * c.bound[ia] + cs * c.bound[ib]) * bound_slack;
          if (!(dev <= bound))
            return failure{rope_property::inverse, "inverse: " + element_where(sh, c, i, h, j, t) +
                                                       ": R(-m) y~ differs from af x by " + in_ulps(dev, d, at) +
                                                       ", more than |cos| B_a + |sin| B_b = " + in_ulps(bound, d, at)};
        }
      }
  return std::nullopt;
}

// |y~ - y| <= B for every rotary element; worst collects max |y~ - y| / B.
inline std::optional<failure> check_exact(const case_shape& sh, const call_data& c, dtype d, double& worst) {
  mp u(exact_prec);
  for (std::size_t i = 0; i < sh.tokens; ++i)
    for (std::size_t h = 0; h < sh.heads; ++h)
      for (std::size_t j = 0; j < sh.rotary / 2; ++j)
        for (int t = 0; t < 2; ++t) {
          const std::size_t k = sh.at(i, h, sh.elem(j, t));
          mpfr_set_d(u.get(), c.y[k], MPFR_RNDN);
          mpfr_sub(u.get(), u.get(), c.exact[k].get(), MPFR_RNDN);
          mpfr_abs(u.get(), u.get(), MPFR_RNDN);
          const double dev = up(u), bound = c.bound[k];
          if (dev <= bound) {
            if (bound > 0 && dev / bound > worst) worst = dev / bound;
            continue;
          }
          std::ostringstream o;
          o.precision(17);
          o << "exact: " << element_where(sh, c, i, h, j, t) << ": the kernel gives " << c.y[k]
            << ", the exact value is " << c.exact_d[k] << " (input pair " << c.x[sh.at(i, h, sh.elem(j, 0))] << ", "
            << c.x[sh.at(i, h, sh.elem(j, 1))] << "); error " << in_ulps(dev, d, c.exact_d[k]) << ", bound B "
            << in_ulps(bound, d, c.exact_d[k]);
          return failure{rope_property::exact, o.str()};
        }
  return std::nullopt;
}

}  // namespace posenc::testing::detail
