// Tests of posenc/rope/layout.hpp and posenc/rope/apply.hpp: layout equivalence bit for bit, the
// weight permutation against HF's and llama.cpp's formulas written out here independently, partial
// rotary pass-through, and the rotation laws against MPFR (exact for the exact rotation; within the
// bounds derived below for the correctly rounded tables and for the kernel's float/double arithmetic).
//
// Notation: u = unit roundoff of the compute type (2^-24 float, 2^-53 double), ub = 2^-8 (bfloat16
// storage). A table entry c~ = RN(cos a), s~ = RN(sin a) has |c~ - c| <= u|c|, |s~ - s| <= u|s|, so the
// table's 2x2 block R~ = R + E with E = [[dc, -ds], [ds, dc]], ||E||_2 = sqrt(dc^2 + ds^2) <= u, and
// R~^T R~ = (c~^2 + s~^2) I with |c~^2 + s~^2 - 1| <= 2u + u^2.
// The kernel (apply.hpp): x' = fl(fl(x c) - fl(y s)) errs from x c - y s by <= (2u + u^2)(|x c| + |y s|);
// likewise y'. Since (|x||c| + |y||s|)^2 + (|x||s| + |y||c|)^2 <= 2 (x^2 + y^2)(c^2 + s^2),
//   ||fl(R~ v) - R~ v|| <= kappa ||v||,  kappa = sqrt(2) (2u + u^2) (1 + u)          (K)
// and so ||fl(R~ v) - R v|| <= a ||v||, a = u + kappa (about 3.83 u).                  (A)
#include <catch2/catch.hpp>

#include <boost/multiprecision/mpfr.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "posenc/math/round.hpp"
#include "posenc/math/sincos_table.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/apply.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/verify/catch2.hpp"
#include "posenc/verify/law_measures/detail/exact.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"

namespace {

namespace pm = posenc::math;
namespace pr = posenc::rope;
namespace v = posenc::verify;
using mp = posenc::verify::exact_real;  // about 333 bits

using posenc::verify::seeds;  // Catch2 seed generator (posenc/verify/catch2.hpp)

double uniform(v::rng& r, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(r.next() >> 11) * 0x1p-53;
}
// Random element: sign-mixed magnitude in [2^-4, 2^4] (no underflow anywhere in the kernel).
template <class S>
S random_elem(v::rng& r) {
  const double mag = std::exp2(uniform(r, -4, 4));
  const double x = (r.next() & 1) != 0 ? -mag : mag;
  if constexpr (std::is_same_v<S, double>)
    return x;
  else if constexpr (std::is_same_v<S, float>)
    return static_cast<float>(x);
  else
    return pm::round_to<S>(x).value;
}
template <class S>
std::uint64_t bits_of(S x) {
  return static_cast<std::uint64_t>(posenc::detail::float_format<S>::to_bits(x));
}
template <class S>
double to_d(S x) {
  return static_cast<double>(posenc::detail::apply_traits<S>::load(x));
}

template <class TT>
std::vector<pm::sincos_result<TT>> row_at(std::uint64_t m, double base, int d) {
  std::vector<pm::sincos_result<TT>> row(static_cast<std::size_t>(d / 2));
  for (int j = 0; j < d / 2; ++j) row[static_cast<std::size_t>(j)] = pm::sincos_geometric<TT>(m, base, 2 * j, d).value;
  return row;
}

// The exact angle m * base^(-2j/d) at 332 bits (error ~2^-300 for m < 2^21: negligible here).
struct exact_cs {
  mp c, s;
};
exact_cs exact_at(std::int64_t m, double base, int j, int d) {
  const mp theta = exp(mp(-2 * j) / d * log(mp(base)));
  const mp a = mp(m) * theta;
  return {cos(a), sin(a)};
}

}  // namespace

