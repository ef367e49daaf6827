// registry/schemes.hpp: the bias and absolute encodings' representative configs (every_scheme) and
// their laws, each listed once (every_scheme_law) with the configs it applies to and its core
// definition, the constexpr law of posenc/laws/ (docs/laws.md sections 6-9). verify layer (not
// core): the tables are built at run time, in std::vector, at sizes past constant evaluation's.
//
//   hana::for_each(registry::every_scheme, [](auto s) {
//     for (const auto& o : registry::run_scheme_laws<float>(decltype(s)::type::value)) ...
//   });
//
// A scheme config is
//   struct S { static constexpr const char* name; static constexpr scheme value; };
// and a law
//   struct L {
//     static constexpr const char* name;
//     static constexpr bool applies_to(const scheme&);          // which configs obey it
//     template <class T> static posenc::laws::law_result core(const scheme_tables<T>&);
//   };
// Why a law does not apply: the sinusoid laws read sinusoidal tables (sinusoidal, Transformer-XL
// / XLNet); the ALiBi, bucket and XPOS laws their own scheme's; bucket_sign_partition needs a
// bidirectional scheme (not T5's causal buckets); alibi_power_of_two_slopes needs a head whose
// exponent e_h is an integer (has_power_of_two_slope; every config of every_scheme has one, e.g.
// 2^-1 at head 3 of 5 heads with max_bias 1). KERPLE (log, power), Sandwich and log-n are listed
// with no law (no law of every_scheme_law reads their tables; scheme_law::none_applies): their
// tables are still built in every dtype, so the runner shows them and their generators run.
#pragma once

#include <boost/hana/for_each.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "posenc/alibi.hpp"
#include "posenc/deberta.hpp"
#include "posenc/kerple.hpp"
#include "posenc/laws/alibi/bias_table.hpp"
#include "posenc/laws/alibi/geometric_slopes.hpp"
#include "posenc/laws/alibi/monotone_bias.hpp"
#include "posenc/laws/alibi/power_of_two_slopes.hpp"
#include "posenc/laws/alibi/relative_bias.hpp"
#include "posenc/laws/bucket/bounded.hpp"
#include "posenc/laws/bucket/monotone.hpp"
#include "posenc/laws/bucket/saturation.hpp"
#include "posenc/laws/bucket/sign_partition.hpp"
#include "posenc/laws/bucket/table.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/laws/sinusoid/relative_dot.hpp"
#include "posenc/laws/sinusoid/shift.hpp"
#include "posenc/laws/sinusoid/table.hpp"
#include "posenc/laws/xpos/relative_scale.hpp"
#include "posenc/logn.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/sandwich.hpp"
#include "posenc/shaw.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/t5.hpp"
#include "posenc/transformer_xl.hpp"
#include "posenc/xpos.hpp"

