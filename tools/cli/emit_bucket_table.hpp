// emit_bucket_table.hpp: the table of buckets of relative positions -R .. R that `posenc emit
// t5-bucket` and `deberta-bucket` fill (schemes/t5.hpp, schemes/deberta.hpp): its key, its rows,
// the limit on them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "args.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"

namespace posenc::cli::emit {

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

}  // namespace posenc::cli::emit
