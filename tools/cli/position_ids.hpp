// position_ids.hpp: the position-id files of `posenc emit|verify mrope` and `rope-nd`
// (--position-ids FILE): a CSV with a header line ("t,h,w" for M-RoPE, "p0,p1,..." one column per
// axis for ND RoPE), then one row per token. Read from text, so that tests/fuzz/fuzz_position_ids.cpp
// reaches the same code as the CLI (schemes/rope_streams.hpp opens the file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <posenc/rope/real_position.hpp>

#include "args.hpp"
#include "hexfloat.hpp"

namespace posenc::cli::emit {

// The most tokens a file may hold: 2^24, as many rows as emit writes (emit_table.hpp).
inline constexpr std::uint64_t max_position_tokens = std::uint64_t{1} << 24;

// The rows of a position-id file's text: its first line must be `header` (a trailing CR allowed);
// each further non-empty line has header.size() cells. `name` is the file as errors show it.
inline std::vector<std::vector<std::string>> position_rows(std::string_view text,
                                                           const std::vector<std::string>& header,
                                                           const std::string& name, const std::string& ctx) {
  std::istringstream in{std::string(text)};
  std::string line;
  std::string want;
  for (const auto& h : header) want += (want.empty() ? "" : ",") + h;
  if (!std::getline(in, line) || (line.empty() ? line : line.substr(0, line.find_last_not_of("\r") + 1)) != want)
    throw usage_error(ctx + ": --position-ids " + quote(name) + ": the first line must be the header " + quote(want));
  std::vector<std::vector<std::string>> rows;
  std::size_t number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (cells.size() != header.size())
      throw usage_error(ctx + ": --position-ids line " + std::to_string(number) + ": expected " +
                        std::to_string(header.size()) + " values, found " + std::to_string(cells.size()));
    rows.push_back(std::move(cells));
    if (rows.size() > max_position_tokens) throw usage_error(ctx + ": --position-ids has more than 2^24 tokens");
  }
  if (rows.empty()) throw usage_error(ctx + ": --position-ids " + quote(name) + " has no token");
  return rows;
}

// M-RoPE's positions, stream-major (the t row, the h row, the w row): integers in [0, 2^21].
inline std::vector<std::uint64_t> mrope_positions(std::string_view text, const std::string& name,
                                                  const std::string& ctx) {
  const auto rows = position_rows(text, {"t", "h", "w"}, name, ctx);
  const std::size_t n = rows.size();
  std::vector<std::uint64_t> pos(3 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t s = 0; s < 3; ++s)
      pos[s * n + i] = static_cast<std::uint64_t>(
          parse_integer(rows[i][s], 0, 2097152, "--position-ids token " + std::to_string(i) + " position", ctx));
  return pos;
}

// ND RoPE's positions, axis-major: reals (taken as the doubles they round to), |p| <= 2^21.
inline std::vector<double> nd_positions(std::string_view text, std::size_t axes, const std::string& name,
                                        const std::string& ctx) {
  std::vector<std::string> header;
  for (std::size_t k = 0; k < axes; ++k) header.push_back("p" + std::to_string(k));
  const auto rows = position_rows(text, header, name, ctx);
  const std::size_t n = rows.size();
  std::vector<double> pos(axes * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t s = 0; s < axes; ++s) {
      const double p = parse_real<double>(rows[i][s], "--position-ids token " + std::to_string(i) + " position", ctx);
      if (!(p <= rope::max_real_position && p >= -rope::max_real_position))
        throw usage_error(ctx + ": --position-ids token " + std::to_string(i) + ": position " + rows[i][s] +
                          " is past 2^21 in magnitude");
      pos[s * n + i] = p;
    }
  return pos;
}

}  // namespace posenc::cli::emit
