// verify_third_party_table: prove facts about a RoPE table you did not build, in your own build.
//
// hf_llama32_rope.h holds HF transformers' float32 cos/sin cache of Llama-3.2-1B at positions
// 8000..8047, as an exporting script would write it. The static_asserts below run every law of
// posenc/laws/ on it while this file compiles (no MPFR, no Python, no run time): the table is made
// of rotations, its layout is the declared one, and every entry is within a stated number of ulp
// of the exact RoPE values (and, at this context length, not correctly rounded: float32 angles).
// At run time the program prints each law's measured figures. docs/laws.md, docs/guide.md.
#include <cstdio>

#include <posenc/laws.hpp>
#include <posenc/laws/print.hpp>
#include <posenc/rope/models.hpp>

#include "hf_llama32_rope.h"

namespace {

namespace laws = posenc::laws;
using posenc::rope::layout;

// [check] The description of the table: the published config and where the rows start.
constexpr posenc::rope::config llama32 = posenc::rope::models::llama3_2_1b;
constexpr auto table = laws::view(hf_llama32_cos, hf_llama32_sin, layout::half_split, hf_llama32_start);

// laws::require(r) is r.holds, but a failing law stops the compiler inside a function named after
// the law, with the first failing position in the message (tests: a corrupted copy fails so).
static_assert(laws::require(laws::unit_norm(table)),
              "every pair is a rotation up to float32 rounding: |c^2 + s^2 - 1| <= 2u + u^2");
static_assert(laws::require(laws::pair_copies(table)), "half-split as declared: both elements of each pair agree");

// How far from the true values: HF rounds the angle p * inv_freq to float32 first, so near
// position 8000 the angle is off by up to 2^-24 * 8000 ~ 5e-4 rad, and cos/sin by as much in
// absolute terms; an entry near a zero of cos or sin is then hundreds of thousands of its own ulp
// away (measured: 647,000 ulp at position 8011, pair 4; 988 of 3072 entries correctly rounded).
constexpr auto exact = laws::exactness(table, llama32, {.max_ulp = 1u << 20});
static_assert(laws::require(exact), "every entry within 2^20 ulp of the exact Llama-3.2 RoPE values");
static_assert(!laws::exactness(table, llama32).holds, "and not correctly rounded: float32 angles drift");
// [check]

}  // namespace

int main() {
  std::printf("Third-party table: HF float32 cos/sin of Llama-3.2-1B, positions %llu..%llu, %zu pairs\n",
              static_cast<unsigned long long>(hf_llama32_start),
              static_cast<unsigned long long>(hf_llama32_start + hf_llama32_positions - 1), table.rotary_dim() / 2);
  std::printf("  %s\n", laws::to_string(laws::unit_norm(table)).c_str());
  std::printf("  %s\n", laws::to_string(laws::pair_copies(table)).c_str());
  std::printf("  %s\n", laws::to_string(exact).c_str());
  const auto strict = laws::exactness(table, llama32);
  std::printf("  correctly rounded entries: %llu of %llu\n",
              static_cast<unsigned long long>(strict.checked - strict.failures),
              static_cast<unsigned long long>(strict.checked));
  return exact.holds && exact.deviation > 4096 ? 0 : 1;  // the drift is there, and bounded
}
