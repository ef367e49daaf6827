// expect-error: (in call to 'mrope_text_rows\(1, 0, 0\)'|expansion of [^a-z]*posenc::laws::failed::mrope_text_rows\(1, 0, 0\).*value [^0-9]*2[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>() on an M-RoPE table whose second text token holds the third's row (a shifted
// export): the compiler's output names the law and the first failure's position, pair and element.
#include <array>
#include <cstdint>

#include <posenc/laws/require.hpp>
#include <posenc/laws/streams/text_rows.hpp>
#include <posenc/rope/mrope.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::mrope_config cfg{{.head_dim = 16, .rope_theta = 1e6}, {4, 2, 2}};
constexpr std::array<std::uint64_t, 9> thw{0, 1, 2, 0, 1, 2, 0, 1, 2};
constexpr auto table = [] {
  std::array<std::array<float, 3 * 16>, 2> t{};
  static_cast<void>(rope::fill_mrope_table<float>(cfg, thw, t[0], t[1]));
  for (std::size_t k = 0; k < 16; ++k) t[0][16 + k] = t[0][32 + k], t[1][16 + k] = t[1][32 + k];
  return t;
}();
static_assert(laws::require<laws::mrope_text_rows(laws::mrope_view<float>{&cfg, thw, table[0], table[1]})>());