namespace posenc::verify::registry {

namespace hana = boost::hana;

enum class scheme_family : unsigned char {
  sinusoidal,
  transformer_xl,
  alibi,
  t5,
  deberta,
  shaw,
  xpos,
  kerple_log,
  kerple_power,
  sandwich,
  logn
};

// The most KERPLE heads a registry config lists (kerple_heads of them are read).
inline constexpr std::size_t max_kerple_heads = 4;

// One config of one scheme (only its family's member is read) and the range its tables cover.
struct scheme {
  scheme_family family = scheme_family::sinusoidal;
  sinusoidal::config sinusoidal{};
  transformer_xl::config transformer_xl{};
  alibi::config alibi{};
  t5::config t5{};
  deberta::config deberta{};
  shaw::config shaw{};
  xpos::config xpos{};
  std::array<kerple::log_config, max_kerple_heads> kerple_log{};
  std::array<kerple::power_config, max_kerple_heads> kerple_power{};
  std::size_t kerple_heads = 0;
  sandwich::config sandwich{};
  logn::config logn{};
  std::int64_t first = 0;  // first position (sinusoidal, XPOS) or relative position (buckets: -range)
  std::size_t rows = 0;    // positions (sinusoidal, XPOS, log-n), queries = keys (ALiBi), relative
                           // positions (buckets), distances 0 .. rows - 1 (KERPLE, Sandwich)
};

namespace schemes {

struct sinusoidal_paper {  // Vaswani et al. d_model 512; XLM, DistilBERT, Marian
  static constexpr const char* name = "sinusoidal paper d=512";
  static constexpr scheme value{
      .family = scheme_family::sinusoidal, .sinusoidal = {.dim = 512}, .first = 0, .rows = 512};
};
struct sinusoidal_fairseq {  // fairseq get_embedding / tensor2tensor, concat
  static constexpr const char* name = "sinusoidal fairseq d=512";
  static constexpr scheme value{
      .family = scheme_family::sinusoidal,
      .sinusoidal = {.dim = 512, .exponent = sinusoidal::exponent::fairseq, .layout = sinusoidal::layout::concat},
      .first = -256,
      .rows = 512};
};
struct sinusoidal_marian_odd {  // odd d, concat with the paper's exponent: a lone sin column
  static constexpr const char* name = "sinusoidal concat d=15";
  static constexpr scheme value{.family = scheme_family::sinusoidal,
                                .sinusoidal = {.dim = 15, .layout = sinusoidal::layout::concat},
                                .first = 0,
                                .rows = 300};
};
struct transformer_xl_wt103 {  // Transformer-XL: klen = mem 256 + tgt 128 (wt103 eval: 384 x 512)
  static constexpr const char* name = "Transformer-XL d=512 klen=384";
  static constexpr scheme value{.family = scheme_family::transformer_xl,
                                .transformer_xl = {.d_model = 512, .klen = 384, .qlen = 128}};
};
struct xlnet_bi_data {  // XLNet: forward and backward halves, clamp_len 100
  static constexpr const char* name = "XLNet d=64 bi_data clamp 100";
  static constexpr scheme value{.family = scheme_family::transformer_xl,
                                .transformer_xl = {.d_model = 64,
                                                   .klen = 192,
                                                   .qlen = 64,
                                                   .clamp_len = 100,
                                                   .model = transformer_xl::model::xlnet,
                                                   .bi_data = true}};
};
struct alibi_bloom {  // BLOOM-176B/7B1: 16 heads (build_alibi_tensor)
  static constexpr const char* name = "ALiBi 16 heads (BLOOM)";
  static constexpr scheme value{.family = scheme_family::alibi, .alibi = {.heads = 16}, .rows = 64};
};
struct alibi_12 {  // a head count that is not a power of two: 8 + 4 interleaved heads
  static constexpr const char* name = "ALiBi 12 heads";
  static constexpr scheme value{.family = scheme_family::alibi, .alibi = {.heads = 12}, .rows = 64};
};
struct alibi_mpt {  // MPT-7B: 32 heads, alibi_bias_max 8
  static constexpr const char* name = "ALiBi 32 heads (MPT-7B)";
  static constexpr scheme value{.family = scheme_family::alibi, .alibi = {.heads = 32}, .rows = 48};
};
struct alibi_5_bias1 {  // 5 heads, max_bias 1: irrational slopes but the last
  static constexpr const char* name = "ALiBi 5 heads max_bias 1";
  static constexpr scheme value{.family = scheme_family::alibi, .alibi = {.heads = 5, .max_bias = 1.0}, .rows = 48};
};
struct t5_small_bidirectional {  // T5-small encoder: 32 buckets, 128
  static constexpr const char* name = "T5 32/128 bidirectional";
  static constexpr scheme value{.family = scheme_family::t5, .t5 = {}, .first = -400, .rows = 801};
};
struct t5_small_causal {  // T5-small decoder self-attention
  static constexpr const char* name = "T5 32/128 causal";
  static constexpr scheme value{
      .family = scheme_family::t5, .t5 = {.bidirectional = false}, .first = -400, .rows = 801};
};
struct deberta_v3 {  // deberta-v3-base: 256 buckets, 512
  static constexpr const char* name = "DeBERTa-v3 256/512";
  static constexpr scheme value{.family = scheme_family::deberta, .deberta = {}, .first = -511, .rows = 1023};
};
struct shaw_t2t {  // tensor2tensor's default max_relative_position 20
  static constexpr const char* name = "Shaw k=20";
  static constexpr scheme value{.family = scheme_family::shaw, .shaw = {}, .first = -64, .rows = 129};
};
struct xpos_128 {  // torchscale: head_dim 128, xpos_scale_base 512, centred positions
  static constexpr const char* name = "XPOS head_dim=128 scale_base=512";
  static constexpr scheme value{.family = scheme_family::xpos, .xpos = {.head_dim = 128}, .first = -256, .rows = 512};
};

// KERPLE heads with parameters in the ranges the trained models settle in (chijames/KERPLE: p, a
// initialised from U(0, 2), U(0, 1), clamped at 0.01); binary fractions, so they are the exact
// values a checkpoint would hold after rounding to these many bits.
struct kerple_log_4 {
  static constexpr const char* name = "KERPLE-log 4 heads";
  static constexpr scheme value{.family = scheme_family::kerple_log,
                                .kerple_log = {{{.p = 1.5, .a = 0.5},
                                                {.p = 0.75, .a = 0.125},
                                                {.p = 0x1.8p-2, .a = 0x1.4p-5},
                                                {.p = 0.01, .a = 0.01}}},
                                .kerple_heads = 4,
                                .rows = 512};
};
struct kerple_power_4 {
  static constexpr const char* name = "KERPLE-power 4 heads";
  static constexpr scheme value{.family = scheme_family::kerple_power,
                                .kerple_power = {{{.a = 0.5, .p = 1.0},
                                                  {.a = 0.25, .p = 0.5},
                                                  {.a = 0x1.4p-3, .p = 1.25},
                                                  {.a = 0.01, .p = 2.0}}},
                                .kerple_heads = 4,
                                .rows = 512};
};
struct sandwich_nemo {  // NeMo's Sandwich with 64-dim heads, 8 heads
  static constexpr const char* name = "Sandwich d=64 heads=8";
  static constexpr scheme value{.family = scheme_family::sandwich, .sandwich = {.dim = 64, .heads = 8}, .rows = 256};
};
struct logn_su {  // Su's log_512(n), n = 1 .. 4096
  static constexpr const char* name = "log-n log_512 n (Su)";
  static constexpr scheme value{.family = scheme_family::logn, .logn = {}, .first = 1, .rows = 4096};
};
struct logn_qwen {  // Qwen-7B: seq_length 2048, 1 below it, log_2048(i) past it
  static constexpr const char* name = "log-n log_2048 i, at least 1 (Qwen)";
  static constexpr scheme value{
      .family = scheme_family::logn, .logn = {.base = 2048, .at_least_one = true}, .first = 1, .rows = 8192};
};

}  // namespace schemes

inline constexpr auto every_scheme =
    hana::tuple<hana::type<schemes::sinusoidal_paper>, hana::type<schemes::sinusoidal_fairseq>,
                hana::type<schemes::sinusoidal_marian_odd>, hana::type<schemes::transformer_xl_wt103>,
                hana::type<schemes::xlnet_bi_data>, hana::type<schemes::alibi_bloom>, hana::type<schemes::alibi_12>,
                hana::type<schemes::alibi_mpt>, hana::type<schemes::alibi_5_bias1>,
                hana::type<schemes::t5_small_bidirectional>, hana::type<schemes::t5_small_causal>,
                hana::type<schemes::deberta_v3>, hana::type<schemes::shaw_t2t>, hana::type<schemes::xpos_128>,
                hana::type<schemes::kerple_log_4>, hana::type<schemes::kerple_power_4>,
                hana::type<schemes::sandwich_nemo>, hana::type<schemes::logn_su>, hana::type<schemes::logn_qwen>>{};

// The tables of one scheme config in dtype T, built at run time (posenc's generators).
template <class T>
struct scheme_tables {
  scheme config{};
  posenc::status status = posenc::status::ok;
  std::vector<T> values;                  // sinusoids (rows x d), or ALiBi biases (heads x n x n)
  std::vector<std::int64_t> positions;    // Transformer-XL / XLNet rows
  std::vector<T> slopes;                  // ALiBi
  std::vector<std::int64_t> buckets;      // T5, DeBERTa, Shaw
  std::vector<float> rope_cos, rope_sin;  // XPOS: RoPE's interleaved rotation (float), ...
  std::vector<T> scales, inverse_scales;  // ... and the scales
  std::vector<T> by_distance;             // KERPLE, Sandwich: heads x distances; log-n: the factors

