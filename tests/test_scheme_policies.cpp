// test_scheme_policies.cpp: the float32 framework policies of the sinusoidal and ALiBi schemes
// (sinusoidal/fairseq_float32.hpp, alibi/framework_float32.hpp) against transliterations of the frameworks'
// float32 code written here with the C library (std::exp, std::sin, std::pow ...), on every entry
// of representative tables; and, in the hidden "[.drift]" test, their drift from posenc's exact
// tables (verified against MPFR in test_sinusoidal.cpp and test_alibi.cpp) in ulps of float32.
//   ./posenc_tests_schemes "[.drift]"     prints the tables of docs/sinusoidal.md and docs/alibi.md
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/alibi.hpp"
#include "posenc/alibi/framework_float32.hpp"
#include "posenc/math/pow.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/sinusoidal/fairseq_float32.hpp"

namespace {

namespace al = posenc::alibi;
namespace sn = posenc::sinusoidal;

// The frameworks' code, transliterated (each torch op on a float32 tensor: one float rounding).

// fairseq get_embedding(num_embeddings, embedding_dim, padding_idx), rows first .. first + n - 1.
std::vector<float> fairseq_ref(int dim, double base, std::int64_t first, std::size_t n,
                               std::optional<std::int64_t> padding_idx) {
  const int half_dim = dim / 2;
  double emb = std::log(base) / (half_dim - 1);  // math.log(10000) / (half_dim - 1)
  std::vector<float> freq(static_cast<std::size_t>(half_dim));
  const float neg_emb = static_cast<float>(-emb);  // the Python float meets a float32 tensor
  for (int i = 0; i < half_dim; ++i) {
    volatile float x = static_cast<float>(i) * neg_emb;  // arange(half_dim).float() * -emb
    freq[static_cast<std::size_t>(i)] = std::exp(static_cast<float>(x));
  }
  const auto D = static_cast<std::size_t>(dim), H = static_cast<std::size_t>(half_dim);
  std::vector<float> out(n * D, -1.0f);
  for (std::size_t r = 0; r < n; ++r) {
    const std::int64_t p = first + static_cast<std::int64_t>(r);
    for (std::size_t i = 0; i < H; ++i) {
      volatile float a = static_cast<float>(p) * freq[i];
      out[r * D + i] = std::sin(static_cast<float>(a));      // torch.sin(emb)
      out[r * D + H + i] = std::cos(static_cast<float>(a));  // torch.cos(emb), cat dim 1
    }
    if (dim % 2 == 1) out[r * D + D - 1] = 0.0f;  // cat zeros column
    if (padding_idx && *padding_idx == p)
      for (std::size_t k = 0; k < D; ++k) out[r * D + k] = 0.0f;  // emb[padding_idx, :] = 0
  }
  return out;
}

// HF build_alibi_tensor's slopes (torch.pow on float32 through std::pow(float, float)).
std::vector<float> bloom_slopes_ref(int num_heads) {
  const int closest = 1 << static_cast<int>(std::floor(std::log2(num_heads)));
  const float base = static_cast<float>(std::pow(2.0, -std::pow(2.0, -(std::log2(closest) - 3))));
  std::vector<float> slopes;
  for (int p = 1; p < 1 + closest; ++p) slopes.push_back(std::pow(base, static_cast<float>(p)));
  if (closest != num_heads) {
    const float extra = static_cast<float>(std::pow(2.0, -std::pow(2.0, -(std::log2(2 * closest) - 3))));
    const int remaining = std::min(closest, num_heads - closest);
    for (int p = 1; p < 1 + 2 * remaining; p += 2) slopes.push_back(std::pow(extra, static_cast<float>(p)));
  }
  return slopes;
}

// ggml_compute_forward_soft_max_f32's slope.
float ggml_slope_ref(std::uint32_t n_head, float max_bias, std::uint32_t h) {
  const std::uint32_t n_head_log2 = 1u << static_cast<std::uint32_t>(std::floor(std::log2(n_head)));
  const float m0 = std::pow(2.0f, -(max_bias) / static_cast<float>(n_head_log2));
  const float m1 = std::pow(2.0f, -(max_bias / 2.0f) / static_cast<float>(n_head_log2));
  return h < n_head_log2 ? std::pow(m0, static_cast<float>(h + 1))
                         : std::pow(m1, static_cast<float>(2 * (h - n_head_log2) + 1));
}

bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

// Distance in float32 ulps: the number of floats between a and b (+0 and -0 are one point).
std::int64_t ulps(float a, float b) {
  auto key = [](float x) {
    const auto u = std::bit_cast<std::uint32_t>(x);
    const std::int64_t mag = u & 0x7fffffffu;
    return (u >> 31) != 0 ? -mag : mag;
  };
  const std::int64_t d = key(a) - key(b);
  return d < 0 ? -d : d;
}

}  // namespace

