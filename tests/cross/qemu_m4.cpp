// Compile time equals run time on a Cortex-M4F (arm-none-eabi-gcc 12, run under QEMU's mps2-an386
// by tests/cross/check_qemu.cmake): the project's promise that a value computed by the compiler and
// the same value computed by the target at run time have the same bits, checked on the target.
//
// This mirrors tests/test_ct_rt.cpp (numerics core) and the constant-evaluation test of
// tests/test_rope_apply_fast.cpp (apply kernels), without Catch2 or MPFR: every argument set is a
// constexpr std::array (curated hard cases plus a constexpr SplitMix64 stream over the ranges that
// matter), evaluated in constant expressions in chunks of 8 per constexpr lambda (well inside GCC's
// step limits), and again at run time with each argument read through a volatile so that the
// compiler cannot fold the call. On this target float arithmetic runs on the FPv4-SP unit and
// double arithmetic in libgcc's soft-float routines (both IEEE 754, round to nearest): the
// comparison is of bits, exactly.
//
// Output: one line per group and "qemu_m4: all N comparisons bit-identical" at the end; exit status
// 0 only when nothing differs. Run with the argument --selftest-fail (semihosting's command line), it
// flips one bit of one expected value, to show that the test can fail (check_qemu.cmake runs both).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

#include "posenc/math/exp_log.hpp"
#include "posenc/math/pow.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_table.hpp"
#include "posenc/math/sqrt.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/apply.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/table.hpp"

#include "../ct_rt_cases.hpp"

namespace {

namespace pm = posenc::math;
namespace pr = posenc::rope;
namespace pd = posenc::detail;

using namespace posenc_tests::ct_rt;  // the argument sets, functions and ct_results

// ---- bitwise comparison ----

struct bits2 {
  std::uint64_t a, b;
  friend constexpr bool operator==(const bits2&, const bits2&) = default;
};

template <class T>
constexpr bits2 bits_of(const T& v) {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_same_v<T, posenc::bfloat16> ||
                std::is_same_v<T, posenc::float16>) {
    return {static_cast<std::uint64_t>(pd::float_format<T>::to_bits(v)), 0};
  } else {  // sincos_result
    return {bits_of(v.sin).a, bits_of(v.cos).a};
  }
}

std::size_t total_compared = 0;
std::size_t total_mismatches = 0;
bool selftest_flip_pending = false;  // set by --selftest-fail

// The expected bits, with one bit of the first expected value flipped in the self-test run.
bits2 expected_bits(bits2 e) {
  if (selftest_flip_pending) {
    selftest_flip_pending = false;
    e.a ^= 1u;
  }
  return e;
}

void report(const char* name, std::size_t n, const char* what, std::size_t mismatches) {
  std::printf("%s: %u %s, %u mismatches\n", name, static_cast<unsigned>(n), what, static_cast<unsigned>(mismatches));
  total_compared += n;
  total_mismatches += mismatches;
}

void print_mismatch(const char* name, std::size_t i, bits2 ct, bits2 rt) {
  std::printf("  MISMATCH %s #%u: compile time 0x%08lx%08lx/0x%08lx%08lx, run time 0x%08lx%08lx/0x%08lx%08lx\n", name,
              static_cast<unsigned>(i), static_cast<unsigned long>(ct.a >> 32),
              static_cast<unsigned long>(ct.a & 0xFFFFFFFFu), static_cast<unsigned long>(ct.b >> 32),
              static_cast<unsigned long>(ct.b & 0xFFFFFFFFu), static_cast<unsigned long>(rt.a >> 32),
              static_cast<unsigned long>(rt.a & 0xFFFFFFFFu), static_cast<unsigned long>(rt.b >> 32),
              static_cast<unsigned long>(rt.b & 0xFFFFFFFFu));
}

