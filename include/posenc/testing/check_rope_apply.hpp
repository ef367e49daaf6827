// check_rope_apply.hpp: property-based test of a user's RoPE kernel against the exact rotation,
// with the derived tolerance of docs/testing-kernels.md and RapidCheck's search and shrinking.
//
//   auto kernel = [&](std::span<const float> x, std::span<const std::int64_t> pos, std::span<float> out,
//                     std::size_t heads, std::size_t head_dim) { ... };   // x, out: [tokens][heads][head_dim]
//   posenc::testing::check_result r = posenc::testing::check_rope_apply<float>(kernel, cfg,
//       {.model = {.table = posenc::testing::dtype::float32, .rounding = posenc::testing::table_rounding::correct}});
//   if (!r.passed) std::puts(r.message.c_str());   // the property, where, the error and B in ulps, how to replay
//
// Each case draws tokens (1..8), heads (1..4), one position per token (rope_positions, or the
// options' list) and the input (element_vectors), calls the kernel at the positions m and again at
// m + t, and checks in this order: pass-through (bit for bit), norm, relative position, inverse and
// exact (rope_property.hpp). Dynamic NTK and LongRoPE with seq_len unset take HF's sequence length,
// max(positions) + 1, per call (rope/seq_len.hpp), as HF's dynamic_rope_update does. The cos/sin
// are folded with the attention factor as HF folds them, and the reference is MPFR (R = 0).
// catch2.hpp has the Catch2 form (require_rope_apply); check_rope_layouts.hpp compares two kernels
// of different layouts.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/seq_len.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/testing/check_result.hpp"
#include "posenc/testing/detail/rope_case_checks.hpp"
#include "posenc/testing/detail/rope_case_reference.hpp"
#include "posenc/testing/detail/rope_search.hpp"
#include "posenc/testing/generators.hpp"
#include "posenc/testing/rope_kernel_bound.hpp"
#include "posenc/testing/rope_property.hpp"
#include "posenc/verify/rope_table_oracle.hpp"

namespace posenc::testing {

// A kernel: out = the rotation of x at positions, x and out row-major [tokens][heads][head_dim].
template <class K, class T>
concept rope_kernel =
    std::invocable<K&, std::span<const T>, std::span<const std::int64_t>, std::span<T>, std::size_t, std::size_t>;

namespace detail {

template <class T>
double to_double(T v) noexcept {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    return static_cast<double>(v);
  } else {
    return static_cast<double>(v.to_float());
  }
}

template <class T>
T from_double(double v) noexcept {  // v is a T (element_values draws them so)
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    return static_cast<T>(v);
  } else {
    return math::round_to<T>(v).value;
  }
}

// One oracle per resolved config: only dynamic NTK and LongRoPE with seq_len unset need several.
class oracle_cache {
 public:
  const verify::rope_table_oracle& get(const rope::config& c) {
    auto& p = by_seq_len_[c.seq_len];
    if (!p) p = std::make_unique<verify::rope_table_oracle>(c);
    return *p;
  }

 private:
  std::map<std::int64_t, std::unique_ptr<verify::rope_table_oracle>> by_seq_len_;
};

// The kernel, type-erased: the checks are instantiated once per element type, not once per kernel
// (measured: one instantiation per kernel type was most of a test file's compile time).
template <class T>
using kernel_fn =
    std::function<void(std::span<const T>, std::span<const std::int64_t>, std::span<T>, std::size_t, std::size_t)>;

