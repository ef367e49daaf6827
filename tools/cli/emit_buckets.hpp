// emit_buckets.hpp: `posenc emit t5-bucket`, `deberta-bucket` and `shaw`: the integer tables, from
// t5::fill_buckets, deberta::fill_buckets and shaw::fill_index_table (emit_schemes.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/deberta.hpp>
#include <posenc/shaw.hpp>
#include <posenc/status.hpp>
#include <posenc/t5.hpp>

#include "args.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "hf_config_flag.hpp"
#include "scheme_configs.hpp"

namespace posenc::cli::emit {

// ---- T5 and DeBERTa buckets (integers) --------------------------------------------------------

inline table<std::int32_t> bucket_table(std::string scheme, long long range, const table_options& o) {
  table<std::int32_t> t;
  t.scheme = std::move(scheme);
  t.keys = {"relative_position"};
  t.value = "bucket";
  const std::size_t rows = table_rows(2, static_cast<std::uint64_t>(range), o.ctx, "2 --range + 1") + 1;
  if (rows > max_table_rows)
    throw usage_error(o.ctx + ": table too large: 2 --range + 1 = " + std::to_string(rows) +
                      " rows (at most 2^24 = 16777216 per run)");
  t.values.resize(rows);
  t.key_of = [range](std::size_t r, std::int64_t* k) { k[0] = static_cast<std::int64_t>(r) - range; };
  t.shape = {rows};
  return t;
}

inline std::string emit_t5(const parsed_args& a, const table_options& o) {
  const t5::config c = read_t5_config(a, o.ctx);
  const t5::checked_config cc{c};
  const long long range = required_integer(a, "range", 0, 1LL << 62, o.ctx);
  table<std::int32_t> t = bucket_table("t5-bucket", range, o);
  std::vector<int> b(t.values.size());
  check_status(t5::fill_buckets(cc, -range, std::span<int>(b)), "T5 buckets");
  for (std::size_t i = 0; i < b.size(); ++i) t.values[i] = static_cast<std::int32_t>(b[i]);
  t.index_notes = {"[R + r]: the bucket of relative position r = key - query, -R <= r <= R"};
  t.params = {{"relative_attention_num_buckets", std::to_string(c.relative_attention_num_buckets)},
              {"relative_attention_max_distance", std::to_string(c.relative_attention_max_distance)},
              {"bidirectional", c.bidirectional ? "true" : "false (--causal)"},
              {"range R", std::to_string(range)}};
  return write_table(t, o);
}

inline std::string emit_deberta(const parsed_args& a, const table_options& o) {
  const deberta::config c = read_deberta_config(a, o.ctx);
  const deberta::checked_config cc{c};
  const long long range = required_integer(a, "range", 0, 1LL << 62, o.ctx);
  table<std::int32_t> t = bucket_table("deberta-bucket", range, o);
  std::vector<std::int64_t> b(t.values.size());
  check_status(deberta::fill_buckets(cc, -range, std::span<std::int64_t>(b)), "DeBERTa buckets");
  for (std::size_t i = 0; i < b.size(); ++i) t.values[i] = static_cast<std::int32_t>(b[i]);  // |bucket| <= |r| < 2^24
  t.index_notes = {"[R + r]: the bucket of relative position r = query - key (DeBERTa's sign), -R <= r <= R"};
  t.params = {{"position_buckets", std::to_string(c.position_buckets)},
              {"max_relative_positions", std::to_string(c.max_relative_positions)},
              {"range R", std::to_string(range)}};
  return write_table(t, o);
}

// ---- Shaw (integers) ---------------------------------------------------------------------------

inline std::string emit_shaw(const parsed_args& a, const table_options& o) {
  const shaw::config c = read_shaw_config(a, o.ctx);
  const auto n =
      static_cast<std::size_t>(required_integer(a, "positions", 1, static_cast<long long>(max_table_rows), o.ctx));
  const std::size_t rows = table_rows(n, n, o.ctx, "--positions " + std::to_string(n) + " squared");
  table<std::int32_t> t;
  t.scheme = "shaw";
  t.keys = {"query", "key"};
  t.value = "index";
  std::vector<int> v(rows);
  check_status(shaw::fill_index_table(c, 0, n, 0, std::span<int>(v)), "Shaw indices");
  t.values.assign(v.begin(), v.end());
  t.key_of = [n](std::size_t r, std::int64_t* k) {
    k[0] = static_cast<std::int64_t>(r / n);
    k[1] = static_cast<std::int64_t>(r % n);
  };
  t.shape = {n, n};
  t.index_notes = {"[i][j]: query i, key j: clip(j - i, -k, k) + k, an index into the (2k + 1)-row tables"};
  t.params = {{"max_relative_position k", std::to_string(c.max_relative_position)}, {"positions", std::to_string(n)}};
  return write_table(t, o);
}

}  // namespace posenc::cli::emit