TEST_CASE("bfloat16 store is round_to<bfloat16> of the float result", "[rope][apply]") {
  const std::uint64_t s = GENERATE(take(4, seeds("bf16_store")));
  v::rng r(s);
  std::vector<std::uint32_t> cases = {0u,          0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u,
                                      0xFFC12345u, 0x7F7FFFFFu, 0x7F7F8000u, 0x7F7F7FFFu, 0x00008000u, 0x00018000u,
                                      0x00000001u, 0x3F808000u, 0x3F818000u, 0x3F807FFFu, 0xBF808001u};
  for (int i = 0; i < 250000; ++i) cases.push_back(static_cast<std::uint32_t>(r.next()));
  for (std::uint32_t b : cases) {
    const float f = std::bit_cast<float>(b);
    const posenc::bfloat16 want = pm::round_to<posenc::bfloat16>(static_cast<double>(f)).value;
    const posenc::bfloat16 got = posenc::detail::apply_traits<posenc::bfloat16>::store(f);
    INFO("float bits " << b);
    if (b == 0x80000000u) {
      // round_to(double) computes RN(v + 0.0), which is +0 for v = -0; the store keeps -0, as float
      // arithmetic would.
      REQUIRE(got.bits == 0x8000u);
      REQUIRE(posenc::detail::apply_traits<posenc::float16>::store(f).bits == 0x8000u);
      continue;
    }
    REQUIRE(got.bits == want.bits);
    const posenc::float16 h = posenc::detail::apply_traits<posenc::float16>::store(f);
    REQUIRE(h.bits == pm::round_to<posenc::float16>(static_cast<double>(f)).value.bits);
  }
}

TEST_CASE("half-split table is the interleaved table permuted, bit for bit", "[rope][layout]") {
  constexpr int d = 128;
  constexpr std::size_t rows = 64;
  std::vector<pm::sincos_result<float>> t(rows * d / 2);
  REQUIRE(pm::sincos_geometric_table<float>({1e4, 2, d}, d / 2, std::span(t)) == posenc::status::ok);
  std::array<float, d> ci{}, si{}, ch{}, sh{};
  for (std::size_t m = 0; m < rows; ++m) {
    pr::expand_row(pr::layout::interleaved, t.data() + m * d / 2, d, ci.data(), si.data());
    pr::expand_row(pr::layout::half_split, t.data() + m * d / 2, d, ch.data(), sh.data());
    for (std::size_t k = 0; k < static_cast<std::size_t>(d); ++k) {
      // HF: cos = cat(freqs, freqs).cos(): element k has pair k mod d/2. GPT-J: repeat_interleave: pair k / 2.
      REQUIRE(std::bit_cast<std::uint32_t>(ch[k]) == std::bit_cast<std::uint32_t>(t[m * d / 2 + k % (d / 2)].cos));
      REQUIRE(std::bit_cast<std::uint32_t>(ci[k]) == std::bit_cast<std::uint32_t>(t[m * d / 2 + k / 2].cos));
      const std::size_t src = pr::half_split_source(k, d);
      REQUIRE(std::bit_cast<std::uint32_t>(ch[k]) == std::bit_cast<std::uint32_t>(ci[src]));
      REQUIRE(std::bit_cast<std::uint32_t>(sh[k]) == std::bit_cast<std::uint32_t>(si[src]));
    }
  }
}

// Rotating the interleaved vector and permuting equals rotating the permuted vector (bit for bit),
// for every storage type, both directions, full and partial rotary.
template <class S, class TT>
void check_layout_commutes(std::uint64_t seed, std::size_t head_dim, std::size_t rotary_dim) {
  v::rng r(seed);
  const std::size_t heads = 32;
  const pr::apply_shape si{
      .heads = heads, .head_dim = head_dim, .rotary_dim = rotary_dim, .lay = pr::layout::interleaved};
  pr::apply_shape sh = si;
  sh.lay = pr::layout::half_split;
  std::vector<S> vi(heads * head_dim), vh(vi.size()), ri(vi.size()), rh(vi.size());
  for (auto& e : vi) e = random_elem<S>(r);
  REQUIRE(pr::permute_rows(vi.data(), vh.data(), heads, head_dim, rotary_dim, 1, true) == posenc::status::ok);
  const std::uint64_t m = r.next() % (std::uint64_t{1} << 21);
  const auto row = row_at<TT>(m, 1e4, static_cast<int>(rotary_dim));
  for (pr::direction dir : {pr::direction::forward, pr::direction::inverse}) {
    REQUIRE(pr::rotate_copy(vi.data(), ri.data(), si, row.data(), dir) == posenc::status::ok);
    REQUIRE(pr::rotate_copy(vh.data(), rh.data(), sh, row.data(), dir) == posenc::status::ok);
    for (std::size_t k = 0; k < vi.size(); ++k) {
      const std::size_t h = k / head_dim, q = k % head_dim;  // HF permute, written out (see below)
      const std::size_t src = q < rotary_dim ? h * head_dim + 2 * (q % (rotary_dim / 2)) + q / (rotary_dim / 2) : k;
      REQUIRE(bits_of(rh[k]) == bits_of(ri[src]));
    }
  }
}

