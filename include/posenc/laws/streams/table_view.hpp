// table_view.hpp: an M-RoPE or ND axial RoPE table as the laws read it (rope/mrope.hpp, rope/nd.hpp).
//
// A multi-stream table is rows of rotary_dim entries, one row per token, whose pair j rotates by
// the token's position in one stream (M-RoPE's t, h, w; an ND axis). Besides the rotary_table
// interface (laws/rotary/table_view.hpp, so unit_norm and pair_copies read it as they read any
// table; position(r) is the token's index r), a stream_table has
//   streams()                 the number of streams
//   stream_of_pair(j)         the stream pair j reads, or -1 for a stream fixed at position 0
//                             (ggml's fourth M-RoPE stream)
//   stream_position(s, r)     token r's position in stream s, as a double (exact: |p| <= 2^21)
// and two views provide it, over the config, the stream-major positions and the cos/sin spans the
// fill wrote (none is copied: they must outlive the view):
//   mrope_view<T>{cfg, positions, cos, sin, layout}     positions: 3 x tokens
//   nd_view<T>{cfg, positions, cos, sin, layout}        positions: axes x tokens
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/mrope.hpp"
#include "posenc/rope/nd.hpp"
#include "posenc/rotary_layout.hpp"

namespace posenc::laws {

template <class V>
concept stream_table = rotary_table<V> && requires(const V& v, std::size_t r, int s) {
  { v.streams() } -> std::convertible_to<int>;
  { v.stream_of_pair(r) } -> std::convertible_to<int>;
  { v.stream_position(s, r) } -> std::convertible_to<double>;
};

template <class T>
struct mrope_view {
  using value_type = T;
  const rope::mrope_config* cfg = nullptr;
  std::span<const std::uint64_t> positions{};  // 3 x tokens, stream-major
  std::span<const T> cos{}, sin{};
  rotary_layout lay = rotary_layout::half_split;

  constexpr std::size_t rotary_dim() const noexcept { return static_cast<std::size_t>(rope::rotary_dim(cfg->text)); }
  constexpr std::size_t rows() const noexcept { return positions.size() / 3; }
  constexpr rotary_layout layout() const noexcept { return lay; }
  constexpr std::uint64_t position(std::size_t r) const noexcept { return r; }
  constexpr const T* cos_row(std::size_t r) const noexcept { return cos.data() + r * rotary_dim(); }
  constexpr const T* sin_row(std::size_t r) const noexcept { return sin.data() + r * rotary_dim(); }
  constexpr int streams() const noexcept { return 3; }
  constexpr int stream_of_pair(std::size_t j) const noexcept { return rope::mrope_stream(*cfg, static_cast<int>(j)); }
  constexpr double stream_position(int s, std::size_t r) const noexcept {
    return static_cast<double>(positions[static_cast<std::size_t>(s) * rows() + r]);
  }
};

template <class T>
struct nd_view {
  using value_type = T;
  const rope::nd_config* cfg = nullptr;
  std::span<const double> positions{};  // axes x tokens, axis-major
  std::span<const T> cos{}, sin{};
  rotary_layout lay = rotary_layout::interleaved;

  constexpr std::size_t rotary_dim() const noexcept { return static_cast<std::size_t>(rope::nd_rotary_dim(*cfg)); }
  constexpr std::size_t rows() const noexcept {
    return cfg->axes_dim.empty() ? 0 : positions.size() / cfg->axes_dim.size();
  }
  constexpr rotary_layout layout() const noexcept { return lay; }
  constexpr std::uint64_t position(std::size_t r) const noexcept { return r; }
  constexpr const T* cos_row(std::size_t r) const noexcept { return cos.data() + r * rotary_dim(); }
  constexpr const T* sin_row(std::size_t r) const noexcept { return sin.data() + r * rotary_dim(); }
  constexpr int streams() const noexcept { return static_cast<int>(cfg->axes_dim.size()); }
  constexpr int stream_of_pair(std::size_t j) const noexcept {
    return rope::detail::nd_pair_of(*cfg, static_cast<int>(j)).axis;  // the fill's own map
  }
  constexpr double stream_position(int s, std::size_t r) const noexcept {
    return positions[static_cast<std::size_t>(s) * rows() + r];
  }
};

namespace detail {

// The table's spans hold rows() whole rows (a view over spans of another shape reads past them).
template <stream_table V>
constexpr bool streams_well_shaped(const V& v) noexcept {
  return well_shaped(v) && v.cos.size() == v.rows() * v.rotary_dim() && v.sin.size() == v.cos.size();
}

}  // namespace detail

}  // namespace posenc::laws
