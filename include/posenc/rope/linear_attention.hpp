// linear_attention.hpp: causal linear attention with RoPE (Su et al., "RoFormer", arXiv:2104.09864,
// section 3.3, eq. 19), in O(n) through the running K^T V state and in O(n^2) directly, in double,
// with the bound on their difference that floating-point summation allows (docs/rope-remap.md
// section 4). No softmax: with a feature map phi (identity, or elu + 1 so that phi > 0),
//   num_m = sum_{n <= m} (R_m phi(q_m))^T (R_n phi(k_n)) v_n      (rotated features)
//   den_m = sum_{n <= m} phi(q_m)^T phi(k_n)                      (not rotated: RoFormer keeps the
//                                                                  denominator positive this way)
//   out_m = num_m / den_m.
// The caller rotates: rq[m] = R_m phi(q_m), rk[n] = R_n phi(k_n) (rope::rotate with a table row),
// fq[m] = phi(q_m), fk[n] = phi(k_n); arrays are row-major, tokens x dim (and tokens x value_dim
// for v, num, out). The rotation is not part of the comparison: both orders read the same rotated
// vectors, and differ only in how they sum.
//   causal_linear_attention     state S = sum_{n <= m} rk[n] v[n]^T (dim x value_dim) and
//                               z = sum_{n <= m} fk[n], updated with token m before token m reads
//                               them: num_m = rq[m]^T S, den_m = fq[m]^T z. O(n dim value_dim).
//   causal_quadratic_attention  num_m = sum_{n <= m} (rq[m]^T rk[n]) v[n], den_m likewise. O(n^2).
//   linear_attention_bounds     per output, the bound on |quadratic - linear| for num and den
//                               (2 gamma_K E / (1 - gamma_K), K = m + dim + 1, E the sum of the
//                               absolute terms, Higham 2nd ed. Lemma 3.1 and eq. 3.4), and for out
//                               when every term of den is >= 0 (elu + 1 features).
// Every sum is recursive, left to right, starting from the first term (no FMA: -ffp-contract=off).
// constexpr, no heap: the state and the outputs are the caller's spans. domain_error on a shape
// mismatch.
#pragma once

#include <cstddef>
#include <span>

#include "posenc/status.hpp"

namespace posenc::rope {

struct linear_attention_shape {
  std::size_t tokens = 0;
  std::size_t dim = 0;        // feature dim of phi(q), phi(k) (the rotary dim)
  std::size_t value_dim = 0;  // dim of v
};

struct linear_attention_inputs {
  std::span<const double> rq, rk, fq, fk, v;  // R phi(q), R phi(k), phi(q), phi(k): tokens x dim; v: tokens x value_dim
};

struct linear_attention_outputs {
  std::span<double> num, den, out;  // tokens x value_dim, tokens, tokens x value_dim
};

}  // namespace posenc::rope

namespace posenc::rope::detail {

constexpr bool attention_shape_ok(const rope::linear_attention_shape& s, const rope::linear_attention_inputs& in,
                                  const rope::linear_attention_outputs& out) noexcept {
  const std::size_t nd = s.tokens * s.dim, nv = s.tokens * s.value_dim;
  return s.tokens > 0 && s.dim > 0 && s.value_dim > 0 && in.rq.size() == nd && in.rk.size() == nd &&
         in.fq.size() == nd && in.fk.size() == nd && in.v.size() == nv && out.num.size() == nv &&
         out.den.size() == s.tokens && out.out.size() == nv;
}

// x^T y over n elements, recursive from the first product.
constexpr double dot(const double* x, const double* y, std::size_t n) noexcept {
  double s = x[0] * y[0];
  for (std::size_t i = 1; i < n; ++i) s += x[i] * y[i];
  return s;
}

constexpr double magnitude(double x) noexcept { return x < 0 ? -x : x; }

}  // namespace posenc::rope::detail