// Run time: the arguments are read through a volatile pointer, so the compiler cannot know them
// and cannot fold the calls.
template <const auto& Args, auto F>
void compare(const char* name) {
  constexpr auto& ct = ct_results<Args, F>;
  using A = std::remove_cvref_t<decltype(Args[0])>;
  const A* volatile args = Args.data();
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const A arg = args[i];
    const bits2 rt = bits_of(F(arg));
    const bits2 want = expected_bits(bits_of(ct[i]));
    if (rt != want) {
      ++mismatches;
      print_mismatch(name, i, want, rt);
    }
  }
  report(name, count, "args", mismatches);
}

// A value of any of the four formats read through a volatile copy of its bits: the compiler
// cannot see it, so whatever is computed from it is computed at run time.
template <class T>
T opaque(const T& v) {
  using U = typename pd::float_format<T>::storage;
  volatile U b = pd::float_format<T>::to_bits(v);
  return pd::float_format<T>::from_bits(b);
}

template <class T>
void compare_values(const char* name, const T* ct, const T* rt, std::size_t n, const char* what) {
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bits2 want = expected_bits(bits_of(ct[i]));
    const bits2 got = bits_of(rt[i]);
    if (got != want) {
      ++mismatches;
      print_mismatch(name, i, want, got);
    }
  }
  report(name, n, what, mismatches);
}

// ---- RoPE tables: a constexpr table against the same table built at run time ----

constexpr pr::config cfg_default{.head_dim = 64, .rope_theta = 10000.0};
constexpr pr::config cfg_llama3{.head_dim = 64,
                                .rope_theta = 500000.0,
                                .rope_type = pr::scaling::llama3,
                                .factor = 8.0,
                                .original_max_position_embeddings = 8192};
constexpr std::uint64_t start_default = 0, start_llama3 = 8190, start_pairs = 2097140;

constexpr auto tbl_f = pr::make_table<float, 8, 64, pr::layout::half_split>(cfg_default, {.start = start_default});
constexpr auto tbl_bf =
    pr::make_table<posenc::bfloat16, 8, 64, pr::layout::interleaved>(cfg_llama3, {.start = start_llama3});
constexpr auto tbl_pairs = pr::make_pair_table<float, 8, 32>(cfg_llama3, {.start = start_pairs});
static_assert(tbl_f.ok() && tbl_bf.ok() && tbl_pairs.ok(), "the constexpr RoPE tables build");

// The run-time build: theta, factor and start through volatiles.
pr::config opaque_config(const pr::config& c) {
  pr::config r = c;
  r.rope_theta = opaque(c.rope_theta);
  r.factor = opaque(c.factor);
  return r;
}
template <class U>
U opaque_int(U v) {
  volatile U b = v;
  return b;
}

void compare_tables() {
  {
    static const auto rt = pr::make_table<float, 8, 64, pr::layout::half_split>(opaque_config(cfg_default),
                                                                                {.start = opaque_int(start_default)});
    compare_values("table float 8x64 half_split default cos", tbl_f.value.cos.data(), rt.value.cos.data(), 8 * 64,
                   "entries");
    compare_values("table float 8x64 half_split default sin", tbl_f.value.sin.data(), rt.value.sin.data(), 8 * 64,
                   "entries");
  }
  {
    static const auto rt = pr::make_table<posenc::bfloat16, 8, 64, pr::layout::interleaved>(
        opaque_config(cfg_llama3), {.start = opaque_int(start_llama3)});
    compare_values("table bfloat16 8x64 interleaved llama3 cos", tbl_bf.value.cos.data(), rt.value.cos.data(), 8 * 64,
                   "entries");
    compare_values("table bfloat16 8x64 interleaved llama3 sin", tbl_bf.value.sin.data(), rt.value.sin.data(), 8 * 64,
                   "entries");
  }
  {
    static const auto rt =
        pr::make_pair_table<float, 8, 32>(opaque_config(cfg_llama3), {.start = opaque_int(start_pairs)});
    compare_values("pair_table float 8x32 llama3", tbl_pairs.value.data.data(), rt.value.data.data(), 8 * 32,
                   "entries");
  }
}

