// firmware_rope.cpp: the worked example of docs/rope.md. A Cortex-M-style use of posenc's RoPE layer.
//
// Part 1 (the firmware): a Llama-3-style RoPE table (llama3 scaling, 64 positions x head_dim 64,
// bfloat16, half-split) computed by the compiler and stored as constant data (.rodata/flash), its
// preconditions and two laws checked by static_assert, and a rotation of a q vector with a table
// row: no heap, no exceptions, no libm, no run-time initialisation. Only posenc headers are used.
// Part 2 (the host, verification only): MPFR recomputes entries of the table from HF's formulas
// written independently (posenc/verify/rope_table_oracle.hpp); the program prints them and exits
// non-zero on any mismatch.
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/rope/apply.hpp>
#include <posenc/rope/table.hpp>
#include <posenc/rope/validate.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

// ------------------------------------------------------------------------------------------------
// Part 1: what goes on the device.
// ------------------------------------------------------------------------------------------------
namespace fw {

namespace rope = posenc::rope;
using posenc::bfloat16;

// [config] A Llama-3.1-style head shrunk to firmware size: HF config.json names, field by field.
constexpr rope::config cfg{.head_dim = 64,
                           .rope_theta = 500000.0,
                           .rope_type = rope::scaling::llama3,
                           .factor = 8.0,
                           .original_max_position_embeddings = 8192};
constexpr std::size_t positions = 64, dim = 64, pairs = dim / 2;

static_assert(rope::validate(cfg).ok(), "RoPE config invalid");
static_assert(rope::check_table(cfg, positions, dim).ok(), "RoPE table shape");
// [config]

// [table] Entry k of row p: RN_bf16(cos(p theta_j)), theta_j the exact llama3-scaled frequency of
// pair j = k mod 32 (half-split: elements j and j + 32 hold pair j). Built in constant evaluation;
// a constexpr variable is constant-initialised (no static-init code) and lands in .rodata.
constexpr auto built = rope::make_table<bfloat16, positions, dim, rope::layout::half_split>(cfg);
static_assert(built.ok(), "RoPE table: see posenc::to_string(built.error)");
constexpr const auto& table = built.value;  // 2 x 64 x 64 bfloat16 = 16 KiB of flash
// [table]

// [laws] Position 0 is the identity (cos = 1, sin = +0 in every lane), and every entry of a
// correctly rounded bfloat16 table has |c^2 + s^2 - 1| <= 2u + u^2, u = 2^-8 (docs/rope.md, "Bounds";
// c and s are bfloat16, so c*c + s*s is exact in double: 8 + 8 significant bits, 16-bit products).
constexpr bool row0_identity() {
  for (std::size_t k = 0; k < dim; ++k)
    if (!(table.cos[k].to_float() == 1.0f) || table.sin[k].bits != 0) return false;
  return true;
}
static_assert(row0_identity(), "position 0 must be the identity rotation");

constexpr bool norms_within_bound() {
  constexpr double u = 0x1p-8, bound = 2 * u + u * u;
  for (std::size_t i = 0; i < positions * dim; ++i) {
    const double c = table.cos[i].to_float(), s = table.sin[i].to_float();
    const double e = c * c + s * s - 1.0;
    if (e > bound || -e > bound) return false;
  }
  return true;
}
static_assert(norms_within_bound(), "|cos^2 + sin^2 - 1| <= 2u + u^2");

// Half-split: both elements of a pair carry the same entry (HF's emb = cat(freqs, freqs)).
constexpr bool halves_equal() {
  for (std::size_t p = 0; p < positions; ++p)
    for (std::size_t j = 0; j < pairs; ++j)
      if (table.cos[p * dim + j].bits != table.cos[p * dim + j + pairs].bits ||
          table.sin[p * dim + j].bits != table.sin[p * dim + j + pairs].bits)
        return false;
  return true;
}
static_assert(halves_equal(), "half-split rows repeat each pair's entry");
// [laws]

// [rotate] The element-wise form firmware writes against the expanded table, HF's
//   q' = q * cos + rotate_half(q) * sin,  rotate_half(q) = (-q[32..63], q[0..31]),
// in float arithmetic with bfloat16 table entries loaded exactly. No calls, no libm.
constexpr void rotate_elementwise(const float* q, float* out, std::size_t row) {
  const bfloat16* c = table.cos.data() + row * dim;
  const bfloat16* s = table.sin.data() + row * dim;
  for (std::size_t k = 0; k < dim; ++k) {
    const float rot = k < pairs ? -q[k + pairs] : q[k - pairs];
    out[k] = q[k] * c[k].to_float() + rot * s[k].to_float();
  }
}

// The same rotation through posenc's kernel (apply.hpp), which takes a compact row of {sin, cos}
// per pair: the pair entries are the table's (pair j sits at element j of a half-split row).
constexpr void rotate_kernel(float* q, std::size_t row) {
  std::array<posenc::math::sincos_result<bfloat16>, pairs> r{};
  for (std::size_t j = 0; j < pairs; ++j) r[j] = table.pair(row, j);
  const rope::apply_shape sh{.heads = 1, .head_dim = dim, .rotary_dim = dim, .lay = rope::layout::half_split};
  (void)rope::rotate(q, sh, r.data());  // status::ok: the shape is valid (checked below)
}
// [rotate]

// A q vector with exactly representable entries (k - 31.5) / 8.
constexpr std::array<float, dim> sample_q() {
  std::array<float, dim> q{};
  for (std::size_t k = 0; k < dim; ++k) q[k] = (static_cast<float>(k) - 31.5f) / 8.0f;
  return q;
}

// Both forms give the same bits (x c - y s and y c + x s, each product rounded, then the sum:
// apply.hpp's arithmetic contract), at compile time.
constexpr bool forms_agree(std::size_t row) {
  const std::array<float, dim> q = sample_q();
  std::array<float, dim> a{}, b = q;
  rotate_elementwise(q.data(), a.data(), row);
  rotate_kernel(b.data(), row);
  for (std::size_t k = 0; k < dim; ++k)
    if (a[k] != b[k]) return false;
  return true;
}
static_assert(forms_agree(0) && forms_agree(17) && forms_agree(63), "element-wise form = posenc::rope::rotate");

constexpr bool identity_at_0() {
  const std::array<float, dim> q = sample_q();
  std::array<float, dim> x = q;
  rotate_kernel(x.data(), 0);
  for (std::size_t k = 0; k < dim; ++k)
    if (x[k] != q[k]) return false;
  return true;
}
static_assert(identity_at_0(), "rotating by position 0 leaves q unchanged, bit for bit");

}  // namespace fw