TEST_CASE("rotate in either layout then permute: identical bits", "[rope][layout][apply]") {
  const std::uint64_t s = GENERATE(take(6, seeds("layout_commutes")));
  check_layout_commutes<float, float>(s, 128, 128);
  check_layout_commutes<double, double>(s, 128, 128);
  check_layout_commutes<posenc::bfloat16, float>(s, 128, 128);
  check_layout_commutes<posenc::bfloat16, posenc::bfloat16>(s, 128, 128);
  check_layout_commutes<posenc::float16, float>(s, 64, 64);
  check_layout_commutes<float, float>(s, 128, 32);  // Pythia: 0.25 of 128
  check_layout_commutes<float, float>(s, 256, 64);  // GPT-J: 64 of 256
}

// HF convert_llama_weights_to_hf.py:
//   def permute(w, n_heads, dim1, dim2): return w.view(n_heads, dim1 // n_heads // 2, 2, dim2)
//                                                .transpose(1, 2).reshape(dim1, dim2)
// out[h][a][b][c] = in[h][b][a][c] with out viewed (n_heads, 2, hd/2, dim2) and in (n_heads, hd/2, 2, dim2).
std::vector<int> hf_permute(const std::vector<int>& w, std::size_t n_heads, std::size_t dim1, std::size_t dim2) {
  std::vector<int> out(w.size());
  const std::size_t half = dim1 / n_heads / 2;
  for (std::size_t h = 0; h < n_heads; ++h)
    for (std::size_t a = 0; a < 2; ++a)
      for (std::size_t b = 0; b < half; ++b)
        for (std::size_t c = 0; c < dim2; ++c)
          out[((h * 2 + a) * half + b) * dim2 + c] = w[((h * half + b) * 2 + a) * dim2 + c];
  return out;
}
// llama.cpp convert_hf_to_gguf.py LlamaModel.permute:
//   weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:]).swapaxes(1, 2)
//          .reshape(weights.shape)
// out viewed (n_head, hd/2, 2, dim2), out[h][b][a][c] = in[h][a][b][c] with in viewed (n_head, 2, hd/2, dim2).
std::vector<int> gguf_permute(const std::vector<int>& w, std::size_t n_heads, std::size_t dim1, std::size_t dim2) {
  std::vector<int> out(w.size());
  const std::size_t half = dim1 / n_heads / 2;
  for (std::size_t h = 0; h < n_heads; ++h)
    for (std::size_t b = 0; b < half; ++b)
      for (std::size_t a = 0; a < 2; ++a)
        for (std::size_t c = 0; c < dim2; ++c)
          out[((h * half + b) * 2 + a) * dim2 + c] = w[((h * 2 + a) * half + b) * dim2 + c];
  return out;
}

