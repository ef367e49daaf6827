// scheme_configs.hpp: each scheme's command-line flags and the one reader of its config, for every
// table but RoPE's (emit_config.hpp reads RoPE's from rope::config_fields). A scheme's flags are
// declared here once, beside the reader that reads them; `posenc emit <scheme>` (emit_schemes.hpp)
// and `posenc verify <scheme>` (verify_scheme_runners.hpp) both call the reader, so the two
// commands cannot read the same flags two ways. What differs between them stays with the command:
// the extent of the table (positions, distances, range) has each command's limit.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/deberta.hpp>
#include <posenc/kerple.hpp>
#include <posenc/logn.hpp>
#include <posenc/sandwich.hpp>
#include <posenc/shaw.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/t5.hpp>
#include <posenc/transformer_xl.hpp>
#include <posenc/xpos.hpp>

#include "args.hpp"
#include "emit_scheme_util.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"

namespace posenc::cli::emit {

// ---- the flags of each table (help lines name only what this table does with them) ----

inline constexpr flag_spec sinusoidal_flags[] = {
    {"dim", flag_kind::value, "D", "model dimension (even)"},
    {"positions", flag_kind::value, "N", "number of positions"},
    {"start", flag_kind::value, "P", "first position (default 0, |P| <= 2^40)"},
    {"base", flag_kind::value, "X", "frequency base (default 10000)"},
    {"exponent", flag_kind::value, "paper|fairseq", "2i/d (default) or i/(d/2 - 1)"},
    {"layout", flag_kind::value, "interleaved|concat", "sin, cos, ... (default) or sin... | cos..."},
};
inline constexpr flag_spec transformer_xl_flags[] = {
    {"d-model", flag_kind::value, "D", "d_model (even)"},
    {"klen", flag_kind::value, "K", "memory + segment length"},
    {"qlen", flag_kind::value, "Q", "--model xlnet: segment length (default 0)"},
    {"clamp-len", flag_kind::value, "C", "clamp_len (default -1: no clamp)"},
    {"model", flag_kind::value, "transformer-xl|xlnet", "whose positions (default transformer-xl)"},
    {"attn-type", flag_kind::value, "bi|uni", "--model xlnet: attn_type (default bi)"},
    {"bi-data", flag_kind::boolean, "", "--model xlnet: forward and backward halves"},
};
inline constexpr flag_spec alibi_flags[] = {
    {"heads", flag_kind::value, "H", "number of heads"},
    {"max-bias", flag_kind::value, "X", "max_bias (default 8)"},
    {"bias", flag_kind::boolean, "", "the biases of --positions N instead of the slopes"},
    {"positions", flag_kind::value, "N", "--bias: queries and keys 0 .. N-1"},
    {"symmetric", flag_kind::boolean, "", "--bias: every key, -m |i - j| (default: causal, keys j <= i)"},
    {"hf-config", flag_kind::value, "FILE", "heads from a HuggingFace config.json (flags override it)"},
};
inline constexpr flag_spec t5_flags[] = {
    {"num-buckets", flag_kind::value, "B", "relative_attention_num_buckets"},
    {"max-distance", flag_kind::value, "M", "relative_attention_max_distance"},
    {"causal", flag_kind::boolean, "", "decoder self-attention (bidirectional = false)"},
    {"range", flag_kind::value, "R", "relative positions -R .. R"},
    {"hf-config", flag_kind::value, "FILE", "the config from a HuggingFace config.json (flags override it)"},
};
inline constexpr flag_spec deberta_flags[] = {
    {"bucket-size", flag_kind::value, "S", "position_buckets"},
    {"max-position", flag_kind::value, "M", "max_relative_positions"},
    {"range", flag_kind::value, "R", "relative positions -R .. R"},
};
inline constexpr flag_spec shaw_flags[] = {
    {"max-relative-position", flag_kind::value, "K", "the clip k (default 20)"},
    {"positions", flag_kind::value, "N", "queries and keys 0 .. N-1"},
};
inline constexpr flag_spec xpos_flags[] = {
    {"head-dim", flag_kind::value, "D", "head dimension (even)"},
    {"positions", flag_kind::value, "N", "number of positions"},
    {"start", flag_kind::value, "P", "first position (default 0, |P| <= 2^40)"},
    {"scale-base", flag_kind::value, "N", "scale_base (default 512)"},
    {"inverse", flag_kind::boolean, "", "the keys' factor zeta^(-n/scale_base)"},
};
inline constexpr flag_spec kerple_flags[] = {
    {"p", flag_kind::value, "X,X,...", "p of each head"},
    {"a", flag_kind::value, "X,X,...", "a of each head"},
    {"distances", flag_kind::value, "N", "distances 0 .. N-1"},
};
inline constexpr flag_spec sandwich_flags[] = {
    {"dim", flag_kind::value, "D", "per-head dimension"},
    {"heads", flag_kind::value, "H", "number of heads"},
    {"distances", flag_kind::value, "N", "distances 0 .. N-1"},
};
inline constexpr flag_spec logn_flags[] = {
    {"base", flag_kind::value, "X", "log base (default 512)"},
    {"at-least-one", flag_kind::boolean, "", "1 for n <= base (Qwen's logn; default: Su's log_base n)"},
    {"positions", flag_kind::value, "N", "number of n"},
    {"start", flag_kind::value, "P", "first n (default 1, <= 2^40)"},
};

// ---- the extents shared by several tables ----

struct position_span {
  long long start = 0, count = 0;
};

// --positions N (1 .. max_count) and --start P (min_start .. 2^40, default fallback); the last
// position must stay within 2^40.
inline position_span read_positions(const parsed_args& a, const std::string& ctx, long long max_count,
                                    long long min_start, long long fallback) {
  position_span p;
  p.count = required_integer(a, "positions", 1, max_count, ctx);
  p.start = flag_integer(a, "start", min_start, max_abs_position, fallback, ctx);
  check_position_range(p.start, p.count, ctx);
  return p;
}

// ---- one reader per scheme: its config from the flags, checked by the scheme's validate ----

inline sinusoidal::config read_sinusoidal_config(const parsed_args& a, const std::string& ctx) {
  sinusoidal::config c{};
  c.dim = static_cast<int>(required_integer(a, "dim", int_min, int_max, ctx));
  c.base = flag_real<double>(a, "base", 10000.0, ctx);
  c.exponent =
      flag_choice(a, "exponent", {{"paper", sinusoidal::exponent::paper}, {"fairseq", sinusoidal::exponent::fairseq}},
                  sinusoidal::exponent::paper, ctx);
  c.layout = flag_choice(a, "layout",
                         {{"interleaved", sinusoidal::layout::interleaved}, {"concat", sinusoidal::layout::concat}},
                         sinusoidal::layout::interleaved, ctx);
  check_valid(sinusoidal::checked_config{c}.check(), ctx, "sinusoidal");
  return c;
}

inline transformer_xl::config read_transformer_xl_config(const parsed_args& a, const std::string& ctx) {
  transformer_xl::config c{};
  c.d_model = static_cast<int>(required_integer(a, "d-model", int_min, int_max, ctx));
  c.klen = required_integer(a, "klen", -(1LL << 62), 1LL << 62, ctx);
  c.model = flag_choice(
      a, "model", {{"transformer-xl", transformer_xl::model::transformer_xl}, {"xlnet", transformer_xl::model::xlnet}},
      transformer_xl::model::transformer_xl, ctx);
  if (c.model == transformer_xl::model::transformer_xl)  // these say something about XLNet only
    for (const char* f : {"qlen", "attn-type", "bi-data"})
      if (a.has(f)) throw usage_error(ctx + ": flag --" + f + " applies to --model xlnet only");
  c.qlen = flag_integer(a, "qlen", -(1LL << 62), 1LL << 62, 0, ctx);
  c.clamp_len = flag_integer(a, "clamp-len", -(1LL << 62), 1LL << 62, -1, ctx);
  c.attn_type =
      flag_choice(a, "attn-type", {{"bi", transformer_xl::attention::bi}, {"uni", transformer_xl::attention::uni}},
                  transformer_xl::attention::bi, ctx);
  c.bi_data = a.has("bi-data");
  check_valid(transformer_xl::validate(c), ctx, "Transformer-XL");
  return c;
}

inline xpos::config read_xpos_config(const parsed_args& a, const std::string& ctx) {
  xpos::config c{};
  c.head_dim = static_cast<int>(required_integer(a, "head-dim", int_min, int_max, ctx));
  c.scale_base = static_cast<int>(flag_integer(a, "scale-base", int_min, int_max, 512, ctx));
  check_valid(xpos::checked_config{c}.check(), ctx, "XPOS");
  return c;
}

// ALiBi's config and which of its tables: the slopes, or the biases (causal or symmetric).
struct alibi_choice {
  alibi::config config{};
  bool bias = false, symmetric = false;
};

inline alibi_choice read_alibi_config(const parsed_args& a, const std::string& ctx) {
  const std::optional<alibi::config> hf = hf_alibi_config(a, ctx);  // flags override the file
  alibi_choice r;
  r.config = hf.value_or(alibi::config{});
  if (!hf || a.has("heads")) r.config.heads = static_cast<int>(required_integer(a, "heads", int_min, int_max, ctx));
  r.config.max_bias = flag_real<double>(a, "max-bias", r.config.max_bias, ctx);
  check_valid(alibi::checked_config{r.config}.check(), ctx, "ALiBi");
  r.bias = a.has("bias");
  r.symmetric = a.has("symmetric");
  if (!r.bias)  // the slopes have no positions
    for (const char* f : {"positions", "symmetric"})
      if (a.has(f)) throw usage_error(ctx + ": flag --" + f + " applies to '" + ctx + " --bias' only");
  return r;
}

inline t5::config read_t5_config(const parsed_args& a, const std::string& ctx) {
  const std::optional<t5::config> hf = hf_t5_config(a, ctx);  // flags override the file
  t5::config c = hf.value_or(t5::config{});
  if (!hf || a.has("num-buckets"))
    c.relative_attention_num_buckets = static_cast<int>(required_integer(a, "num-buckets", int_min, int_max, ctx));
  if (!hf || a.has("max-distance"))
    c.relative_attention_max_distance = required_integer(a, "max-distance", -(1LL << 62), 1LL << 62, ctx);
  if (a.has("causal")) c.bidirectional = false;
  check_valid(t5::checked_config{c}.check(), ctx, "T5");
  return c;
}

inline deberta::config read_deberta_config(const parsed_args& a, const std::string& ctx) {
  deberta::config c{};
  c.position_buckets = static_cast<int>(required_integer(a, "bucket-size", int_min, int_max, ctx));
  c.max_relative_positions = required_integer(a, "max-position", -(1LL << 62), 1LL << 62, ctx);
  check_valid(deberta::checked_config{c}.check(), ctx, "DeBERTa");
  return c;
}

inline shaw::config read_shaw_config(const parsed_args& a, const std::string& ctx) {
  shaw::config c{};
  c.max_relative_position = static_cast<int>(flag_integer(a, "max-relative-position", int_min, int_max, 20, ctx));
  check_valid(shaw::validate(c), ctx, "Shaw");
  return c;
}

// KERPLE has no config aggregate: its parameters are p and a per head (kerple::log_bias /
// power_bias check each pair's domain entry by entry).
struct kerple_heads {
  std::vector<double> p, a;
};

inline kerple_heads read_kerple_config(const parsed_args& a, const std::string& ctx) {
  kerple_heads k{real_list(a, "p", ctx), real_list(a, "a", ctx)};
  if (k.p.size() != k.a.size())
    throw usage_error(ctx + ": --p has " + std::to_string(k.p.size()) + " values and --a " +
                      std::to_string(k.a.size()) + " (one per head each)");
  return k;
}

inline sandwich::config read_sandwich_config(const parsed_args& a, const std::string& ctx) {
  sandwich::config c{};
  c.dim = static_cast<int>(required_integer(a, "dim", int_min, int_max, ctx));
  c.heads = static_cast<int>(required_integer(a, "heads", int_min, int_max, ctx));
  check_valid(sandwich::validate(c), ctx, "Sandwich");
  return c;
}

inline logn::config read_logn_config(const parsed_args& a, const std::string& ctx) {
  logn::config c{};
  c.base = flag_integer(a, "base", -(1LL << 62), 1LL << 62, 512, ctx);
  c.at_least_one = a.has("at-least-one");
  check_valid(logn::validate(c), ctx, "log-n");
  return c;
}

}  // namespace posenc::cli::emit
