// linear_attention_rope.cpp: causal linear attention with RoPE (RoFormer section 3.3) computed in
// O(n) through the running K^T V state and in O(n^2) directly, and the two compared against the
// bound that floating-point summation allows (docs/rope-remap.md section 4). Exit status 1 if any
// output is outside its bound.
//
//   phi(x) = elu(x) + 1 (positive, so the denominator is a sum of positive terms)
//   num_m  = sum_{n <= m} (R_m phi(q_m))^T (R_n phi(k_n)) v_n,  den_m = sum_{n <= m} phi(q_m)^T phi(k_n)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <posenc/rope/apply.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/linear_attention.hpp>

namespace rope = posenc::rope;

namespace {

// A fixed linear congruential sequence in [-2, 2): the example needs reproducible inputs, not
// statistics.
struct lcg {
  std::uint64_t s = 0x853C49E6748FEA9Bull;
  double next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) * 0x1p-53 * 4.0 - 2.0;
  }
};

double elu_plus_one(double x) { return x > 0 ? x + 1 : std::exp(x); }

}  // namespace

int main() {
  constexpr std::size_t tokens = 512, dim = 64, value_dim = 16;
  const rope::config cfg{.head_dim = dim, .rope_theta = 10000.0};

  // phi(q), phi(k), v; then R_m phi(q_m) and R_n phi(k_n) with posenc's correctly rounded table.
  lcg g;
  std::vector<double> fq(tokens * dim), fk(tokens * dim), v(tokens * value_dim);
  for (double& x : fq) x = elu_plus_one(g.next());
  for (double& x : fk) x = elu_plus_one(g.next());
  for (double& x : v) x = g.next() / 2;
  std::vector<posenc::math::sincos_result<double>> table(tokens * dim / 2);
  if (rope::fill_pair_table<double>(cfg, table) != posenc::status::ok) return 1;
  std::vector<double> rq = fq, rk = fk;
  const rope::apply_shape head{.heads = 1, .head_dim = dim, .rotary_dim = dim};
  for (std::size_t m = 0; m < tokens; ++m) {
    rope::rotate(rq.data() + m * dim, head, table.data() + m * dim / 2);
    rope::rotate(rk.data() + m * dim, head, table.data() + m * dim / 2);
  }

  const rope::linear_attention_shape sh{tokens, dim, value_dim};
  const rope::linear_attention_inputs in{rq, rk, fq, fk, v};
  std::vector<double> num_l(tokens * value_dim), den_l(tokens), out_l(tokens * value_dim);
  std::vector<double> num_q(tokens * value_dim), den_q(tokens), out_q(tokens * value_dim);
  std::vector<double> state(dim * value_dim + dim);
  if (rope::causal_linear_attention(sh, in, {num_l, den_l, out_l}, state) != posenc::status::ok) return 1;
  if (rope::causal_quadratic_attention(sh, in, {num_q, den_q, out_q}) != posenc::status::ok) return 1;

  std::vector<double> b_num(tokens * value_dim), b_den(tokens), b_out(tokens * value_dim);
  if (rope::linear_attention_bounds(sh, in, out_l, out_q, den_q, {b_num, b_den, b_out}) != posenc::status::ok) return 1;
  double worst_num = 0, worst_out = 0, worst_den = 0, max_diff = 0;
  for (std::size_t i = 0; i < tokens * value_dim; ++i) {
    worst_num = std::fmax(worst_num, std::fabs(num_l[i] - num_q[i]) / b_num[i]);
    worst_out = std::fmax(worst_out, std::fabs(out_l[i] - out_q[i]) / b_out[i]);
    max_diff = std::fmax(max_diff, std::fabs(out_l[i] - out_q[i]));
  }
  for (std::size_t m = 0; m < tokens; ++m) worst_den = std::fmax(worst_den, std::fabs(den_l[m] - den_q[m]) / b_den[m]);
  std::printf("causal linear attention with RoPE, %zu tokens, dim %zu, value dim %zu\n", tokens, dim, value_dim);
  std::printf("  max |out_linear - out_quadratic| = %.3g\n", max_diff);
  std::printf("  worst difference / bound: numerator %.3g, denominator %.3g, output %.3g\n", worst_num, worst_den,
              worst_out);
  const bool ok = worst_num <= 1 && worst_den <= 1 && worst_out <= 1;
  std::printf("  %s\n", ok ? "every output within its bound" : "BOUND EXCEEDED");
  return ok ? 0 : 1;
}