template <std::size_t NHeads, std::size_t HeadDim>
void check_weight_permutation(std::size_t cols) {
  const std::size_t rows = NHeads * HeadDim;
  std::vector<int> w(rows * cols);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int>(i * 7 + 3);
  const std::vector<int> hf = hf_permute(w, NHeads, rows, cols), meta = gguf_permute(hf, NHeads, rows, cols);
  REQUIRE(meta == w);  // the two reference formulas are inverse (independent of posenc)
  if (HeadDim > 2) REQUIRE(hf != w);
  std::vector<int> out(w.size()), back(w.size()), inplace = w;
  REQUIRE(pr::permute_rows(w.data(), out.data(), NHeads, HeadDim, HeadDim, cols, true) == posenc::status::ok);
  REQUIRE(out == hf);
  REQUIRE(pr::permute_rows(out.data(), back.data(), NHeads, HeadDim, HeadDim, cols, false) == posenc::status::ok);
  REQUIRE(back == w);
  if (HeadDim > 2) REQUIRE(gguf_permute(w, NHeads, rows, cols) != w);
  REQUIRE(pr::permute_rows(w.data(), out.data(), NHeads, HeadDim, HeadDim, cols, false) == posenc::status::ok);
  REQUIRE(out == gguf_permute(w, NHeads, rows, cols));
  REQUIRE(pr::permute_rows_in_place(inplace.data(), NHeads, HeadDim, HeadDim, cols, true) == posenc::status::ok);
  REQUIRE(inplace == hf);
  REQUIRE(pr::permute_rows_in_place(inplace.data(), NHeads, HeadDim, HeadDim, cols, false) == posenc::status::ok);
  REQUIRE(inplace == w);
  const auto p = pr::layout_permutation<NHeads, HeadDim>(true), q = pr::layout_permutation<NHeads, HeadDim>(false);
  for (std::size_t k = 0; k < rows; ++k) {
    REQUIRE(p[q[k]] == k);
    REQUIRE(q[p[k]] == k);
    REQUIRE(hf[k * cols] == w[p[k] * cols]);
  }
}

TEST_CASE("weight permutation matches HF's permute and llama.cpp's inverse", "[rope][layout]") {
  check_weight_permutation<32, 128>(5);  // Llama-2-7B q/k: 32 heads x 128 (5 marker columns, not 4096)
  check_weight_permutation<8, 128>(3);   // Llama-3-8B k (GQA: 8 kv heads)
  check_weight_permutation<2, 8>(3);     // small
  check_weight_permutation<1, 2>(1);     // one pair: the identity
  std::vector<int> w(16);
  CHECK(pr::permute_rows(w.data(), w.data(), 2, 8, 7, 1, true) == posenc::status::domain_error);
  CHECK(pr::permute_rows_in_place(w.data(), 2, 8, 0, 1, true) == posenc::status::domain_error);
  CHECK(pr::permute_rows_in_place(w.data(), 2, 8, 10, 1, true) == posenc::status::domain_error);
}

// Partial rotary: the pass-through elements are untouched bit for bit (specials included), by every
// entry point, while the rotary part moves.
template <class S>
void check_pass_through(std::uint64_t seed, std::size_t head_dim, std::size_t rotary_dim, pr::layout lay) {
  v::rng r(seed);
  const pr::apply_shape sh{.heads = 4, .head_dim = head_dim, .rotary_dim = rotary_dim, .lay = lay};
  std::vector<S> x(sh.heads * head_dim);
  for (auto& e : x) e = random_elem<S>(r);
  using L = std::numeric_limits<float>;
  const float specials[] = {-0.0f, L::quiet_NaN(), L::infinity(), -L::infinity(), L::denorm_min()};
  for (std::size_t i = 0; i < 5; ++i) {
    const std::size_t k = (r.next() % sh.heads) * head_dim + rotary_dim + r.next() % (head_dim - rotary_dim);
    if constexpr (std::is_same_v<S, float>)
      x[k] = specials[i];
    else
      x[k] = pm::round_to<S>(static_cast<double>(specials[i])).value;
  }
  const std::uint64_t m = 1 + r.next() % 100000;
  const auto row = row_at<pr::compute_t<S>>(m, 1e4, static_cast<int>(rotary_dim));
  std::vector<S> a = x, b(x.size()), c = x, d(x.size());
  REQUIRE(pr::rotate(a.data(), sh, row.data()) == posenc::status::ok);
  REQUIRE(pr::rotate_copy(x.data(), b.data(), sh, row.data(), pr::direction::inverse) == posenc::status::ok);
  REQUIRE(pr::rotate_at(c.data(), sh, m, 1e4) == posenc::status::ok);
  REQUIRE(pr::rotate_at_copy(x.data(), d.data(), sh, m, 1e4, pr::direction::inverse) == posenc::status::ok);
  std::size_t moved = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    REQUIRE(bits_of(c[k]) == bits_of(a[k]));  // on the fly == from the table row
    REQUIRE(bits_of(d[k]) == bits_of(b[k]));
    if (k % head_dim >= rotary_dim) {
      REQUIRE(bits_of(a[k]) == bits_of(x[k]));
      REQUIRE(bits_of(b[k]) == bits_of(x[k]));
    } else {
      moved += bits_of(a[k]) != bits_of(x[k]);
    }
  }
  REQUIRE(moved > 0);
}

