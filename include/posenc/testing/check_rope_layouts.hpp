// check_rope_layouts.hpp: two kernels of different layouts compute the same rotation, up to the
// fixed permutation between the layouts (rope/layout.hpp; HF's convert_llama_weights_to_hf permute).
//
//   check_rope_layouts<float>(meta_kernel, hf_kernel, cfg, {.a = layout::interleaved, .b = layout::half_split})
//
// Each case draws an input in layout a, gives kernel A that input and kernel B the same input
// permuted into layout b, and compares every rotary element of A's output with the element of B's
// output that holds the same pair and component: they may differ by B_A + B_B (each kernel's bound
// of rope_kernel_bound.hpp under its own model), and each kernel's pass-through elements must be
// its input's, bit for bit. This is a law between two kernels, not against the exact rotation
// (check_rope_apply is): two kernels with the same wrong frequencies agree.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "posenc/rope/config.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/seq_len.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/testing/check_result.hpp"
#include "posenc/testing/check_rope_apply.hpp"
#include "posenc/testing/detail/rope_search.hpp"

namespace posenc::testing {

struct layout_pair {
  rope::layout a = rope::layout::half_split;   // kernel A's layout
  rope::layout b = rope::layout::interleaved;  // kernel B's layout
  std::optional<kernel_model> model_b{};       // kernel B's model; unset: check_options::model
};

namespace detail {

template <class T>
std::optional<failure> check_layout_case(const kernel_fn<T>& ka, const kernel_fn<T>& kb, const rope::config& cfg,
                                         const resolved_model (&m)[2], const layout_pair& lp, oracle_cache& oracles,
                                         const case_input& in, double& worst) {
  const std::size_t rotary = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(cfg)), hd = head_dim_of(cfg);
  const case_shape sh[2] = {{in.tokens, in.heads, hd, rotary, lp.a}, {in.tokens, in.heads, hd, rotary, lp.b}};
  call_data c[2];
  std::vector<T> x[2];
  c[0].x = in.x;
  c[1].x = in.x;  // then permuted: pair j, component t moves from its place in a to its place in b
  for (std::size_t i = 0; i < in.tokens; ++i)
    for (std::size_t h = 0; h < in.heads; ++h)
      for (std::size_t j = 0; j < rotary / 2; ++j)
        for (int t = 0; t < 2; ++t) c[1].x[sh[1].at(i, h, sh[1].elem(j, t))] = in.x[sh[0].at(i, h, sh[0].elem(j, t))];
  for (int k = 0; k < 2; ++k) {
    c[k].positions = in.positions;
    for (const double v : c[k].x) x[k].push_back(from_double<T>(v));
    if (auto f = run_call(k == 0 ? ka : kb, sh[k], x[k], c[k])) {
      f->message = std::string(k == 0 ? "kernel A: " : "kernel B: ") + f->message;
      return f;
    }
  }
  const std::int64_t last = *std::max_element(in.positions.begin(), in.positions.end());
  const case_reference ref(oracles.get(rope::with_seq_len_of_positions(cfg, static_cast<std::uint64_t>(last))),
                           in.positions, rotary / 2);
  c[0].ref = &ref;
  for (std::size_t i = 0; i < in.tokens; ++i)
    for (std::size_t h = 0; h < in.heads; ++h)
      for (std::size_t j = 0; j < rotary / 2; ++j) {
        const pair_angle& g = ref.angle(i, j);
        const double a = in.x[sh[0].at(i, h, sh[0].elem(j, 0))], b = in.x[sh[0].at(i, h, sh[0].elem(j, 1))];
        const pair_bound ba = rope_pair_bound(m[0], a, b, g.c, g.s), bb = rope_pair_bound(m[1], a, b, g.c, g.s);
        for (int t = 0; t < 2; ++t) {
          const double ya = c[0].y[sh[0].at(i, h, sh[0].elem(j, t))], yb = c[1].y[sh[1].at(i, h, sh[1].elem(j, t))];
          const double dev = std::fabs(ya - yb), bound = (t == 0 ? ba.a + bb.a : ba.b + bb.b) * bound_slack;
          if (dev <= bound) {
            if (bound > 0) worst = std::max(worst, dev / bound);
            continue;
          }
          std::ostringstream o;
          o.precision(17);
          o << "layout equivalence: " << where(c[0], i, h) << ", pair " << j << " (" << (t == 0 ? "x" : "y")
            << "): kernel A gives " << ya << " at element " << sh[0].elem(j, t) << ", kernel B " << yb << " at element "
            << sh[1].elem(j, t) << "; they differ by " << in_ulps(dev, m[0].d, ya)
            << ", more than B_A + B_B = " << in_ulps(bound, m[0].d, ya);
          return failure{rope_property::layout_equivalence, o.str()};
        }
      }
  return std::nullopt;
}

}  // namespace detail

// The search of check_rope_apply over kernel A in layout lp.a and kernel B in layout lp.b
// (opt.layout is not read). Throws std::invalid_argument as check_rope_apply does.
template <class T, rope_kernel<T> KA, rope_kernel<T> KB>
check_result check_rope_layouts(KA&& kernel_a, KB&& kernel_b, const rope::config& cfg, const layout_pair& lp,
                                const check_options& opt = {}) {
  if (!rope::validate(cfg).ok()) throw std::invalid_argument("posenc::testing::check_rope_layouts: invalid config");
  const kernel_model mb = lp.model_b.value_or(opt.model);
  if ((opt.model.data && *opt.model.data != dtype_of<T>()) || (mb.data && *mb.data != dtype_of<T>()))
    throw std::invalid_argument("posenc::testing::check_rope_layouts: a kernel_model's data is not T");
  const resolved_model m[2] = {resolve(opt.model, dtype_of<T>()), resolve(mb, dtype_of<T>())};
  const detail::kernel_fn<T> ka(std::ref(kernel_a)), kb(std::ref(kernel_b));
  detail::oracle_cache oracles;
  return detail::search(cfg, opt, detail::head_dim_of(cfg), m[0].d, [&](const detail::case_input& in, double& worst) {
    return detail::check_layout_case<T>(ka, kb, cfg, m, lp, oracles, in, worst);
  });
}

}  // namespace posenc::testing
