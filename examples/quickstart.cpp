// quickstart.cpp: the demo behind README's first command (bash tools/demo.sh).
//
// A RoPE cos/sin table for a Llama-2-style head (d = 128, base 10000) is computed by the compiler,
// rounded once from the exact angle m * 10000^(-2j/128) into float and bfloat16. At run time,
// MPFR (through posenc's verify layer) recomputes a few entries and some scalar functions from
// scratch, at 320 bits and more, and the demo shows that every bit agrees.
#include <posenc/posenc.hpp>
#include <posenc/verify/oracle.hpp>
#include <posenc/verify/rope_oracle.hpp>

#include <array>
#include <cstdint>
#include <cstdio>

namespace {

constexpr int head_dim = 128;
constexpr double rope_base = 10000.0;
constexpr std::uint64_t positions = 64;
constexpr std::size_t pairs = head_dim / 2;

// The whole table, 64 positions x 64 pairs, in constant evaluation. sincos_geometric_table builds each
// entry from extended-precision anchors and checks its rounding; it equals the scalar function.
constexpr auto rope_table = [] {
  std::array<posenc::math::sincos_result<float>, positions * pairs> t{};
  posenc::math::sincos_geometric_table<float>({rope_base, 2, head_dim}, pairs, std::span(t));
  return t;
}();
static_assert(rope_table[0].cos == 1.0f && rope_table[0].sin == 0.0f, "position 0 is the identity");

// Single entries at long-context positions, in bfloat16, rounded from the exact value.
constexpr std::uint64_t far_position = (std::uint64_t{1} << 21) - 1;
constexpr auto far_bf16 =
    posenc::math::sincos_geometric<posenc::bfloat16>(far_position, rope_base, 2 * 5, head_dim).value;

int failures = 0;

// Ends the current output line with the verdict of MPFR's independent computation.
void check(bool same) {
  std::printf("  %s\n", same ? "[= MPFR]" : "[DIFFERS FROM MPFR]");
  if (!same) ++failures;
}

void show_rope_entry(std::uint64_t m, int j) {
  const auto got = rope_table[m * pairs + static_cast<std::size_t>(j)];
  const auto want = posenc::verify::cr_rope_sincos<float>(m, rope_base, j, head_dim);
  std::printf("  m = %2llu, j = %2d:    cos = %-15a sin = %-15a (%.9f, %.9f)", static_cast<unsigned long long>(m), j,
              static_cast<double>(got.cos), static_cast<double>(got.sin), static_cast<double>(got.cos),
              static_cast<double>(got.sin));
  check(got.cos == want.cos && got.sin == want.sin);
}

}  // namespace

int main() {
  std::printf("posenc %s: RoPE cos/sin for d = %d, base %g, float, computed by the compiler\n", posenc::version_string,
              head_dim, rope_base);
  show_rope_entry(1, 0);
  show_rope_entry(7, 17);
  show_rope_entry(63, 63);

  const auto want_bf16 = posenc::verify::cr_rope_sincos<posenc::bfloat16>(far_position, rope_base, 5, head_dim);
  std::printf("\nbfloat16, rounded once from the exact angle (never through float):\n");
  std::printf("  m = 2^21-1, j = 5: cos = %-15a sin = %-15a (%.9f, %.9f)", static_cast<double>(far_bf16.cos.to_float()),
              static_cast<double>(far_bf16.sin.to_float()), static_cast<double>(far_bf16.cos.to_float()),
              static_cast<double>(far_bf16.sin.to_float()));
  check(far_bf16.cos == want_bf16.cos && far_bf16.sin == want_bf16.sin);

  std::printf("\nscalar functions, constexpr, correctly rounded:\n");
  constexpr double s = posenc::math::sin(1e22);
  constexpr double e = posenc::math::exp(1.0);
  constexpr double p = posenc::math::pow(2.0, 0.5);
  constexpr float l = posenc::math::log(10.0f);
  std::printf("  sin(1e22)   = %-22a", s);
  check(s == posenc::verify::cr_sin<double>(1e22));
  std::printf("  exp(1)      = %-22a", e);
  check(e == posenc::verify::cr_exp<double>(1.0));
  std::printf("  pow(2, 0.5) = %-22a", p);
  check(p == posenc::verify::cr_pow<double>(2.0, 0.5));
  std::printf("  logf(10)    = %-22a", static_cast<double>(l));
  check(l == posenc::verify::cr_log<float>(10.0));

  std::printf("\n%s\n", failures == 0 ? "every value equals MPFR's correctly rounded result" : "MISMATCHES FOUND");
  return failures == 0 ? 0 : 1;
}