// The kernel at c.positions, its output as doubles in c.y, and its pass-through checked; out
// starts as NaN so an element the kernel leaves unwritten cannot pass.
template <class T>
std::optional<failure> run_call(const kernel_fn<T>& kernel, const case_shape& sh, const std::vector<T>& x,
                                call_data& c) {
  std::vector<T> out(x.size(), from_double<T>(std::numeric_limits<double>::quiet_NaN()));
  kernel(std::span<const T>(x), std::span<const std::int64_t>(c.positions), std::span<T>(out), sh.heads, sh.head_dim);
  c.y.resize(out.size());
  for (std::size_t k = 0; k < out.size(); ++k) c.y[k] = to_double(out[k]);
  for (std::size_t i = 0; i < sh.tokens; ++i)
    for (std::size_t h = 0; h < sh.heads; ++h)
      for (std::size_t e = sh.rotary; e < sh.head_dim; ++e) {
        const std::size_t k = sh.at(i, h, e);
        if (std::memcmp(&out[k], &x[k], sizeof(T)) != 0) {
          std::ostringstream o;
          o.precision(17);
          o << "pass-through: " << where(c, i, h) << ", element " << e << " (past the rotary dim " << sh.rotary
            << "): the kernel gives " << c.y[k] << ", the input was " << c.x[k] << " (must be the same bits)";
          return failure{rope_property::pass_through, o.str()};
        }
      }
  return std::nullopt;
}

inline std::size_t head_dim_of(const rope::config& c) noexcept {
  return static_cast<std::size_t>(c.head_dim > 0 ? c.head_dim : posenc::rope::detail::rotary_dim(c));
}

// The five properties on one case; worst collects the exact check's max |y~ - y| / B.
template <class T>
std::optional<failure> check_case(const kernel_fn<T>& kernel, const rope::config& cfg, const resolved_model& m,
                                  rope::layout lay, oracle_cache& oracles, const case_input& in, double& worst) {
  const std::size_t rotary = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(cfg));
  const case_shape sh{in.tokens, in.heads, cfg.head_dim > 0 ? static_cast<std::size_t>(cfg.head_dim) : rotary, rotary,
                      lay};
  std::vector<T> x(in.x.size());
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = from_double<T>(in.x[k]);
  call_data c[2];
  std::unique_ptr<case_reference> refs[2];
  for (int call = 0; call < 2; ++call) {
    c[call].x = in.x;
    c[call].positions = in.positions;
    if (call == 1)
      for (auto& p : c[call].positions) p += in.shift;
    if (auto f = run_call(kernel, sh, x, c[call])) return f;
    const std::int64_t last = *std::max_element(c[call].positions.begin(), c[call].positions.end());
    const rope::config resolved = rope::with_seq_len_of_positions(cfg, static_cast<std::uint64_t>(last));
    refs[call] = std::make_unique<case_reference>(oracles.get(resolved), c[call].positions, rotary / 2);
    c[call].ref = refs[call].get();
    c[call].prepare(sh, m);
  }
  for (const call_data& k : c)
    if (auto f = check_norm(sh, k, m.d)) return f;
  if (auto f = check_relative(sh, c[0], c[1], m.d)) return f;
  for (const call_data& k : c)
    if (auto f = check_inverse(sh, k, m.d)) return f;
  for (const call_data& k : c)
    if (auto f = check_exact(sh, k, m.d, worst)) return f;
  return std::nullopt;
}

}  // namespace detail

// Runs the property search; never throws for a failing kernel (the result says it failed).
// Throws std::invalid_argument for an invalid config or a model whose dtype is not T's.
template <class T, rope_kernel<T> K>
check_result check_rope_apply(K&& kernel, const rope::config& cfg, const check_options& opt = {}) {
  if (!rope::validate(cfg).ok()) throw std::invalid_argument("posenc::testing::check_rope_apply: invalid config");
  if (opt.model.data && *opt.model.data != dtype_of<T>())
    throw std::invalid_argument(
        "posenc::testing::check_rope_apply: kernel_model.data is not the kernel's element type");
  const resolved_model m = resolve(opt.model, dtype_of<T>());
  const detail::kernel_fn<T> k(std::ref(kernel));
  detail::oracle_cache oracles;
  return detail::search(cfg, opt, detail::head_dim_of(cfg), m.d, [&](const detail::case_input& in, double& worst) {
    return detail::check_case<T>(k, cfg, m, opt.layout, oracles, in, worst);
  });
}

}  // namespace posenc::testing