TEST_CASE("fairseq_float32 equals fairseq's get_embedding, transliterated", "[sinusoidal][policy]") {
  struct tc {
    int dim;
    double base;
    std::int64_t first;
    std::size_t rows;
    std::optional<std::int64_t> pad;
  };
  const tc cases[] = {{4, 10000.0, 0, 64, 1},           {7, 10000.0, 0, 40, 1},         {16, 10000.0, 0, 300, 1},
                      {33, 10000.0, 0, 50, 0},          {128, 10000.0, 0, 1026, 1},     {512, 10000.0, 0, 1026, 1},
                      {1024, 10000.0, 0, 258, 1},       {512, 10000.0, 65000, 600, {}}, {512, 1000.0, 0, 300, {}},
                      {768, 10000.0, 16777000, 216, {}}};
  for (const tc& t : cases) {
    const sn::config c{.dim = t.dim, .base = t.base, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
    std::vector<float> got(t.rows * static_cast<std::size_t>(t.dim), -2.0f);
    REQUIRE(sn::fill_table(sn::fairseq_float32, c, got, t.first, t.pad) == posenc::status::ok);
    const std::vector<float> want = fairseq_ref(t.dim, t.base, t.first, t.rows, t.pad);
    std::size_t miss = 0;
    for (std::size_t e = 0; e < got.size(); ++e) miss += same_bits(got[e], want[e]) ? 0u : 1u;
    INFO("dim " << t.dim << " first " << t.first);
    CHECK(miss == 0);
  }
  // The padding row is zero, the row after it is position padding_idx + 1 (make_positions).
  const sn::config c{.dim = 8, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
  std::vector<float> t(3 * 8);
  REQUIRE(sn::fill_table(sn::fairseq_float32, c, t, 0, 1) == posenc::status::ok);
  CHECK(std::all_of(t.begin() + 8, t.begin() + 16, [](float x) { return same_bits(x, 0.0f); }));
  CHECK(t[16] == std::sin(2.0f));
}

TEST_CASE("fairseq_float32 refuses what fairseq does not compute", "[sinusoidal][policy]") {
  std::vector<float> out(64);
  const sn::config paper{.dim = 8};
  CHECK(sn::fill_table(sn::fairseq_float32, paper, out) == posenc::status::domain_error);
  const sn::config inter{.dim = 8, .exponent = sn::exponent::fairseq};
  CHECK(sn::fill_table(sn::fairseq_float32, inter, out) == posenc::status::domain_error);
  const sn::config fs{.dim = 8, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
  std::vector<float> odd(60);
  CHECK(sn::fill_table(sn::fairseq_float32, fs, odd) == posenc::status::domain_error);  // not whole rows
  CHECK(sn::fill_table(sn::fairseq_float32, fs, out, -1) == posenc::status::domain_error);
  CHECK(sn::fill_table(sn::fairseq_float32, fs, out, (std::int64_t{1} << 24) - 7) == posenc::status::domain_error);
  CHECK(sn::fill_table(sn::fairseq_float32, fs, out, (std::int64_t{1} << 24) - 8) == posenc::status::ok);
}

TEST_CASE("bloom_float32 equals build_alibi_tensor, transliterated", "[alibi][policy]") {
  std::size_t slopes = 0;
  for (int n = 1; n <= 256; ++n) {
    const al::config c{.heads = n};
    const std::vector<float> want = bloom_slopes_ref(n);
    std::vector<float> got(static_cast<std::size_t>(n));
    REQUIRE(al::fill_slopes(al::bloom_float32, c, got) == posenc::status::ok);
    for (int h = 0; h < n; ++h) {
      INFO("heads " << n << " head " << h);
      CHECK(same_bits(got[static_cast<std::size_t>(h)], want[static_cast<std::size_t>(h)]));
      ++slopes;
    }
  }
  CHECK(slopes == 32896);
  // alibi = slopes[..., None] * arange_tensor: float32 times the int64 key index.
  for (const int n : {8, 12, 16, 30, 112}) {
    const std::vector<float> s = bloom_slopes_ref(n);
    std::vector<float> row(4096);
    std::size_t miss = 0;
    for (int h = 0; h < n; ++h) {
      REQUIRE(al::fill_bias_row(al::bloom_float32, al::config{.heads = n}, h, row, 100) == posenc::status::ok);
      for (std::size_t j = 0; j < row.size(); ++j) {
        volatile float want = s[static_cast<std::size_t>(h)] * static_cast<float>(static_cast<std::int64_t>(100 + j));
        miss += same_bits(row[j], want) ? 0u : 1u;
      }
    }
    INFO("heads " << n);
    CHECK(miss == 0);
  }
  CHECK(al::fill_bias_row(al::bloom_float32, al::config{.heads = 8, .max_bias = 4.0}, 0, std::span<float>()) ==
        posenc::status::domain_error);
}

TEST_CASE("ggml_float32 equals ggml's soft_max slope, transliterated", "[alibi][policy]") {
  std::size_t miss = 0, total = 0;
  for (const double mb : {8.0, 16.0, 0.5, 8.5})
    for (int n = 1; n <= 256; ++n)
      for (int h = 0; h < n; ++h) {
        const auto s = al::slope(al::ggml_float32, al::config{.heads = n, .max_bias = mb}, h);
        REQUIRE(s.ok());
        const float want =
            ggml_slope_ref(static_cast<std::uint32_t>(n), static_cast<float>(mb), static_cast<std::uint32_t>(h));
        if (!same_bits(s.value, want)) {
          ++miss;
          UNSCOPED_INFO("heads " << n << " head " << h << " max_bias " << mb);
        }
        ++total;
      }
  CHECK(total == 4 * 32896);
  CHECK(miss == 0);
  // The bias: slope * mask, the mask holding -|p0 - p1| converted from int.
  std::vector<float> row(4096);
  for (const int n : {8, 12, 32, 40}) {
    std::size_t bad = 0;
    for (int h = 0; h < n; ++h) {
      REQUIRE(al::fill_bias_by_distance(al::ggml_float32, al::config{.heads = n}, h, row) == posenc::status::ok);
      const float slope = ggml_slope_ref(static_cast<std::uint32_t>(n), 8.0f, static_cast<std::uint32_t>(h));
      for (std::size_t k = 0; k < row.size(); ++k) {
        const int p0 = 5000, p1 = 5000 - static_cast<int>(k);
        const float f = static_cast<float>(-std::abs(p0 - p1));
        volatile float want = slope * f;
        bad += same_bits(row[k], want) ? 0u : 1u;
      }
    }
    INFO("heads " << n);
    CHECK(bad == 0);
  }
  CHECK(same_bits(row[0], 0.0f));  // +0 on the diagonal, as the exact table
}

// ---------------------------------------------------------------------------------------------------
// Drift from the exact tables, printed (hidden: run with "[.drift]").

TEST_CASE("drift of fairseq_float32 from the exact table", "[.drift]") {
  for (const int dim : {128, 512, 1024}) {
    const sn::config c{.dim = dim, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
    const auto d = static_cast<std::size_t>(dim);
    // The frequencies: expf of a rounded product against RN_float of base^(-i/(d/2-1)).
    std::vector<float> fq(d / 2);
    REQUIRE(sn::frequency_row(sn::fairseq_float32, c, fq) == posenc::status::ok);
    std::int64_t fmax = 0;
    double fsum = 0;
    for (std::size_t i = 0; i < fq.size(); ++i) {
      const auto e = sn::frequency_exponent(c, static_cast<int>(i));
      const float exact = posenc::math::geometric_value<float>(10000.0, e.value.num, e.value.den).value;
      const std::int64_t u = ulps(fq[i], exact);
      fmax = std::max(fmax, u);
      fsum += static_cast<double>(u);
    }
    std::printf("fairseq d=%d: frequencies max %lld ulp, mean %.3f ulp\n", dim, static_cast<long long>(fmax),
                fsum / static_cast<double>(fq.size()));
    std::printf(
        "| positions | entries | max ulp | mean ulp | entries off | max abs error |\n"
        "|---|---:|---:|---:|---:|---:|\n");
    const std::int64_t bounds[] = {0, 10, 100, 1000, 10000, 100000};
    for (int b = 0; b + 1 < 6; ++b) {
      std::int64_t mx = 0, off = 0, n = 0;
      double sum = 0, abs_max = 0;
      for (std::int64_t r0 = bounds[b]; r0 < bounds[b + 1]; r0 += 1000) {
        const std::int64_t rows = std::min<std::int64_t>(1000, bounds[b + 1] - r0);
        std::vector<float> pol(static_cast<std::size_t>(rows) * d), ex(pol.size());
        REQUIRE(sn::fill_table(sn::fairseq_float32, c, pol, r0) == posenc::status::ok);
        REQUIRE(sn::fill_table<float>(c, r0, std::span<float>(ex)) == posenc::status::ok);
        for (std::size_t e = 0; e < pol.size(); ++e) {
          const std::int64_t u = ulps(pol[e], ex[e]);
          mx = std::max(mx, u);
          sum += static_cast<double>(u);
          off += u != 0 ? 1 : 0;
          abs_max = std::max(abs_max, std::fabs(static_cast<double>(pol[e]) - static_cast<double>(ex[e])));
          ++n;
        }
      }
      std::printf("| %lld-%lld | %lld | %lld | %.3f | %.2f%% | %.2e |\n", static_cast<long long>(bounds[b]),
                  static_cast<long long>(bounds[b + 1] - 1), static_cast<long long>(n), static_cast<long long>(mx),
                  sum / static_cast<double>(n), 100.0 * static_cast<double>(off) / static_cast<double>(n), abs_max);
    }
  }
}

TEST_CASE("drift of bloom_float32 and ggml_float32 from the exact slopes and biases", "[.drift]") {
  constexpr std::size_t distances = 4096;
  std::printf(
      "| heads | policy | slopes off (max ulp) | bias max ulp, k < 4096 | bias mean ulp | biases off |\n"
      "|---:|---|---|---:|---:|---:|\n");
  for (const int n : {8, 12, 16, 24, 30, 32, 40, 64, 71, 96, 112, 128}) {
    const al::config c{.heads = n};
    for (int pol = 0; pol < 2; ++pol) {
      std::int64_t smax = 0, soff = 0, bmax = 0, boff = 0;
      double bsum = 0;
      std::vector<float> ex(distances), got(distances);
      for (int h = 0; h < n; ++h) {
        const float exact = al::slope<float>(c, h).value;
        const float s = pol == 0 ? al::slope(al::bloom_float32, c, h).value : al::slope(al::ggml_float32, c, h).value;
        const std::int64_t su = ulps(s, exact);
        smax = std::max(smax, su);
        soff += su != 0 ? 1 : 0;
        REQUIRE(al::fill_bias_by_distance<float>(c, h, ex) == posenc::status::ok);
        if (pol == 0) {  // BLOOM's row is +slope * j: compare with -exact (negation is exact)
          REQUIRE(al::fill_bias_row(al::bloom_float32, c, h, got) == posenc::status::ok);
          for (float& x : got) x = -x;
        } else {
          REQUIRE(al::fill_bias_by_distance(al::ggml_float32, c, h, got) == posenc::status::ok);
        }
        for (std::size_t k = 0; k < distances; ++k) {
          const std::int64_t u = ulps(got[k], ex[k]);
          bmax = std::max(bmax, u);
          bsum += static_cast<double>(u);
          boff += u != 0 ? 1 : 0;
        }
      }
      std::printf("| %d | %s | %lld of %d (%lld) | %lld | %.3f | %.2f%% |\n", n, pol == 0 ? "bloom" : "ggml",
                  static_cast<long long>(soff), n, static_cast<long long>(smax), static_cast<long long>(bmax),
                  bsum / static_cast<double>(static_cast<std::size_t>(n) * distances),
                  100.0 * static_cast<double>(boff) / static_cast<double>(static_cast<std::size_t>(n) * distances));
    }
  }
  // Per head, for one model shape (BLOOM-176B: 112 heads) where the slopes are off.
  const al::config c{.heads = 112};
  std::printf("112 heads, heads whose slope differs from exact (head: bloom ulp, ggml ulp):");
  for (int h = 0; h < 112; ++h) {
    const float exact = al::slope<float>(c, h).value;
    const std::int64_t b = ulps(al::slope(al::bloom_float32, c, h).value, exact);
    const std::int64_t g = ulps(al::slope(al::ggml_float32, c, h).value, exact);
    if (b != 0 || g != 0) std::printf(" %d: %lld, %lld;", h, static_cast<long long>(b), static_cast<long long>(g));
  }
  std::printf("\n");
  // Why the policies call libm: the same pipeline with posenc's correctly rounded pow (verified
  // against MPFR in test_oracle_pow_sqrt.cpp) differs from glibc's powf on these slopes.
  std::size_t differ = 0, total = 0;
  for (const double mb : {8.0, 16.0, 0.5, 8.5})
    for (int n = 1; n <= 256; ++n)
      for (int h = 0; h < n; ++h) {
        const auto L = static_cast<float>(al::power_group(n));
        const auto f = static_cast<float>(mb);
        const float m =
            h < al::power_group(n) ? posenc::math::pow(2.0f, -f / L) : posenc::math::pow(2.0f, -(f / 2.0f) / L);
        const float y = static_cast<float>(h < al::power_group(n) ? h + 1 : 2 * (h - al::power_group(n)) + 1);
        const float cr = posenc::math::pow(m, y);
        differ += same_bits(cr, al::slope(al::ggml_float32, al::config{.heads = n, .max_bias = mb}, h).value) ? 0u : 1u;
        ++total;
      }
  std::printf(
      "ggml slopes, heads 1..256, max_bias 8/16/0.5/8.5: glibc powf differs from correctly rounded pow on "
      "%zu of %zu\n",
      differ, total);
}
