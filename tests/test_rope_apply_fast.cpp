// Tests of the run-time apply kernels (posenc/rope/detail/apply_simd.hpp): they must give the same
// bits as the scalar kernel (apply.hpp's rotate_pairs, which the constant evaluator runs), for every
// storage type, both layouts, both directions, in place and out of place, rotary dims that leave
// tails of every length and span several 64-pair chunks, and inputs and table entries that include
// NaN, infinities, subnormals, -0 and values whose float result lies on or next to a bfloat16
// rounding tie. The reference here is the other path of the same contract (apply.hpp's header),
// which tests/test_rope_apply.cpp checks against MPFR and the layout laws; a kernel that drops a
// lane, reorders an operand or rounds differently fails the bitwise comparison.
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/apply.hpp"
#include "posenc/verify/random.hpp"

namespace {

namespace pm = posenc::math;
namespace pr = posenc::rope;
namespace pd = posenc::detail;
namespace v = posenc::verify;

template <class S>
std::uint64_t bits_of(S x) {
  return static_cast<std::uint64_t>(pd::float_format<S>::to_bits(x));
}
// Bits to compare. A NaN result in float or double storage is compared as "a NaN": when both
// operands of a product or sum are NaN, IEEE 754 (6.2.3) does not say whose payload survives, x86
// returns its first source operand, and compilers commute the operands of + and * freely, so even
// the scalar kernel's payload changes with the optimisation level (seen with GCC 12: -O0 vs -O2).
// bfloat16 storage has one NaN (0x7FC0) and float16's store quiets likewise: compared exactly.
template <class S>
std::uint64_t cmp_bits(S x) {
  if constexpr (std::is_same_v<S, float> || std::is_same_v<S, double>)
    if (x != x) return 0x7FF8ull;
  return bits_of(x);
}

// A float with special values mixed in: raw random bits (every class, NaN payloads included),
// +-0, +-inf, quiet and signalling-pattern NaNs, subnormals, and ordinary magnitudes.
float special_float(v::rng& r) {
  const std::uint64_t k = r.next();
  const auto u = static_cast<std::uint32_t>(r.next());
  switch (k % 12) {
    case 0: return std::bit_cast<float>(u);
    case 1: return (u & 1) != 0 ? -0.0f : 0.0f;
    case 2: return (u & 1) != 0 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    case 3: return std::bit_cast<float>((u & 0x803FFFFFu) | 0x7FC00000u);                   // quiet NaN, payload, sign
    case 4: return std::bit_cast<float>((u & 0x801FFFFFu) | 0x7F800001u);                   // signalling pattern
    case 5: return std::bit_cast<float>(u & 0x807FFFFFu);                                   // subnormal (or 0)
    case 6: return std::bit_cast<float>((u & 0x80FFFFFFu) | 0x00800000u);                   // near the normal boundary
    default: return std::bit_cast<float>((u & 0x807FFFFFu) | ((0x70u + (u >> 27)) << 23));  // ~[2^-15, 2^16]
  }
}

// A table entry: mostly a unit-circle pair, sometimes specials, sometimes a value that pushes x c
// onto a bfloat16 tie (1 + 2^-8 times a bfloat16 x sets exactly the first dropped bit) or beside one.
pm::sincos_result<float> table_entry(v::rng& r) {
  const std::uint64_t k = r.next() % 8;
  const float t = static_cast<float>(static_cast<std::int64_t>(r.next() >> 40) - (1LL << 23)) * 0x1p-23f;  // [-1, 1)
  if (k < 3) return {t, 1.0f - t * t * 0.5f};
  if (k == 3) return {0.0f, 1.0f + 0x1p-8f};
  if (k == 4) return {(r.next() & 1) != 0 ? 0x1p-9f : -0x1p-9f, 1.0f + 0x1p-8f + 0x1p-16f};
  if (k == 5) return {-(1.0f + 0x1p-8f), 1.0f - 0x1p-9f};
  return {special_float(r), special_float(r)};
}

template <class S>
S from_float(float f) {
  if constexpr (std::is_same_v<S, float>)
    return f;
  else if constexpr (std::is_same_v<S, double>)
    return static_cast<double>(f);
  else if constexpr (std::is_same_v<S, posenc::bfloat16>)
    return posenc::bfloat16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(f) >> 16));
  else
    return pd::apply_traits<posenc::float16>::store(f);
}

// The table type for storage S (must load exactly into S's compute type).
template <class S>
using table_t = std::conditional_t<std::is_same_v<S, double>, double, float>;

