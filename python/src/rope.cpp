// rope.cpp: the RoPE bindings of posenc._core: rope_table, rope_inv_freq, rope_config.
//
// Values: policy "exact" is rope::fill_table (every entry RN_T of the exact value, bit for bit
// rope::sincos / rope::attention_sincos); policy "hf_float32" is rope::hf_float32, HF's float32
// pipeline (inv_freq_row once, then cosf/sinf of inv[j] * float(m), times attention_scaling in
// float32 when folded), converted to the dtype as HF's .to(dtype) does: the computation of
// tools/cli/commands_emit.hpp's rope_values; policy "ggml_float32" is rope::ggml_float32, ggml's
// float32 recurrence (rope::angle_row per row, then cosf/sinf), for the configs rope::applies
// accepts (default and linear), and its inv_freq is rope::inv_freq_row(ggml_float32), its angle at
// position 1, as `posenc emit rope-freq` writes it. The fills run without the GIL.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <posenc/math/sincos_result.hpp>
#include <posenc/math/trig.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/layout.hpp>
#include <posenc/rope/policy.hpp>
#include <posenc/rope/scaling_names.hpp>
#include <posenc/rope/seq_len.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "rope_config.hpp"

namespace posenc::python {
namespace {

enum class policy { exact, hf_float32, ggml_float32 };

policy parse_policy(const std::string& p) {
  if (p == "exact") return policy::exact;
  if (p == "hf_float32") return policy::hf_float32;
  if (p == "ggml_float32") return policy::ggml_float32;
  fail("unknown policy '" + p + "' (expected 'exact', 'hf_float32' or 'ggml_float32')");
}

// "model": the config's own element order (interleaved for Llama-4, Cohere, GLM; io/rope_settings.hpp).
rope::layout parse_layout(const std::string& l, rope::layout model = rope::layout::half_split) {
  if (l == "model") return model;
  if (l == "half_split") return rope::layout::half_split;
  if (l == "interleaved") return rope::layout::interleaved;
  fail("unknown layout '" + l + "' (expected 'half_split' or 'interleaved')");
}

// A float32 policy value converted to T as HF's .to(dtype) does (exact for float64 and float32).
template <class T>
T from_float(float v) {
  return from_double<T>(static_cast<double>(v));
}

[[noreturn]] void unsupported_policy(const std::string& ctx) {
  fail(ctx + ": policy 'hf_float32' cannot reproduce HF's pipeline for this configuration");
}

// The library states ggml_float32's scope (rope::applies, the CLI's rule too); Python adds which
// config it was given, in the CLI's words.
void check_ggml_applies(const rope::config& c, const std::string& ctx) {
  if (const rope::validation v = rope::applies(rope::ggml_float32, c); !v)
    fail(ctx + ": policy 'ggml_float32': " + v.message + " (this config: rope_type " +
         std::string(rope::scaling_name(c.rope_type)) + (c.proportional ? ", proportional" : "") + ")");
}

// The rows: positions start .. start + rows - 1, or the listed ones.
struct rows_spec {
  std::uint64_t start = 0, rows = 0;
  const std::uint64_t* list = nullptr;  // by list when non-null
  std::uint64_t position(std::size_t i) const { return list != nullptr ? list[i] : start + i; }
};

// HF's float32 pipeline into expanded rows (rope_values of the CLI, written in the layout).
template <class T>
void fill_hf(const rope::config& c, const rows_spec& r, rope::layout lay, bool fold, std::span<T> cos, std::span<T> sin,
             const std::vector<float>& inv, float scale) {
  const std::size_t dim = static_cast<std::size_t>(rope::rotary_dim(c)), pairs = dim / 2;
  for (std::size_t i = 0; i < r.rows; ++i) {
    const float m = static_cast<float>(r.position(i));  // position_ids.float()
    for (std::size_t j = 0; j < pairs; ++j) {
      const math::sincos_result<float> v = math::sincos(inv[j] * m);
      const T cv = from_float<T>(fold ? v.cos * scale : v.cos), sv = from_float<T>(fold ? v.sin * scale : v.sin);
      for (int t = 0; t < 2; ++t) {
        cos[i * dim + rope::pair_index(lay, j, t, dim)] = cv;
        sin[i * dim + rope::pair_index(lay, j, t, dim)] = sv;
      }
    }
  }
}

// ggml's float32 recurrence into expanded rows: the angles of a row from rope::angle_row (theta =
// float(m), times theta_scale per pair, times freq_scale), cosf/sinf, then converted to T. Its
// attention factor is 1 (default and linear), so fold_attention changes nothing.
template <class T>
posenc::status fill_ggml(const rope::config& c, const rows_spec& r, rope::layout lay, std::span<T> cos,
                         std::span<T> sin) {
  const std::size_t dim = static_cast<std::size_t>(rope::rotary_dim(c)), pairs = dim / 2;
  std::vector<float> angles(pairs);
  for (std::size_t i = 0; i < r.rows; ++i) {
    const posenc::status st = rope::angle_row(rope::ggml_float32, c, r.position(i), std::span<float>(angles));
    if (st != posenc::status::ok) return st;
    for (std::size_t j = 0; j < pairs; ++j) {
      const math::sincos_result<float> v = math::sincos(angles[j]);
      const T cv = from_float<T>(v.cos), sv = from_float<T>(v.sin);
      for (int t = 0; t < 2; ++t) {
        cos[i * dim + rope::pair_index(lay, j, t, dim)] = cv;
        sin[i * dim + rope::pair_index(lay, j, t, dim)] = sv;
      }
    }
  }
  return posenc::status::ok;
}

// The first entry that overflowed (row-major), for the message of a folded float16 table.
template <class T>
std::size_t first_infinite(std::span<const T> cos, std::span<const T> sin) {
  for (std::size_t k = 0; k < cos.size(); ++k)
    if (std::isinf(exact_double(cos[k])) || std::isinf(exact_double(sin[k]))) return k;
  return 0;
}

// A caller's own float32 inv_freq (Python's inv_freq=, for hf_float32 only): torch's tensor when
// that torch's pow is not the one hf_float32 reproduces (docs/rope-precision.md, "torch's pow").
using inv_freq_array = std::optional<py::array_t<float, py::array::c_style | py::array::forcecast>>;

template <class T>
py::tuple rope_table_t(const rope::config& c, const rows_spec& r, rope::layout lay, bool fold, policy pol,
                       const std::string& ctx, const inv_freq_array& user_inv) {
  const std::size_t dim = static_cast<std::size_t>(rope::rotary_dim(c));
  table_size(r.rows, dim, ctx);
  const auto shape = std::vector<py::ssize_t>{static_cast<py::ssize_t>(r.rows), static_cast<py::ssize_t>(dim)};
  py::array cos = new_array<T>(shape), sin = new_array<T>(shape);
  const std::span<T> cs = elements<T>(cos), ss = elements<T>(sin);
  if (pol == policy::hf_float32) {
    std::vector<float> inv(dim / 2);
    if (user_inv) {
      if (user_inv->ndim() != 1 || static_cast<std::size_t>(user_inv->size()) != inv.size())
        fail(ctx + ": inv_freq must be one-dimensional with rotary_dim / 2 = " + std::to_string(inv.size()) +
             " entries, got " + std::to_string(user_inv->size()) + " entries in " + std::to_string(user_inv->ndim()) +
             " dimension(s)");
      std::copy(user_inv->data(), user_inv->data() + inv.size(), inv.begin());
    } else if (rope::inv_freq_row(rope::hf_float32, c, inv) != posenc::status::ok) {
      unsupported_policy(ctx);
    }
    const auto att = rope::attention_scaling(rope::hf_float32, c);
    if (!att.ok()) unsupported_policy(ctx);
    {
      py::gil_scoped_release unlocked;
      fill_hf<T>(c, r, lay, fold, cs, ss, inv, static_cast<float>(att.value));
    }
    return py::make_tuple(cos, sin);
  }
  if (pol == policy::ggml_float32) {
    check_ggml_applies(c, ctx);
    posenc::status st = posenc::status::ok;
    {
      py::gil_scoped_release unlocked;
      st = fill_ggml<T>(c, r, lay, cs, ss);
    }
    check_status(st, ctx + ": policy 'ggml_float32'");
    return py::make_tuple(cos, sin);
  }
  posenc::status st = posenc::status::ok;
  {
    py::gil_scoped_release unlocked;
    st = r.list != nullptr ? rope::fill_table<T>(c, std::span<const std::uint64_t>(r.list, r.rows), cs, ss, lay, fold)
                           : rope::fill_table<T>(c, cs, ss, lay, {.start = r.start, .fold_attention = fold});
  }
  if (st == posenc::status::overflow) {
    const std::size_t k = first_infinite<T>(cs, ss);
    fail(ctx + ": cos/sin times the attention factor overflows " + std::string(dtype_name<T>()) + " at position " +
         std::to_string(r.position(k / dim)) + " (fold_attention)");
  }
  check_status(st, ctx);
  return py::make_tuple(cos, sin);
}

py::tuple rope_table(const std::string& json_text, const py::dict& overrides,
                     std::optional<py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>> positions,
                     std::uint64_t start, std::uint64_t rows, const std::string& dtype_s, const std::string& layout_s,
                     bool fold, const std::string& policy_s, const inv_freq_array& inv_freq) {
  const std::string ctx = "rope_table";
  const io::rope_settings s = read_rope_config(json_text, overrides, ctx);
  rope::config c = s.config();
  const dtype d = parse_dtype(dtype_s);
  const rope::layout lay = parse_layout(layout_s, s.layout);
  const policy pol = parse_policy(policy_s);
  rows_spec r{.start = start, .rows = rows};
  if (positions) {
    if (positions->ndim() != 1) fail(ctx + ": positions must be one-dimensional");
    r.start = 0;
    r.rows = static_cast<std::uint64_t>(positions->size());
    r.list = positions->data();
    for (std::size_t i = 0; i < r.rows; ++i)
      if (r.list[i] > rope::max_table_position)
        fail(ctx + ": position " + std::to_string(r.list[i]) + " (positions[" + std::to_string(i) +
             "]) is past 2^21 = 2097152");
  }
  if (r.rows > 0) {
    std::uint64_t last = r.start + (r.rows - 1);
    if (r.list != nullptr) last = *std::max_element(r.list, r.list + r.rows);
    warn_past_max_position(c.max_position_embeddings, last, ctx);
    c = rope::with_seq_len_of_positions(c, last);  // dynamic, LongRoPE: HF's seq_len (rope/seq_len.hpp)
  }
  // rope::check_table names the broken precondition (the fills would return a bare status).
  if (const rope::validation v =
          rope::check_table(c, r.rows, static_cast<std::size_t>(rope::rotary_dim(c)), r.list != nullptr ? 0 : r.start);
      !v)
    fail(ctx + ": " + v.message);
  if (inv_freq && pol != policy::hf_float32) fail(ctx + ": inv_freq applies to policy 'hf_float32' only");
  return with_dtype(
      d, [&]<class T>(std::type_identity<T>) { return rope_table_t<T>(c, r, lay, fold, pol, ctx, inv_freq); });
}

py::tuple rope_inv_freq(const std::string& json_text, const py::dict& overrides, const std::string& dtype_s,
                        const std::string& policy_s) {
  const std::string ctx = "rope_inv_freq";
  const io::rope_settings s = read_rope_config(json_text, overrides, ctx);
  const rope::config c = s.config();
  const policy pol = parse_policy(policy_s);
  if (pol == policy::ggml_float32) check_ggml_applies(c, ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    const int pairs = rope::rotary_dim(c) / 2;
    py::array inv = new_array<T>({pairs});
    const std::span<T> out = elements<T>(inv);
    double att = 0.0;
    if (pol == policy::ggml_float32) {  // ggml's angle at position 1 (rope::inv_freq_row's definition)
      std::vector<float> f(static_cast<std::size_t>(pairs));
      check_status(rope::inv_freq_row(rope::ggml_float32, c, f), ctx + ": policy 'ggml_float32'");
      for (std::size_t j = 0; j < f.size(); ++j) out[j] = from_float<T>(f[j]);
      const auto a = rope::attention_scaling(rope::ggml_float32, c);
      check_status(a.error, ctx + ": policy 'ggml_float32'");
      att = exact_double(from_float<T>(static_cast<float>(a.value)));
    } else if (pol == policy::hf_float32) {
      std::vector<float> f(static_cast<std::size_t>(pairs));
      if (rope::inv_freq_row(rope::hf_float32, c, f) != posenc::status::ok) unsupported_policy(ctx);
      for (std::size_t j = 0; j < f.size(); ++j) out[j] = from_float<T>(f[j]);
      const auto a = rope::attention_scaling(rope::hf_float32, c);
      if (!a.ok()) unsupported_policy(ctx);
      att = exact_double(from_float<T>(static_cast<float>(a.value)));  // multiplied in float32, then .to(dtype)
    } else {
      for (int j = 0; j < pairs; ++j) {
        const posenc::result<T> v = rope::inv_freq<T>(c, j);
        check_status(v.error, ctx + ": inv_freq of pair " + std::to_string(j));
        out[static_cast<std::size_t>(j)] = v.value;
      }
      const posenc::result<T> a = rope::attention_factor<T>(c);
      if (a.error == posenc::status::overflow)
        fail(ctx + ": the attention factor overflows " + std::string(dtype_name<T>()));
      check_status(a.error, ctx + ": attention_factor");
      att = exact_double(a.value);
    }
    return py::make_tuple(inv, att);
  });
}

py::dict rope_config(const std::string& json_text, const py::dict& overrides) {
  const io::rope_settings s = read_rope_config(json_text, overrides, "rope_config");
  py::dict d = rope_config_dict(s);
  d["effective_rotary_dim"] = rope::rotary_dim(s.config());  // partial rotary applied
  return d;
}

}  // namespace

void bind_rope(py::module_& m) {
  m.def("rope_table", &rope_table, py::arg("json_text"), py::arg("overrides"), py::arg("positions"), py::arg("start"),
        py::arg("rows"), py::arg("dtype"), py::arg("layout"), py::arg("fold_attention"), py::arg("policy"),
        py::arg("inv_freq") = py::none(), "cos, sin tables [rows, rotary_dim] (low level: use posenc.rope_table).");
  m.def("rope_inv_freq", &rope_inv_freq, py::arg("json_text"), py::arg("overrides"), py::arg("dtype"),
        py::arg("policy"), "(inv_freq, attention_factor) (low level: use posenc.rope_inv_freq).");
  m.def("rope_config", &rope_config, py::arg("json_text"), py::arg("overrides"),
        "The RoPE config posenc reads, as a dict of rope::config's fields (low level).");
}

}  // namespace posenc::python