TEST_CASE("partial rotary passes the rest through bit for bit", "[rope][apply]") {
  const std::uint64_t s = GENERATE(take(4, seeds("pass_through")));
  check_pass_through<float>(s, 128, 32, pr::layout::half_split);   // Pythia: rotary_pct 0.25
  check_pass_through<float>(s, 256, 64, pr::layout::interleaved);  // GPT-J: rotary_dim 64 of 256
  check_pass_through<double>(s, 256, 64, pr::layout::interleaved);
  check_pass_through<posenc::bfloat16>(s, 128, 32, pr::layout::half_split);
  check_pass_through<posenc::float16>(s, 80, 32, pr::layout::half_split);  // Phi-2: 0.4 of 80
}

namespace {

// The firmware's element-wise rotation from an expanded table: out[k] = RN(RN(x[k] cos[k]) +
// RN(r(x)[k] sin[k])) with r(x) = (-y, x) on each pair (HF's rotate_half, GPT-J's
// rotate_every_two). On pair (x, y): RN(RN(x c) - RN(y s)) and RN(RN(y c) + RN(x s)), apply.hpp's
// formula up to the order of an addition, which does not change its bits. So rope::rotate from the
// compact table's row (one cos, sin per pair) must give these bits, in both element orders; S is
// the compute type here (float or double storage), TT the table's type. Also heads, and elements
// past rotary_dim passed through. pair_offset shifts the compact table (the failing twin).
template <class S, class TT, pr::layout L>
constexpr bool pair_row_rotates_as_expanded(std::uint64_t start, std::uint64_t pair_offset = 0) {
  constexpr std::size_t D = 16, head_dim = 20, heads = 2, rows = 3;
  constexpr pr::config c{.head_dim = 20, .rope_theta = 10000.0, .rotary_dim = 16};
  const auto pairs = pr::make_pair_table<TT, rows, D / 2>(c, {.start = start + pair_offset});
  const auto full = pr::make_table<TT, rows, D, L>(c, {.start = start});
  if (!pairs.ok() || !full.ok()) return false;
  const auto load = [](TT v) {
    if constexpr (std::is_same_v<TT, posenc::bfloat16>)
      return static_cast<S>(v.to_float());
    else
      return static_cast<S>(v);
  };
  for (std::size_t row = 0; row < rows; ++row) {
    std::array<S, heads * head_dim> x{}, want{};
    for (std::size_t k = 0; k < x.size(); ++k)  // signs and magnitudes spread over [-1.9, 1.9]
      x[k] = static_cast<S>(static_cast<int>((k * 7919 + row * 104729) % 39) - 19) / S(10);
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t k = 0; k < head_dim; ++k) {
        const std::size_t e = h * head_dim + k;
        if (k >= D) {
          want[e] = x[e];
          continue;
        }
        const bool first = L == pr::layout::interleaved ? k % 2 == 0 : k < D / 2;
        const std::size_t other =
            L == pr::layout::interleaved ? (first ? k + 1 : k - 1) : (first ? k + D / 2 : k - D / 2);
        const S rot = first ? -x[h * head_dim + other] : x[h * head_dim + other];
        const S a = x[e] * load(full.value.cos_row(row)[k]), b = rot * load(full.value.sin_row(row)[k]);
        want[e] = a + b;
      }
    if (pr::rotate(x.data(), {.heads = heads, .head_dim = head_dim, .rotary_dim = D, .lay = L}, pairs.value.row(row)) !=
        posenc::status::ok)
      return false;
    for (std::size_t e = 0; e < x.size(); ++e)
      if (std::bit_cast<std::conditional_t<sizeof(S) == 8, std::uint64_t, std::uint32_t>>(x[e]) !=
          std::bit_cast<std::conditional_t<sizeof(S) == 8, std::uint64_t, std::uint32_t>>(want[e]))
        return false;
  }
  return true;
}

