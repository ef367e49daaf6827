// emit_pair_table.hpp: a rotary table of one {sin, cos} per pair as `posenc emit` writes it (the
// multi-stream and remapped RoPE tables: schemes/rope_streams.hpp, schemes/rope_remap.hpp): CSV
// "<row>,pair,cos,sin", one row per table row and pair; C, bin, npy and safetensors the cos array
// [rows][pairs] and then the sin array (emit_table.hpp's second value column).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <posenc/math/sincos_result.hpp>

#include "emit_table.hpp"
#include "emit_values.hpp"

namespace posenc::cli::emit {

// vals[r * pairs + j]: row r, pair j. row_key names the rows' column ("token", "rel"), row_note
// what row i is (the C header's comment), note what pair j holds.
template <class T>
std::string write_pair_table(const std::vector<math::sincos_result<T>>& vals, std::size_t rows, std::size_t pairs,
                             const std::string& row_key, const std::string& row_note, const std::string& scheme,
                             std::vector<std::pair<std::string, std::string>> params, const std::string& note,
                             const table_options& o) {
  table<T> t;
  t.scheme = scheme;
  t.keys = {row_key, "pair"};
  t.value = "cos";
  t.value2 = "sin";
  t.values.resize(vals.size());
  t.values2.resize(vals.size());
  for (std::size_t i = 0; i < vals.size(); ++i) t.values[i] = vals[i].cos, t.values2[i] = vals[i].sin;
  t.key_of = [pairs](std::size_t r, std::int64_t* k) {
    k[0] = static_cast<std::int64_t>(r / pairs);
    k[1] = static_cast<std::int64_t>(r % pairs);
  };
  t.shape = {rows, pairs};
  t.index_notes = {"[i][j]: " + row_note + ", pair j", note};
  params.emplace_back(row_key + "s", std::to_string(rows));
  params.emplace_back("dtype", std::string(dtype_name<T>()));
  t.params = std::move(params);
  return write_table(t, o);
}

}  // namespace posenc::cli::emit