  laws::sinusoid_table<T> sinusoids() const noexcept {
    if (config.family == scheme_family::transformer_xl)
      return {values, {.dim = config.transformer_xl.d_model, .layout = sinusoidal::layout::concat}, 0, positions};
    return {values, config.sinusoidal, config.first};
  }
  laws::alibi_bias_table<T> biases(bool causal) const noexcept {
    return {values, static_cast<std::size_t>(config.alibi.heads), config.rows, config.rows, 0, 0, causal};
  }
  laws::bucket_table<std::int64_t> bucket_view() const noexcept { return {buckets, config.first}; }
  laws::bucket_spec spec() const noexcept {
    if (config.family == scheme_family::t5) return laws::t5_bucket_spec(config.t5);
    if (config.family == scheme_family::deberta) return laws::deberta_bucket_spec(config.deberta);
    return laws::shaw_bucket_spec(config.shaw.max_relative_position);
  }
};

template <class T>
scheme_tables<T> make_scheme_tables(const scheme& s) {
  scheme_tables<T> t;
  t.config = s;
  auto keep = [&t](posenc::status e) {
    if (t.status == posenc::status::ok) t.status = e;
  };
  switch (s.family) {
    case scheme_family::sinusoidal:
      t.values.resize(s.rows * static_cast<std::size_t>(s.sinusoidal.dim));
      keep(sinusoidal::fill_table<T>(sinusoidal::checked_config{s.sinusoidal}, s.first, std::span<T>(t.values)));
      break;
    case scheme_family::transformer_xl: {
      const auto rows = static_cast<std::size_t>(transformer_xl::rows(s.transformer_xl));
      t.values.resize(rows * static_cast<std::size_t>(s.transformer_xl.d_model));
      keep(transformer_xl::fill_table<T>(s.transformer_xl, std::span<T>(t.values)));
      for (std::size_t r = 0; r < rows; ++r)
        t.positions.push_back(transformer_xl::position(s.transformer_xl, static_cast<std::int64_t>(r)).value);
      break;
    }
    case scheme_family::alibi: {
      const alibi::checked_config cc{s.alibi};
      const auto heads = static_cast<std::size_t>(s.alibi.heads), n = s.rows;
      t.slopes.resize(heads);
      keep(alibi::fill_slopes<T>(cc, std::span<T>(t.slopes)));
      t.values.resize(heads * n * n);
      std::vector<T> by_distance(n);
      for (std::size_t h = 0; h < heads; ++h) {
        keep(alibi::fill_bias_by_distance<T>(cc, static_cast<int>(h), std::span<T>(by_distance)));
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < n; ++j) t.values[(h * n + i) * n + j] = by_distance[i >= j ? i - j : j - i];
      }
      break;
    }
    case scheme_family::t5:
      for (std::size_t k = 0; k < s.rows; ++k) {
        const auto b = t5::bucket(t5::checked_config{s.t5}, s.first + static_cast<std::int64_t>(k));
        keep(b.error);
        t.buckets.push_back(b.value);
      }
      break;
    case scheme_family::deberta:
      t.buckets.resize(s.rows);
      keep(deberta::fill_buckets(deberta::checked_config{s.deberta}, s.first, std::span<std::int64_t>(t.buckets)));
      break;
    case scheme_family::shaw:
      for (std::size_t k = 0; k < s.rows; ++k) {
        const auto b = shaw::relative_index(s.shaw, 0, s.first + static_cast<std::int64_t>(k));
        keep(b.error);
        t.buckets.push_back(b.value);
      }
      break;
    case scheme_family::xpos: {
      const xpos::checked_config xc{s.xpos};
      const auto d = static_cast<std::size_t>(s.xpos.head_dim);
      const rope::config rc{.head_dim = s.xpos.head_dim, .rope_theta = 10000.0};
      t.rope_cos.resize(s.rows * d);
      t.rope_sin.resize(s.rows * d);
      // The rotation's rows are positions 0 .. rows - 1 (rope tables start at 0); the law pairs row r
      // of the rotation with row r of the scales, and depends on differences only.
      keep(rope::fill_table<float>(rc, std::span<float>(t.rope_cos), std::span<float>(t.rope_sin),
                                   rope::layout::interleaved));
      t.scales.resize(s.rows * d / 2);
      t.inverse_scales.resize(s.rows * d / 2);
      keep(xpos::fill_scales<T>(xc, s.first, std::span<T>(t.scales)));
      keep(xpos::fill_scales<T>(xc, s.first, std::span<T>(t.inverse_scales), true));
      break;
    }
    case scheme_family::kerple_log:
    case scheme_family::kerple_power:
      t.by_distance.resize(s.kerple_heads * s.rows);
      for (std::size_t h = 0; h < s.kerple_heads; ++h) {
        const std::span<T> row(t.by_distance.data() + h * s.rows, s.rows);
        keep(s.family == scheme_family::kerple_log ? kerple::fill_log_bias<T>(s.kerple_log[h], row)
                                                   : kerple::fill_power_bias<T>(s.kerple_power[h], row));
      }
      break;
    case scheme_family::sandwich: {
      const sandwich::checked_config cc{s.sandwich};
      for (int h = 0; h < s.sandwich.heads; ++h)
        for (std::size_t k = 0; k < s.rows; ++k) {
          const auto b = sandwich::bias<T>(cc, h, static_cast<std::int64_t>(k));
          keep(b.error);
          t.by_distance.push_back(b.value);
        }
      break;
    }
    case scheme_family::logn:
      t.by_distance.resize(s.rows);
      keep(logn::fill_factors<T>(s.logn, s.first, std::span<T>(t.by_distance)));
      break;
  }
  return t;
}