static_assert(pair_row_rotates_as_expanded<float, float, pr::layout::half_split>(0), "float, half-split");
static_assert(pair_row_rotates_as_expanded<float, float, pr::layout::interleaved>(1000), "float, interleaved");
static_assert(pair_row_rotates_as_expanded<double, double, pr::layout::half_split>(7), "double, half-split");
static_assert(pair_row_rotates_as_expanded<float, posenc::bfloat16, pr::layout::interleaved>(3),
              "bfloat16 table, float vectors, interleaved");
static_assert(!pair_row_rotates_as_expanded<float, float, pr::layout::half_split>(0, 1),
              "the twin: a pair table one position off gives other bits (the comparison can fail)");

}  // namespace

TEST_CASE("rotate from a pair table row: the expanded table's element-wise bits, both layouts, at run time too",
          "[rope][apply]") {
  // At run time rope::rotate takes its vector kernels (apply_simd.hpp): the same bits.
  CHECK(pair_row_rotates_as_expanded<float, float, pr::layout::half_split>(4093));
  CHECK(pair_row_rotates_as_expanded<float, float, pr::layout::interleaved>(11));
  CHECK(pair_row_rotates_as_expanded<double, double, pr::layout::interleaved>(2000000));
  CHECK(pair_row_rotates_as_expanded<float, posenc::bfloat16, pr::layout::half_split>(65536));
}

TEST_CASE("bad shapes and bases are reported", "[rope][apply]") {
  std::array<float, 16> x{};
  const std::array<pm::sincos_result<float>, 8> row{};
  CHECK(pr::rotate(x.data(), {.heads = 1, .head_dim = 16, .rotary_dim = 7}, row.data()) ==
        posenc::status::domain_error);
  CHECK(pr::rotate(x.data(), {.heads = 1, .head_dim = 16, .rotary_dim = 0}, row.data()) ==
        posenc::status::domain_error);
  CHECK(pr::rotate(x.data(), {.heads = 1, .head_dim = 8, .rotary_dim = 16}, row.data()) ==
        posenc::status::domain_error);
  CHECK(pr::rotate_at(x.data(), {.heads = 1, .head_dim = 16, .rotary_dim = 16}, 5, 1.0) ==
        posenc::status::domain_error);
  CHECK(pr::rotate(x.data(), {.heads = 1, .head_dim = 16, .rotary_dim = 16}, row.data()) == posenc::status::ok);
}

namespace {

// The exact 2x2-block arithmetic of the verify layer's rotation laws (verify/law_measures/detail/exact.hpp):
// vectors and rows of exact_real (the type mp names here), rotate, dot, norm, distance.
namespace vl = posenc::verify::law_measures;
using mvec = vl::xvec;
using vl::cs_row;
using vl::distance;
using vl::dot;
using vl::norm;

cs_row exact_row(std::int64_t m, double base, int d) {
  cs_row r;
  for (int j = 0; j < d / 2; ++j) {
    const exact_cs e = exact_at(m, base, j, d);
    r.c.push_back(e.c);
    r.s.push_back(e.s);
  }
  return r;
}
template <class TT>
cs_row table_row(std::uint64_t m, double base, int d) {  // the correctly rounded entries, exactly
  cs_row r;
  for (const auto& e : row_at<TT>(m, base, d)) {
    r.c.push_back(mp(to_d(e.cos)));
    r.s.push_back(mp(to_d(e.sin)));
  }
  return r;
}
// Exact rotation (interleaved layout) of a whole head by the 2x2 blocks of row; inverse = transpose.
mvec rot(const mvec& x, const cs_row& r, bool inverse = false) { return vl::rotate(x, r, inverse); }
template <class S>
mvec to_mp(const std::vector<S>& x) {
  return vl::to_exact(x);
}
template <class S>
std::vector<S> random_vec(v::rng& r, std::size_t n) {
  std::vector<S> x(n);
  for (auto& e : x) e = random_elem<S>(r);
  return x;
}

}  // namespace