// ---- rotate: constant evaluation (scalar rotate_pairs) against run time (rope::rotate) ----
// As tests/test_rope_apply_fast.cpp: the input mixes -0, subnormals, bfloat16 ties and ordinary
// values (infinities and NaN stay out: inf * 0 is not a constant expression).

constexpr std::size_t ct_heads = 3, ct_dim = 40, ct_rot = 36, ct_n = ct_heads * ct_dim;

template <class S>
constexpr S from_float(float f) {
  if constexpr (std::is_same_v<S, float>)
    return f;
  else if constexpr (std::is_same_v<S, posenc::bfloat16>)
    return posenc::bfloat16::from_bits(static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(f) >> 16));
  else
    return pd::apply_traits<posenc::float16>::store(f);
}

template <class S>
constexpr std::array<S, ct_n> ct_input() {
  std::array<S, ct_n> x{};
  constexpr float specials[] = {-0.0f,     0.0f,       0x1p-126f,      -0x1p-127f,
                                0x1p-130f, -0x1p-149f, 1.0f + 0x1p-8f, -(1.0f + 0x1p-7f + 0x1p-8f),
                                3.0f,      -0.375f};
  std::uint32_t st = 0x12345u;
  for (std::size_t i = 0; i < ct_n; ++i) {
    st = st * 1664525u + 1013904223u;
    const float f = (i % 3 == 0) ? specials[(st >> 8) % 10]
                                 : static_cast<float>(static_cast<std::int32_t>(st >> 12) - (1 << 19)) * 0x1p-12f;
    x[i] = from_float<S>(f);
  }
  return x;
}

// Two kinds of row: synthetic entries (some on a bfloat16 tie: c = 1 + 2^-8) and a real RoPE row of
// the constexpr pair table above (position start_pairs + 5, llama3 scaling), its first 18 pairs.
constexpr std::array<pm::sincos_result<float>, ct_rot / 2> ct_row(bool real) {
  std::array<pm::sincos_result<float>, ct_rot / 2> r{};
  for (std::size_t j = 0; j < r.size(); ++j) {
    const float t = static_cast<float>(j) * 0.0625f - 0.5f;
    if (real)
      r[j] = tbl_pairs.value.row(5)[j];
    else
      r[j] = j % 4 == 0 ? pm::sincos_result<float>{0.0f, 1.0f + 0x1p-8f}
                        : pm::sincos_result<float>{t, 1.0f - t * t * 0.5f};
  }
  return r;
}

template <class S>
constexpr std::array<S, ct_n> ct_rotated(pr::layout lay, bool inverse, bool real) {
  std::array<S, ct_n> x = ct_input<S>();
  const auto row = ct_row(real);
  const pr::apply_shape sh{.heads = ct_heads, .head_dim = ct_dim, .rotary_dim = ct_rot, .lay = lay};
  (void)pr::rotate(x.data(), sh, row.data(), inverse ? pr::direction::inverse : pr::direction::forward);
  return x;
}