namespace posenc::rope {

// O(n): state holds dim x value_dim + dim doubles (S, then z).
constexpr posenc::status causal_linear_attention(const linear_attention_shape& sh, const linear_attention_inputs& in,
                                                 const linear_attention_outputs& out,
                                                 std::span<double> state) noexcept {
  if (!rope::detail::attention_shape_ok(sh, in, out) || state.size() != sh.dim * sh.value_dim + sh.dim)
    return posenc::status::domain_error;
  const std::size_t d = sh.dim, dv = sh.value_dim;
  double* S = state.data();
  double* z = state.data() + d * dv;
  for (std::size_t m = 0; m < sh.tokens; ++m) {
    const double *rk = in.rk.data() + m * d, *fk = in.fk.data() + m * d, *v = in.v.data() + m * dv;
    for (std::size_t i = 0; i < d; ++i) {  // token m enters the state before it is read (causal, n <= m)
      for (std::size_t c = 0; c < dv; ++c) S[i * dv + c] = m == 0 ? rk[i] * v[c] : S[i * dv + c] + rk[i] * v[c];
      z[i] = m == 0 ? fk[i] : z[i] + fk[i];
    }
    const double *rq = in.rq.data() + m * d, *fq = in.fq.data() + m * d;
    for (std::size_t c = 0; c < dv; ++c) {
      double s = rq[0] * S[c];
      for (std::size_t i = 1; i < d; ++i) s += rq[i] * S[i * dv + c];
      out.num[m * dv + c] = s;
    }
    out.den[m] = rope::detail::dot(fq, z, d);
    for (std::size_t c = 0; c < dv; ++c) out.out[m * dv + c] = out.num[m * dv + c] / out.den[m];
  }
  return posenc::status::ok;
}

// O(n^2): the scores first, then their sums.
constexpr posenc::status causal_quadratic_attention(const linear_attention_shape& sh, const linear_attention_inputs& in,
                                                    const linear_attention_outputs& out) noexcept {
  if (!rope::detail::attention_shape_ok(sh, in, out)) return posenc::status::domain_error;
  const std::size_t d = sh.dim, dv = sh.value_dim;
  for (std::size_t m = 0; m < sh.tokens; ++m) {
    const double *rq = in.rq.data() + m * d, *fq = in.fq.data() + m * d;
    double den = 0;
    for (std::size_t n = 0; n <= m; ++n) {
      const double score = rope::detail::dot(rq, in.rk.data() + n * d, d);
      const double weight = rope::detail::dot(fq, in.fk.data() + n * d, d);
      den = n == 0 ? weight : den + weight;
      for (std::size_t c = 0; c < dv; ++c) {
        double& acc = out.num[m * dv + c];
        acc = n == 0 ? score * in.v[n * dv + c] : acc + score * in.v[n * dv + c];
      }
    }
    out.den[m] = den;
    for (std::size_t c = 0; c < dv; ++c) out.out[m * dv + c] = out.num[m * dv + c] / out.den[m];
  }
  return posenc::status::ok;
}

// Bounds on |quadratic - linear| per output (docs/rope-remap.md section 4), with u = 2^-53,
// K = m + dim + 1, g = gamma_K = K u / (1 - K u):
//   num: 2 g E~ / (1 - g),  E~ = the computed sum_{n <= m} (sum_i |rq_i rk_n,i|) |v_n,c|
//   den: 2 g F~ / (1 - g),  F~ = the computed sum_{n <= m} sum_i |fq_i fk_n,i|
//   out: 2 g (2 + g) (1 + g) E~ / ((1 - g)^3 den~) + u (|out_lin| + |out_quad|), valid when every
//        term fq_i fk_n,i >= 0 (then den = F and den~ is within g of it; den~ from either order).
// Each multiplied by 1 + 2^-40 for the roundings of the bound's own evaluation (fewer than ten, each
// below 2^-53 relative). out_bound needs the two outputs: pass the linear and quadratic ones.
struct linear_attention_bound_spans {
  std::span<double> num, den, out;
};

constexpr posenc::status linear_attention_bounds(const linear_attention_shape& sh, const linear_attention_inputs& in,
                                                 std::span<const double> out_lin, std::span<const double> out_quad,
                                                 std::span<const double> den_computed,
                                                 const linear_attention_bound_spans& b) noexcept {
  const std::size_t d = sh.dim, dv = sh.value_dim;
  if (b.num.size() != sh.tokens * dv || b.den.size() != sh.tokens || b.out.size() != sh.tokens * dv ||
      out_lin.size() != sh.tokens * dv || out_quad.size() != sh.tokens * dv || den_computed.size() != sh.tokens ||
      in.rq.size() != sh.tokens * d || in.rk.size() != sh.tokens * d || in.fq.size() != sh.tokens * d ||
      in.fk.size() != sh.tokens * d || in.v.size() != sh.tokens * dv || d == 0 || dv == 0)
    return posenc::status::domain_error;
  using rope::detail::magnitude;
  constexpr double u = 0x1p-53, slack = 1 + 0x1p-40;
  for (std::size_t m = 0; m < sh.tokens; ++m) {
    const double ku = static_cast<double>(m + d + 1) * u, g = ku / (1 - ku);
    const double *rq = in.rq.data() + m * d, *fq = in.fq.data() + m * d;
    double f = 0;
    for (std::size_t c = 0; c < dv; ++c) b.num[m * dv + c] = 0;
    for (std::size_t n = 0; n <= m; ++n) {
      double a = 0, w = 0;
      for (std::size_t i = 0; i < d; ++i) {
        a += magnitude(rq[i] * in.rk[n * d + i]);
        w += magnitude(fq[i] * in.fk[n * d + i]);
      }
      f += w;
      for (std::size_t c = 0; c < dv; ++c) b.num[m * dv + c] += a * magnitude(in.v[n * dv + c]);
    }
    b.den[m] = 2 * g * f / (1 - g) * slack;
    for (std::size_t c = 0; c < dv; ++c) {
      const double e = b.num[m * dv + c];
      b.num[m * dv + c] = 2 * g * e / (1 - g) * slack;
      const double ratio = 2 * g * (2 + g) * (1 + g) * e / ((1 - g) * (1 - g) * (1 - g) * den_computed[m]);
      b.out[m * dv + c] = (ratio + u * (magnitude(out_lin[m * dv + c]) + magnitude(out_quad[m * dv + c]))) * slack;
    }
  }
  return posenc::status::ok;
}

}  // namespace posenc::rope