template <class S>
void compare_paths(std::uint64_t seed, const char* name) {
  using TT = table_t<S>;
  v::rng r(seed);
  const std::size_t rotary_dims[] = {2, 6, 14, 16, 30, 32, 34, 62, 64, 96, 126, 128, 130, 158, 200, 256, 290};
  std::size_t checked = 0;
  for (std::size_t rd : rotary_dims)
    for (std::size_t extra : {std::size_t{0}, std::size_t{2}, std::size_t{6}})
      for (int lay = 0; lay < 2; ++lay)
        for (int inv = 0; inv < 2; ++inv)
          for (int copy = 0; copy < 2; ++copy) {
            const pr::apply_shape sh{.heads = 1 + r.next() % 4,
                                     .head_dim = rd + extra,
                                     .rotary_dim = rd,
                                     .lay = lay != 0 ? pr::layout::interleaved : pr::layout::half_split};
            const std::size_t n = sh.heads * sh.head_dim;
            std::vector<S> in(n), a(n), b(n);
            for (auto& e : in) e = from_float<S>(special_float(r));
            std::vector<pm::sincos_result<TT>> row(rd / 2);
            for (auto& e : row) {
              const pm::sincos_result<float> f = table_entry(r);
              e = {static_cast<TT>(f.sin), static_cast<TT>(f.cos)};
            }
            const auto gen = [&row](std::size_t j) { return row[j]; };
            if (copy == 0) {
              a = in;
              b = in;
            }
            const S* src_a = copy != 0 ? in.data() : a.data();
            const S* src_b = copy != 0 ? in.data() : b.data();
            REQUIRE(pd::rotate_generated_with<TT>(src_a, a.data(), sh, inv != 0, gen, false) == posenc::status::ok);
            REQUIRE(pd::rotate_generated_with<TT>(src_b, b.data(), sh, inv != 0, gen, true) == posenc::status::ok);
            for (std::size_t i = 0; i < n; ++i) {
              INFO(name << " rotary " << rd << " head_dim " << sh.head_dim << " heads " << sh.heads << " layout " << lay
                        << " inverse " << inv << " copy " << copy << " element " << i << " input bits "
                        << bits_of(in[i]));
              REQUIRE(cmp_bits(a[i]) == cmp_bits(b[i]));
            }
            // The public entry point takes the fast path at run time: same bits again.
            std::vector<S> c = in;
            REQUIRE(pr::rotate(c.data(), sh, row.data(), inv != 0 ? pr::direction::inverse : pr::direction::forward) ==
                    posenc::status::ok);
            if (copy == 0)
              for (std::size_t i = 0; i < n; ++i) REQUIRE(cmp_bits(c[i]) == cmp_bits(a[i]));
            checked += n;
          }
  CHECK(checked > 10000);
}

// bfloat16 results on every tie pattern: for all 2^16 bfloat16 x (NaN, inf, subnormal, -0 included)
// and c = 1 + 2^-8 (x c sets the first dropped bit: a tie, or a tie plus the low product bits),
// c = 1 + 2^-8 +- 2^-16 (just above and below the tie) and s = 0, both kernels agree, and both
// agree with the store of the float product (x' = RN(RN(x c) - 0) = RN(x c) unless x c is NaN).
TEST_CASE("bfloat16 kernels on every input against every tie pattern", "[rope][apply][fast]") {
  constexpr std::size_t rd = 128;
  const pr::apply_shape shapes[] = {{.heads = 512, .head_dim = rd, .rotary_dim = rd, .lay = pr::layout::half_split},
                                    {.heads = 512, .head_dim = rd, .rotary_dim = rd, .lay = pr::layout::interleaved}};
  for (float cv : {1.0f + 0x1p-8f, 1.0f + 0x1p-8f + 0x1p-16f, 1.0f + 0x1p-8f - 0x1p-16f, 1.0f - 0x1p-9f}) {
    std::vector<pm::sincos_result<float>> row(rd / 2, pm::sincos_result<float>{0.0f, cv});
    for (const auto& sh : shapes) {
      std::vector<posenc::bfloat16> in(512 * rd), a, b;
      for (std::size_t i = 0; i < in.size(); ++i) {
        // Element i and its pair partner: x runs over all 2^16 patterns, y over a shifted copy.
        in[i] = posenc::bfloat16::from_bits(static_cast<std::uint16_t>(i * 0x9E37u % 0x10000u));
      }
      a = in;
      b = in;
      const auto gen = [&row](std::size_t j) { return row[j]; };
      REQUIRE(pd::rotate_generated_with<float>(a.data(), a.data(), sh, false, gen, false) == posenc::status::ok);
      REQUIRE(pd::rotate_generated_with<float>(b.data(), b.data(), sh, false, gen, true) == posenc::status::ok);
      std::size_t ties = 0;
      for (std::size_t i = 0; i < in.size(); ++i) {
        INFO("cos " << cv << " element " << i << " input bits " << in[i].bits);
        REQUIRE(a[i].bits == b[i].bits);
        const std::uint32_t pu = std::bit_cast<std::uint32_t>(in[i].to_float() * cv);
        if ((pu & 0xFFFFu) == 0x8000u) ++ties;
      }
      if (cv == 1.0f + 0x1p-8f) CHECK(ties >= 256);  // the case really exercises exact ties
    }
  }
}