template <class S, pr::layout L, bool Inv, bool Real>
void compare_rotate(const char* name) {
  static constexpr std::array<S, ct_n> ct = ct_rotated<S>(L, Inv, Real);
  static constexpr std::array<S, ct_n> in = ct_input<S>();
  static constexpr auto row_ct = ct_row(Real);
  std::array<S, ct_n> rt{};
  for (std::size_t i = 0; i < ct_n; ++i) rt[i] = opaque(in[i]);
  std::array<pm::sincos_result<float>, ct_rot / 2> row{};
  for (std::size_t j = 0; j < row.size(); ++j) row[j] = {opaque(row_ct[j].sin), opaque(row_ct[j].cos)};
  const pr::apply_shape sh{.heads = opaque_int(ct_heads), .head_dim = ct_dim, .rotary_dim = ct_rot, .lay = L};
  const posenc::status st =
      pr::rotate(rt.data(), sh, row.data(), Inv ? pr::direction::inverse : pr::direction::forward);
  if (st != posenc::status::ok) {
    std::printf("%s: rotate returned an error\n", name);
    ++total_mismatches;
    return;
  }
  std::size_t changed = 0;
  for (std::size_t i = 0; i < ct_n; ++i)
    if (bits_of(in[i]) != bits_of(rt[i])) ++changed;
  if (changed <= ct_n / 2) {  // the rotation did something
    std::printf("%s: only %u of %u elements changed\n", name, static_cast<unsigned>(changed),
                static_cast<unsigned>(ct_n));
    ++total_mismatches;
  }
  compare_values(name, ct.data(), rt.data(), ct_n, "elements");
}

template <class S>
void compare_rotate_all(const char* type) {
  char n[96];
  std::snprintf(n, sizeof n, "rotate %s half_split forward", type);
  compare_rotate<S, pr::layout::half_split, false, false>(n);
  std::snprintf(n, sizeof n, "rotate %s interleaved forward", type);
  compare_rotate<S, pr::layout::interleaved, false, false>(n);
  std::snprintf(n, sizeof n, "rotate %s half_split inverse", type);
  compare_rotate<S, pr::layout::half_split, true, false>(n);
  std::snprintf(n, sizeof n, "rotate %s interleaved inverse", type);
  compare_rotate<S, pr::layout::interleaved, true, false>(n);
  std::snprintf(n, sizeof n, "rotate %s half_split forward, table row", type);
  compare_rotate<S, pr::layout::half_split, false, true>(n);
  std::snprintf(n, sizeof n, "rotate %s interleaved inverse, table row", type);
  compare_rotate<S, pr::layout::interleaved, true, true>(n);
}

}  // namespace

int main(int argc, char** argv) {
  selftest_flip_pending = argc > 1 && std::strcmp(argv[1], "--selftest-fail") == 0;
  std::printf("qemu_m4: posenc compile time vs run time on Cortex-M4F (arm-none-eabi-gcc %d.%d.%d)\n", __GNUC__,
              __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
  compare<trig_d, f_sin_d>("sin double");
  compare<trig_d, f_cos_d>("cos double");
  compare<trig_d, f_sincos_d>("sincos double");
  compare<trig_f, f_sin_f>("sin float");
  compare<trig_f, f_cos_f>("cos float");
  compare<trig_f, f_sincos_f>("sincos float");
  compare<exp_d, f_exp_d>("exp double");
  compare<exp_f, f_exp_f>("exp float");
  compare<log_d, f_log_d>("log double");
  compare<log_f, f_log_f>("log float");
  compare<sqrt_d, f_sqrt_d>("sqrt double");
  compare<sqrt_f, f_sqrt_f>("sqrt float");
  compare<pow_d, f_pow_d>("pow double");
  compare<pow_f, f_pow_f>("pow float");
  compare<pow_f, f_sleef_powf>("sleef_powf");
  compare<sleef_pow_f, f_sleef_powf>("sleef_powf RoPE");
  compare<rope_args, f_rope_f>("rope_sincos float");
  compare<rope_args, f_rope_d>("rope_sincos double");
  compare_tables();
  compare_rotate_all<float>("float");
  compare_rotate_all<posenc::bfloat16>("bfloat16");
  compare_rotate_all<posenc::float16>("float16");
  if (total_mismatches != 0) {
    std::printf("qemu_m4: FAILED: %u of %u comparisons differ\n", static_cast<unsigned>(total_mismatches),
                static_cast<unsigned>(total_compared));
    return 1;
  }
  std::printf("qemu_m4: all %u comparisons bit-identical\n", static_cast<unsigned>(total_compared));
  return 0;
}