TEST_CASE("exact rotation laws hold in MPFR: R_m R_n = R_{m+n}, <R_m q, R_n k> = <q, R_{n-m} k>", "[rope][laws]") {
  const std::uint64_t s = GENERATE(take(8, seeds("exact_laws")));
  v::rng r(s);
  constexpr int d = 128;
  const double base = (s & 1) != 0 ? 1e4 : 5e5;
  const std::int64_t m = static_cast<std::int64_t>(r.next() % (1u << 20)),
                     n = static_cast<std::int64_t>(r.next() % (1u << 20));
  const mvec q = to_mp(random_vec<double>(r, d)), k = to_mp(random_vec<double>(r, d));
  const cs_row rm = exact_row(m, base, d), rn = exact_row(n, base, d);
  const mp tol = boost::multiprecision::ldexp(mp(1), -280);  // 332-bit evaluation of angles < 2^21
  CHECK(distance(rot(rot(q, rn), rm), rot(q, exact_row(m + n, base, d))) <= tol * norm(q));
  CHECK(abs(dot(rot(q, rm), rot(k, rn)) - dot(q, rot(k, exact_row(n - m, base, d)))) <= tol * norm(q) * norm(k));
  CHECK(abs(norm(rot(q, rm)) - norm(q)) <= tol * norm(q));
  CHECK(distance(rot(rot(q, rm), rm, true), q) <= tol * norm(q));
  // The check can fail: a different position breaks the law by far more than tol.
  CHECK(distance(rot(rot(q, rn), rm), rot(q, exact_row(m + n + 1, base, d))) > tol * norm(q));
}

// Bounds for storage S computed in C = compute_t<S> with a correctly rounded table of TT (u_t its
// unit roundoff, the table error; u the arithmetic's; ub the storage rounding, 0 for float/double).
struct bounds {
  double table_law, table_dot, inverse, norm, compose;
};
bounds derive(double u_t, double u, double ub) {
  const double kappa = std::sqrt(2.0) * (2 * u + u * u) * (1 + u_t) * (1 + 1e-15);  // (K); sqrt(c~^2+s~^2) <= 1 + u_t
  // One kernel rotation with the storage rounding: ||w - R~ v|| <= kappa||v|| + ub ||fl(R~ v)||.
  const double kr = kappa + ub * (1 + u_t + kappa);
  bounds b{};
  b.table_law = 3 * u_t + u_t * u_t;  // ||R~_m R~_n - R~_{m+n}|| (exact arithmetic on the entries)
  b.table_dot = 2 * u_t + u_t * u_t;  // ||R~_m^T R~_n - R_{n-m}||
  // w = fl(R~ v), v'' = fl(R~^T w): ||v'' - v|| <= kr ||w|| (second rotation) + (1 + u_t) kr ||v||
  // (first, carried through R~^T) + (2 u_t + u_t^2) ||v|| (R~^T R~ = (c~^2 + s~^2) I).
  b.inverse = kr * (1 + u_t + kr) + (1 + u_t) * kr + 2 * u_t + u_t * u_t;
  b.norm = kr + u_t;  // | ||w|| - ||v|| | <= ||w - R~ v|| + | ||R~ v|| - ||v|| |
  // ||w - R v|| <= a ||v||, a = kr + u_t (A); two rotations (or two rotated vectors in a dot product):
  // a (2 + a).
  const double a = kr + u_t;
  b.compose = a * (2 + a);
  return b;
}