namespace scheme_law {

namespace pl = posenc::laws;

constexpr bool sinusoids(const scheme& s) noexcept {
  return s.family == scheme_family::sinusoidal || s.family == scheme_family::transformer_xl;
}
constexpr bool buckets(const scheme& s) noexcept {
  return s.family == scheme_family::t5 || s.family == scheme_family::deberta || s.family == scheme_family::shaw;
}
// No law of every_scheme_law reads this family's tables (KERPLE, Sandwich, log-n): the runner lists
// the config with no law.
constexpr bool none_applies(const scheme& s) noexcept {
  return s.family == scheme_family::kerple_log || s.family == scheme_family::kerple_power ||
         s.family == scheme_family::sandwich || s.family == scheme_family::logn;
}
// Some head's exponent e_h is an integer (its slope a power of two).
constexpr bool has_power_of_two_slope(const alibi::config& c) noexcept {
  const alibi::checked_config cc{c};
  for (int h = 0; h < c.heads; ++h)
    if (alibi::slope_exponent_of(cc, h).value.den == 1) return true;
  return false;
}

struct sinusoid_shift {
  static constexpr const char* name = "sinusoid shift";
  static constexpr bool applies_to(const scheme& s) noexcept { return sinusoids(s); }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::sinusoid_shift(t.sinusoids(), {.shifts = {1, 7, pl::sinusoid_middle, 0}});
  }
};
struct sinusoid_relative_dot {
  static constexpr const char* name = "sinusoid relative dot";
  static constexpr bool applies_to(const scheme& s) noexcept { return sinusoids(s); }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::sinusoid_relative_dot(t.sinusoids(), {.shifts = {1, 7, pl::sinusoid_middle, 0}});
  }
};
struct alibi_geometric_slopes {
  static constexpr const char* name = "alibi geometric slopes";
  static constexpr bool applies_to(const scheme& s) noexcept { return s.family == scheme_family::alibi; }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::alibi_geometric_slopes(std::span<const T>(t.slopes), t.config.alibi);
  }
};
struct alibi_power_of_two_slopes {
  static constexpr const char* name = "alibi power-of-two slopes";
  static constexpr bool applies_to(const scheme& s) noexcept {
    return s.family == scheme_family::alibi && has_power_of_two_slope(s.alibi);
  }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::alibi_power_of_two_slopes(std::span<const T>(t.slopes), t.config.alibi);
  }
};
struct alibi_relative_bias {
  static constexpr const char* name = "alibi relative bias";
  static constexpr bool applies_to(const scheme& s) noexcept { return s.family == scheme_family::alibi; }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::alibi_relative_bias(t.biases(false));
  }
};
struct alibi_monotone_bias {
  static constexpr const char* name = "alibi monotone bias";
  static constexpr bool applies_to(const scheme& s) noexcept { return s.family == scheme_family::alibi; }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::alibi_monotone_bias(t.biases(false));
  }
};
struct bucket_monotone {
  static constexpr const char* name = "bucket monotone";
  static constexpr bool applies_to(const scheme& s) noexcept { return buckets(s); }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::bucket_monotone(t.bucket_view(), t.spec());
  }
};
struct bucket_bounded {
  static constexpr const char* name = "bucket bounded";
  static constexpr bool applies_to(const scheme& s) noexcept { return buckets(s); }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::bucket_bounded(t.bucket_view(), t.spec());
  }
};
struct bucket_saturation {
  static constexpr const char* name = "bucket saturation";
  static constexpr bool applies_to(const scheme& s) noexcept { return buckets(s); }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::bucket_saturation(t.bucket_view(), t.spec());
  }
};
struct bucket_sign_partition {
  static constexpr const char* name = "bucket sign partition";
  static constexpr bool applies_to(const scheme& s) noexcept {
    return buckets(s) && !(s.family == scheme_family::t5 && !s.t5.bidirectional);
  }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    return pl::bucket_sign_partition(t.bucket_view(), t.spec());
  }
};
struct xpos_relative_scale {
  static constexpr const char* name = "xpos relative scale";
  static constexpr bool applies_to(const scheme& s) noexcept { return s.family == scheme_family::xpos; }
  template <class T>
  static pl::law_result core(const scheme_tables<T>& t) {
    const laws::span_table<float> v{t.rope_cos, t.rope_sin, static_cast<std::size_t>(t.config.xpos.head_dim),
                                    rope::layout::interleaved, 0};
    return pl::xpos_relative_scale(v, std::span<const T>(t.scales), std::span<const T>(t.inverse_scales),
                                   {.differences = {1, 17, 255, 0}});
  }
};

}  // namespace scheme_law