// ------------------------------------------------------------------------------------------------
// Part 2: host-only verification (MPFR). Not part of the firmware.
// ------------------------------------------------------------------------------------------------
#include <posenc/verify/rope_table_oracle.hpp>

#include <cstdio>
#include <exception>

namespace {

int failures = 0;

void show(const posenc::verify::rope_table_oracle& oracle, std::size_t p, std::size_t j) {
  const auto got = fw::table.pair(p, j);
  const auto want = oracle.sincos<posenc::bfloat16>(p, static_cast<int>(j));
  const bool same = got.cos.bits == want.cos.bits && got.sin.bits == want.sin.bits;
  if (!same) ++failures;
  std::printf("  m = %2zu, j = %2zu: cos = %-11.8g sin = %-11.8g (bits %04x %04x)  %s\n", p, j,
              static_cast<double>(got.cos.to_float()), static_cast<double>(got.sin.to_float()),
              static_cast<unsigned>(got.cos.bits), static_cast<unsigned>(got.sin.bits),
              same ? "[= MPFR]" : "[DIFFERS FROM MPFR]");
}

int run() {
  const posenc::verify::rope_table_oracle oracle(fw::cfg);
  std::printf("Llama-3-style RoPE table, 64 positions x head_dim 64, bfloat16, half-split (built at compile time)\n");
  for (const auto [p, j] : {std::array<std::size_t, 2>{1, 0}, {1, 31}, {5, 8}, {17, 13}, {42, 20}, {63, 31}})
    show(oracle, p, j);

  // Every entry of the table against MPFR, without printing.
  std::size_t checked = 0;
  for (std::size_t p = 0; p < fw::positions; ++p)
    for (std::size_t j = 0; j < fw::pairs; ++j, ++checked) {
      const auto got = fw::table.pair(p, j);
      const auto want = oracle.sincos<posenc::bfloat16>(p, static_cast<int>(j));
      if (got.cos.bits != want.cos.bits || got.sin.bits != want.sin.bits) ++failures;
    }
  std::printf("all %zu (cos, sin) entries checked against MPFR: %d mismatches\n", checked, failures);

  // The rotation at run time gives the compile-time bits.
  const std::array<float, fw::dim> q = fw::sample_q();
  std::array<float, fw::dim> a{}, b = q;
  fw::rotate_elementwise(q.data(), a.data(), 42);
  fw::rotate_kernel(b.data(), 42);
  const bool agree = a == b;
  if (!agree) ++failures;
  std::printf("q rotated to position 42: q'[0] = %.9g, q'[32] = %.9g; kernel = element-wise: %s\n",
              static_cast<double>(b[0]), static_cast<double>(b[32]), agree ? "yes" : "NO");
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main() {
  try {  // the oracle throws when MPFR cannot decide a rounding (a test must not pass on that)
    return run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "oracle error: %s\n", e.what());
    return 1;
  }
}