template <class S, class TT>
void check_rounded_laws(std::uint64_t seed, double& worst) {
  v::rng r(seed);
  constexpr int d = 128;
  constexpr std::size_t heads = 2;
  using C = pr::compute_t<S>;
  const double u_t = std::ldexp(1.0, -posenc::detail::float_format<TT>::precision);
  const double u = std::ldexp(1.0, -posenc::detail::float_format<C>::precision);
  const double ub = std::is_same_v<S, C> ? 0.0 : std::ldexp(1.0, -posenc::detail::float_format<S>::precision);
  const bounds b = derive(u_t, u, ub);
  const double base = (seed & 2) != 0 ? 1e4 : 5e5;
  const std::uint64_t m = r.next() % (1u << 20), n = m + r.next() % (1u << 20);
  const auto row_m = row_at<TT>(m, base, d), row_n = row_at<TT>(n, base, d);
  const pr::apply_shape sh{.heads = heads, .head_dim = d, .rotary_dim = d, .lay = pr::layout::interleaved};
  const std::vector<S> q = random_vec<S>(r, heads * d), k = random_vec<S>(r, heads * d);
  std::vector<S> qm = q, kn = k, qmn = q;
  REQUIRE(pr::rotate(qm.data(), sh, row_m.data()) == posenc::status::ok);
  REQUIRE(pr::rotate(kn.data(), sh, row_n.data()) == posenc::status::ok);
  REQUIRE(pr::rotate(qmn.data(), sh, row_n.data()) == posenc::status::ok);
  REQUIRE(pr::rotate(qmn.data(), sh, row_m.data()) == posenc::status::ok);
  std::vector<S> back = qm;
  REQUIRE(pr::rotate(back.data(), sh, row_m.data(), pr::direction::inverse) == posenc::status::ok);
  const auto ratio = [&worst](const mp& err, double bound, const mp& scale) {
    const double x = static_cast<double>(err / (bound * scale));
    worst = std::max(worst, x);
    return x;
  };
  for (std::size_t h = 0; h < heads; ++h) {
    const auto head = [h](const std::vector<S>& x) {
      return to_mp(std::vector<S>(x.begin() + static_cast<std::ptrdiff_t>(h * d),
                                  x.begin() + static_cast<std::ptrdiff_t>((h + 1) * d)));
    };
    const mvec Q = head(q), K = head(k);
    const cs_row tm = table_row<TT>(m, base, d), tn = table_row<TT>(n, base, d);
    const cs_row em = exact_row(static_cast<std::int64_t>(m), base, d),
                 en = exact_row(static_cast<std::int64_t>(n), base, d);
    const cs_row emn = exact_row(static_cast<std::int64_t>(m + n), base, d);
    const cs_row tmn = table_row<TT>(m + n, base, d), tnm = table_row<TT>(n - m, base, d);
    const cs_row enm = exact_row(static_cast<std::int64_t>(n - m), base, d);
    // The rounded table itself (exact arithmetic on its entries).
    CHECK(ratio(distance(rot(rot(Q, tn), tm), rot(Q, tmn)), b.table_law, norm(Q)) <= 1);
    CHECK(ratio(abs(dot(rot(Q, tm), rot(K, tn)) - dot(Q, rot(K, tnm))), b.table_law, norm(Q) * norm(K)) <= 1);
    CHECK(ratio(abs(dot(rot(Q, tm), rot(K, tn)) - dot(Q, rot(K, enm))), b.table_dot, norm(Q) * norm(K)) <= 1);
    // The kernel's arithmetic.
    CHECK(ratio(distance(head(back), Q), b.inverse, norm(Q)) <= 1);
    CHECK(ratio(abs(norm(head(qm)) - norm(Q)), b.norm, norm(Q)) <= 1);
    CHECK(ratio(distance(head(qmn), rot(Q, emn)), b.compose, norm(Q)) <= 1);
    CHECK(ratio(abs(dot(head(qm), head(kn)) - dot(Q, rot(K, enm))), b.compose, norm(Q) * norm(K)) <= 1);
  }
}

TEST_CASE("rounded tables and the kernel obey the laws within the derived bounds", "[rope][laws][apply]") {
  const std::uint64_t s = GENERATE(take(8, seeds("rounded_laws")));
  double wf = 0, wd = 0, wb = 0;
  check_rounded_laws<float, float>(s, wf);
  check_rounded_laws<double, double>(s, wd);
  check_rounded_laws<posenc::bfloat16, float>(s, wb);
  std::printf("[rope_apply] worst error / bound: float %.3f, double %.3f, bfloat16 %.3f\n", wf, wd, wb);
}