inline constexpr auto every_scheme_law =
    hana::tuple<hana::type<scheme_law::sinusoid_shift>, hana::type<scheme_law::sinusoid_relative_dot>,
                hana::type<scheme_law::alibi_geometric_slopes>, hana::type<scheme_law::alibi_power_of_two_slopes>,
                hana::type<scheme_law::alibi_relative_bias>, hana::type<scheme_law::alibi_monotone_bias>,
                hana::type<scheme_law::bucket_monotone>, hana::type<scheme_law::bucket_bounded>,
                hana::type<scheme_law::bucket_saturation>, hana::type<scheme_law::bucket_sign_partition>,
                hana::type<scheme_law::xpos_relative_scale>>{};

// One outcome per law of every_scheme_law: ran (with its result) or not applicable.
struct scheme_outcome {
  const char* law = "";
  bool ran = false;
  posenc::laws::law_result result{};
};

template <class T>
std::vector<scheme_outcome> run_scheme_laws(const scheme_tables<T>& t) {
  std::vector<scheme_outcome> out;
  hana::for_each(every_scheme_law, [&](auto l) {
    using L = typename decltype(l)::type;
    scheme_outcome o{L::name, false, {}};
    if (L::applies_to(t.config)) o.ran = true, o.result = L::template core<T>(t);
    out.push_back(o);
  });
  return out;
}

}  // namespace posenc::verify::registry
