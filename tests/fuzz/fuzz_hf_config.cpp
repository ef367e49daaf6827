// Fuzz harness: every config.json reader of posenc::io (RoPE, per-layer RoPE, ALiBi, T5, ND RoPE,
// the attention temperature) on the same bytes. Properties: no reader throws (they are noexcept:
// an escaping exception terminates); a failure is one line; a config read is either refused by its
// scheme's validate() or builds its table without error, and that table holds what the scheme
// promises: RoPE and ND RoPE entries finite and within [-1, 1] (RoPE at rows 0, 1 and 2^21),
// ALiBi slopes finite, T5 buckets within [0, num_buckets) over relative positions past
// max_distance on both sides, attention temperatures finite and >= 1 or an overflow named by its
// status (never a silent infinity). Replayed on tests/fuzz/corpus/ and examples/configs/ by the
// suite (fuzz_replay); run with tools/fuzz.sh hf_config SECONDS.
#include <posenc/alibi.hpp>
#include <posenc/attn_temperature.hpp>
#include <posenc/io/alibi_hf_config.hpp>
#include <posenc/io/attn_temperature_hf_config.hpp>
#include <posenc/io/rope_hf_config.hpp>
#include <posenc/io/rope_nd_hf_config.hpp>
#include <posenc/io/t5_hf_config.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/layers.hpp>
#include <posenc/rope/nd.hpp>
#include <posenc/rope/validate.hpp>
#include <posenc/t5.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"

