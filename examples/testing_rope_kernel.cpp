// testing_rope_kernel.cpp: test your own RoPE kernel against the exact rotation (docs/testing-kernels.md).
//
// check_rope_apply draws cases with RapidCheck (tokens, heads, positions including the hard ones,
// inputs of every magnitude), calls the kernel, and checks pass-through, norm, relative position,
// inverse and every element against MPFR within the bound B derived from the kernel's formats. A
// failure comes back shrunk, with the property, the element, the error and B in ulps, and the
// RC_PARAMS line that replays it. Copy `rotate_half` and put your kernel there.
#include <posenc/rope/apply.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/models.hpp>
#include <posenc/testing/check_rope_apply.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <vector>

namespace {

constexpr posenc::rope::config cfg{.head_dim = 128, .rope_theta = 10000.0, .max_position_embeddings = 4096};

// The kernel under test: HF's rotate-half, x[..., :d/2] and x[..., d/2:], angles and products in double.
void rotate_half(std::span<const float> x, std::span<const std::int64_t> pos, std::span<float> out, std::size_t heads,
                 std::size_t head_dim) {
  const std::size_t half = head_dim / 2;
  for (std::size_t t = 0; t < pos.size(); ++t)
    for (std::size_t j = 0; j < half; ++j) {
      const double inv_freq = std::pow(cfg.rope_theta, -2.0 * static_cast<double>(j) / static_cast<double>(head_dim));
      const double angle = static_cast<double>(pos[t]) * inv_freq, c = std::cos(angle), s = std::sin(angle);
      for (std::size_t h = 0; h < heads; ++h) {
        const std::size_t a = (t * heads + h) * head_dim + j, b = a + half;
        out[a] = static_cast<float>(x[a] * c - x[b] * s);
        out[b] = static_cast<float>(x[a] * s + x[b] * c);
      }
    }
}

// posenc's own kernel: a correctly rounded float table of the positions and rope::rotate_copy.
void posenc_apply(std::span<const float> x, std::span<const std::int64_t> pos, std::span<float> out, std::size_t heads,
                  std::size_t head_dim) {
  const std::vector<std::uint64_t> p(pos.begin(), pos.end());
  std::vector<posenc::math::sincos_result<float>> rows(p.size() * head_dim / 2);
  if (posenc::rope::fill_pair_table<float>(cfg, p, rows, true) != posenc::status::ok) throw std::runtime_error("fill");
  const posenc::rope::apply_shape sh{heads, head_dim, head_dim, posenc::rope::layout::half_split};
  for (std::size_t t = 0; t < p.size(); ++t)
    posenc::rope::rotate_copy(x.data() + t * heads * head_dim, out.data() + t * heads * head_dim, sh,
                              rows.data() + t * head_dim / 2);
}

bool report(const char* name, const posenc::testing::check_result& r) {
  std::printf("%s: %s, %d cases, max |error| / B = %.3f\n", name, r.passed ? "passed" : "FAILED", r.cases,
              r.worst_ratio);
  if (!r.passed) std::printf("%s\n", r.message.c_str());
  return r.passed;
}

}  // namespace

int main() {
  namespace pt = posenc::testing;
  // rotate_half: float data, cos/sin in double (within a float ulp of exact), products in double.
  const pt::check_result naive = pt::check_rope_apply<float>(
      rotate_half, cfg, {.model = {.table = pt::dtype::float32, .compute = pt::dtype::float64}, .max_success = 50});
  // posenc: correctly rounded float tables, products and sums in float.
  const pt::check_result own = pt::check_rope_apply<float>(
      posenc_apply, cfg, {.model = {.rounding = pt::table_rounding::correct}, .max_success = 50});
  const bool naive_ok = report("rotate_half", naive), own_ok = report("posenc rope::rotate_copy", own);

  // What a bug looks like: rotate_half at positions off by one, shrunk to one token at position 0.
  const auto off_by_one = [](std::span<const float> x, std::span<const std::int64_t> pos, std::span<float> out,
                             std::size_t heads, std::size_t head_dim) {
    std::vector<std::int64_t> p(pos.begin(), pos.end());
    for (std::int64_t& m : p) ++m;
    rotate_half(x, p, out, heads, head_dim);
  };
  const pt::check_result bug = pt::check_rope_apply<float>(
      off_by_one, cfg,
      {.model = {.table = pt::dtype::float32, .compute = pt::dtype::float64}, .max_success = 50, .name = "off_by_one"});
  std::printf("a kernel with positions off by one is caught (%s):\n%s\n", bug.property.c_str(), bug.message.c_str());
  return naive_ok && own_ok && !bug.passed ? 0 : 1;
}
