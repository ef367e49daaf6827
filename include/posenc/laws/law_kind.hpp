// law_kind.hpp: what names a law in a law_result and in the compiler's output (posenc/laws/).
//
// The set of laws is open: each law's header declares its own identity beside the law,
//
//   namespace posenc::laws::failed {
//   constexpr bool unit_norm(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
//     return at<unit_norm>(position) && pair + element > 0;
//   }
//   }
//   namespace posenc::laws::kind {
//   inline constexpr law_identity unit_norm{failed::unit_norm, law_indices::rotary};
//   }
//
// and its results carry &kind::unit_norm (a law_kind). Nothing here or in require.hpp and print.hpp
// lists the laws, so a scheme's laws live in its own folder (laws/alibi/, laws/xpos/) and no shared
// header names them.
//
// failed::<law> is the function a failing law's constant evaluation ends in (laws/require.hpp): its
// arguments are the first failure's indices, and it reads one element past the end of a
// one-element array named for what the index is, with the law as the array's template argument.
// Clang prints the call with its values, "in call to 'unit_norm(3, 5, 5)'"; GCC 12 prints the array
// with the law and the index: "array subscript value '4' is outside the bounds of array
// 'posenc::laws::failed::first_failure_position_plus_one<posenc::laws::failed::unit_norm>'".
#pragma once

#include <cstdint>

namespace posenc::laws {

// A law's failure function: (position, pair, element) of the first failure, or (head, position,
// element) for the laws whose law_indices is head (see below). Never returns in constant
// evaluation (it reads past an array's end); it is never called outside it.
using failure_function = bool (*)(std::int64_t, std::int64_t, std::int64_t) noexcept;

// What a law's entry_index fields mean (print.hpp's words; require.hpp's argument order).
enum class law_indices : unsigned char {
  rotary,           // position >= 0 (-1: none), pair, element; partner: a position (the RoPE and rotary laws)
  signed_position,  // position may be negative (invalid_position: none), pair, element; partner: a position
  head,             // a head in the pair field and no position (ALiBi's slope laws); failed:: takes it first
  query_head_key,   // position is the query, pair the head, element the key; partner: a key (ALiBi's bias)
};

// A law's identity: its failure function and the meaning of its indices. A law_kind points to one
// (kind::<law>, an inline constexpr variable, so each law has one address in a program).
struct law_identity {
  failure_function failed;
  law_indices indices;
};
using law_kind = const law_identity*;

// The position of a failure the law could not place (a table it cannot read, an invalid
// description), for the laws whose positions are signed (the failure reads
// table_shape_or_description_invalid).
inline constexpr std::int64_t invalid_position = INT64_MIN;

}  // namespace posenc::laws

namespace posenc::laws::failed {

// One array per kind of index and law: the array's name says what the index is, its template
// argument which law failed.
template <failure_function Law>
inline constexpr char first_failure_position_plus_one[1] = {};
template <failure_function Law>
inline constexpr char first_failure_pair_plus_one[1] = {};
template <failure_function Law>
inline constexpr char first_failure_minus_position_plus_one[1] = {};
template <failure_function Law>
inline constexpr char first_failure_head_plus_one[1] = {};
template <failure_function Law>
inline constexpr char table_shape_or_description_invalid[1] = {};

// A position p >= 0 reads first_failure_position_plus_one[p + 1]; a negative one (no place: a
// table the law cannot read) reads table_shape_or_description_invalid. Always out of bounds.
template <failure_function Law>
constexpr bool at(std::int64_t position) noexcept {
  if (position < 0) return table_shape_or_description_invalid<Law>[1 - position] != 0;
  return first_failure_position_plus_one<Law>[position + 1] != 0;
}
// monotone_frequencies has no position: its failure reads the pair.
template <failure_function Law>
constexpr bool at_pair(std::int64_t pair) noexcept {
  if (pair < 0) return table_shape_or_description_invalid<Law>[1 - pair] != 0;
  return first_failure_pair_plus_one<Law>[pair + 1] != 0;
}
// The laws of the bias and absolute encodings read signed positions (a relative position, a row of
// a table on [-N, N)): -5 reads first_failure_minus_position_plus_one[6]; invalid_position (no
// place) reads table_shape_or_description_invalid.
template <failure_function Law>
constexpr bool at_signed(std::int64_t position) noexcept {
  if (position == invalid_position) return at<Law>(-1);
  if (position < 0) return first_failure_minus_position_plus_one<Law>[1 - position] != 0;
  return first_failure_position_plus_one<Law>[position + 1] != 0;
}
// ALiBi's slope laws have a head and no position.
template <failure_function Law>
constexpr bool at_head(std::int64_t head) noexcept {
  if (head < 0) return table_shape_or_description_invalid<Law>[1 - head] != 0;
  return first_failure_head_plus_one<Law>[head + 1] != 0;
}

}  // namespace posenc::laws::failed