namespace {

using posenc_fuzz::broken;
using posenc_fuzz::finite;
using posenc_fuzz::one_error_line;

void check_rope(const posenc::io::rope_settings& s) {
  const posenc::rope::config c = s.config();
  if (!posenc::rope::validate(c)) return;  // refused with a named precondition: the CLI's exit 2
  finite(c.rope_theta, "rope_theta");
  finite(c.factor, "factor");
  const int dim = posenc::rope::rotary_dim(c);
  if (dim <= 0 || dim > 4096) return;  // valid, but more than the harness should allocate per input
  const auto d = static_cast<std::size_t>(dim);
  // Rows 0, 1 and the last position a table may hold: the ends of the scaled frequencies.
  const std::vector<std::uint64_t> positions = {0, 1, posenc::rope::max_table_position};
  std::vector<double> cos(positions.size() * d), sin(positions.size() * d);
  const posenc::status st =
      posenc::rope::fill_table<double>(c, std::span<const std::uint64_t>(positions), std::span(cos), std::span(sin));
  if (st != posenc::status::ok) broken("a valid config builds its table", "fill_table failed");
  for (std::size_t i = 0; i < cos.size(); ++i) {
    finite(cos[i], "cos");
    finite(sin[i], "sin");
    if (cos[i] < -1 || cos[i] > 1 || sin[i] < -1 || sin[i] > 1) broken("|cos|, |sin| <= 1", "an entry outside [-1, 1]");
  }
}

void check_t5(const posenc::t5::config& c) {
  if (!posenc::t5::validate(c)) return;
  // -R .. R with R past max_distance (where the log buckets saturate), at most 4096.
  const std::int64_t md = c.relative_attention_max_distance;
  const std::int64_t range = md < 2047 ? md + 1 : 2048;
  std::vector<int> buckets(static_cast<std::size_t>(2 * range + 1));
  if (posenc::t5::fill_buckets(posenc::t5::checked_config{c}, -range, std::span(buckets)) != posenc::status::ok)
    broken("a valid config builds its table", "t5::fill_buckets failed");
  for (const int b : buckets)
    if (b < 0 || b >= c.relative_attention_num_buckets) broken("0 <= bucket < num_buckets", std::to_string(b));
}

void check_nd(const posenc::io::rope_nd_settings& s) {
  const posenc::rope::nd_config c{
      .axes_dim = s.axes_dim,
      .rope_theta = s.rope_theta,
      .angle = s.turns ? posenc::rope::angle_unit::turns : posenc::rope::angle_unit::radians};
  if (!posenc::rope::validate(c)) return;
  finite(c.rope_theta, "ND rope_theta");
  const int dim = posenc::rope::nd_rotary_dim(c);
  if (dim <= 0 || dim > 4096) return;  // valid, but more than the harness should allocate per input
  // Two tokens: every axis at 0, then every axis at 1.
  const std::size_t axes = s.axes_dim.size(), pairs = static_cast<std::size_t>(dim) / 2;
  std::vector<double> positions(2 * axes, 0.0);
  for (std::size_t a = 0; a < axes; ++a) positions[axes + a] = 1.0;
  std::vector<posenc::math::sincos_result<double>> out(2 * pairs);
  if (posenc::rope::fill_nd_pair_table<double>(c, std::span<const double>(positions), std::span(out)) !=
      posenc::status::ok)
    broken("a valid config builds its table", "rope::fill_nd_pair_table failed");
  for (const auto& e : out) {
    finite(e.cos, "ND cos");
    finite(e.sin, "ND sin");
    if (e.cos < -1 || e.cos > 1 || e.sin < -1 || e.sin > 1) broken("|cos|, |sin| <= 1", "an ND entry outside [-1, 1]");
  }
}

void check_attn_temperature(const posenc::attn_temperature::config& c) {
  if (!posenc::attn_temperature::validate(c)) return;
  constexpr std::int64_t last = posenc::attn_temperature::max_position;
  // Position 0, the last one of step 0 (floor_scale - 1, at most 2^52) and the last of all.
  for (const std::int64_t p : {std::int64_t{0}, c.floor_scale - 1 < last ? c.floor_scale - 1 : last, last}) {
    const auto r = posenc::attn_temperature::scale<double>(c, p);
    if (!r.ok()) {
      if (r.error != posenc::status::overflow) broken("a valid config's scale is a number or an overflow", "status");
      continue;
    }
    finite(r.value, "attention temperature");
    if (!(r.value >= 1.0)) broken("the attention temperature is >= 1", "below 1");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  if (const auto m = posenc::io::rope_model_from_hf_config(text)) {
    const posenc::io::rope_model_settings& v = m.value();
    if (v.tables.empty()) broken("a model has a table", "rope_model_from_hf_config returned no table");
    for (const int t : v.layer_table)
      if (t != posenc::rope::no_rope && (t < 0 || static_cast<std::size_t>(t) >= v.tables.size()))
        broken("the layer map names tables", "layer table index " + std::to_string(t));
    for (const posenc::io::rope_settings& s : v.tables) check_rope(s);
  } else {
    one_error_line(m.error());
  }
  if (const auto r = posenc::io::rope_from_hf_config(text)) {
    check_rope(r.value());
  } else {
    one_error_line(r.error());
  }

  if (const auto a = posenc::io::alibi_from_hf_config(text)) {
    if (posenc::alibi::validate(a.value())) {
      std::vector<double> slopes(static_cast<std::size_t>(a.value().heads));
      if (posenc::alibi::fill_slopes<double>(a.value(), std::span(slopes)) != posenc::status::ok)
        broken("a valid config builds its table", "alibi::fill_slopes failed");
      for (const double s : slopes) finite(s, "ALiBi slope");
    }
  } else {
    one_error_line(a.error());
  }

  if (const auto t = posenc::io::t5_from_hf_config(text)) {
    check_t5(t.value());
  } else {
    one_error_line(t.error());
  }

  if (const auto n = posenc::io::rope_nd_from_hf_config(text)) {
    check_nd(n.value());
  } else {
    one_error_line(n.error());
  }

  if (const auto at = posenc::io::attn_temperature_from_hf_config(text)) {
    check_attn_temperature(at.value());
  } else {
    one_error_line(at.error());
  }
  return 0;
}