TEST_CASE("run-time kernels give the scalar kernel's bits", "[rope][apply][fast]") {
  const std::uint64_t s = v::seed_for("rope_apply_fast");
  std::printf("[rope_apply_fast] seed 0x%llx (set POSENC_SEED to override)\n", static_cast<unsigned long long>(s));
  for (std::uint64_t k = 0; k < 6; ++k) {
    compare_paths<float>(s + k, "float");
    compare_paths<posenc::bfloat16>(s + k, "bfloat16");
    compare_paths<double>(s + k, "double");
    compare_paths<posenc::float16>(s + k, "float16");
  }
}

// Constant evaluation takes the scalar kernel, run time the vectorised one: the same bits. The
// input mixes -0, subnormals, bfloat16 ties and ordinary values (infinities and NaN are left to the
// run-time test above: inf * 0 is not a constant expression, and the constant evaluator need not
// propagate NaN payloads as the hardware does).
constexpr std::size_t ct_heads = 3, ct_dim = 40, ct_rot = 36, ct_n = ct_heads * ct_dim;
template <class S>
constexpr std::array<S, ct_n> ct_input() {
  std::array<S, ct_n> x{};
  constexpr float specials[] = {-0.0f,     0.0f,       0x1p-126f,      -0x1p-127f,
                                0x1p-130f, -0x1p-149f, 1.0f + 0x1p-8f, -(1.0f + 0x1p-7f + 0x1p-8f),
                                3.0f,      -0.375f};
  std::uint32_t st = 0x12345u;
  for (std::size_t i = 0; i < ct_n; ++i) {
    st = st * 1664525u + 1013904223u;
    float f = (i % 3 == 0) ? specials[(st >> 8) % 10]
                           : static_cast<float>(static_cast<std::int32_t>(st >> 12) - (1 << 19)) * 0x1p-12f;
    if constexpr (std::is_same_v<S, float>)
      x[i] = f;
    else
      x[i] = posenc::bfloat16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(f) >> 16));
  }
  return x;
}
constexpr std::array<pm::sincos_result<float>, ct_rot / 2> ct_row() {
  std::array<pm::sincos_result<float>, ct_rot / 2> r{};
  for (std::size_t j = 0; j < r.size(); ++j) {
    const float t = static_cast<float>(j) * 0.0625f - 0.5f;
    r[j] =
        j % 4 == 0 ? pm::sincos_result<float>{0.0f, 1.0f + 0x1p-8f} : pm::sincos_result<float>{t, 1.0f - t * t * 0.5f};
  }
  return r;
}
template <class S>
constexpr std::array<S, ct_n> ct_rotated(pr::layout lay, bool inverse) {
  std::array<S, ct_n> x = ct_input<S>();
  const auto row = ct_row();
  const pr::apply_shape sh{.heads = ct_heads, .head_dim = ct_dim, .rotary_dim = ct_rot, .lay = lay};
  (void)pr::rotate(x.data(), sh, row.data(), inverse ? pr::direction::inverse : pr::direction::forward);
  return x;
}

template <class S, pr::layout L, bool Inv>
void compare_ct_rt() {
  constexpr std::array<S, ct_n> ct = ct_rotated<S>(L, Inv);
  std::array<S, ct_n> rt = ct_input<S>();
  const auto row = ct_row();
  const pr::apply_shape sh{.heads = ct_heads, .head_dim = ct_dim, .rotary_dim = ct_rot, .lay = L};
  REQUIRE(pr::rotate(rt.data(), sh, row.data(), Inv ? pr::direction::inverse : pr::direction::forward) ==
          posenc::status::ok);
  std::size_t changed = 0;
  const std::array<S, ct_n> in = ct_input<S>();
  for (std::size_t i = 0; i < ct_n; ++i) {
    INFO("element " << i);
    REQUIRE(bits_of(ct[i]) == bits_of(rt[i]));
    if (bits_of(in[i]) != bits_of(rt[i])) ++changed;
  }
  CHECK(changed > ct_n / 2);  // the rotation did something
}

TEST_CASE("constant evaluation and run time give the same bits", "[rope][apply][fast]") {
  compare_ct_rt<float, pr::layout::half_split, false>();
  compare_ct_rt<float, pr::layout::interleaved, false>();
  compare_ct_rt<float, pr::layout::half_split, true>();
  compare_ct_rt<float, pr::layout::interleaved, true>();
  compare_ct_rt<posenc::bfloat16, pr::layout::half_split, false>();
  compare_ct_rt<posenc::bfloat16, pr::layout::interleaved, false>();
  compare_ct_rt<posenc::bfloat16, pr::layout::half_split, true>();
  compare_ct_rt<posenc::bfloat16, pr::layout::interleaved, true>();
}

}  // namespace
