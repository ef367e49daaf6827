// require.hpp: a failing law named in the compiler's output, with the index of its first failure.
//
//   static_assert(posenc::laws::require<posenc::laws::unit_norm(posenc::laws::view(t))>());  // template form
//   static_assert(posenc::laws::require(posenc::laws::unit_norm(posenc::laws::view(t))));    // function form
//
// A plain static_assert(r.holds) prints only "static assertion failed". Both forms return r.holds,
// but in constant evaluation a failing law ends the evaluation inside a function named after the
// law whose arguments are the first failure's position, pair and element, by reading one element
// past the end of a one-element array (the technique of {fmt}'s format-string checks: make the
// failing path the one the compiler must explain). At run time both are r.holds.
//
// Two forms, because the compilers print that call differently. Clang prints every call's argument
// values; GCC 12 prints each call as written in its function body, so with run-time parameters it
// shows their names, and only the array index (position + 1) as a value. The template form takes
// the result as a template argument (law_verdict: law_result's integers and kind, since a class
// with double members cannot be a template argument on Clang 16), so in its instantiation the
// indices are constants and GCC prints them too. For a unit_norm failure at position 3, pair 5,
// element 5:
//   template form, GCC 12 (one "in 'constexpr' expansion of" line each):
//     'posenc::laws::require<law_verdict{posenc::laws::law_kind::unit_norm, false, 3, 5, 5}>()'
//     'posenc::laws::failed::first_failure<posenc::laws::law_kind::unit_norm, 3, 5, 5>()'
//     'posenc::laws::failed::unit_norm(3, 5, 5)'
//     error: array subscript value '4' is outside the bounds of array
//            'posenc::laws::failed::first_failure_position_plus_one' of type 'const char [1]'
//   both forms, Clang 16: "cannot refer to element 4 of array of 1 element" and
//     "in call to 'unit_norm(3, 5, 5)'" (law, position, pair, element)
//   function form, GCC 12: "in 'constexpr' expansion of 'posenc::laws::failed::unit_norm(((int64_t)
//     f.posenc::laws::entry_index::position), ...)'" and the array error above: the law and the
//     position, not the pair nor the element (to_string(r) at run time shows everything).
// The template form needs the law's result to be a constant expression where require is named (a
// law of constexpr tables); inside a constexpr function whose table is a parameter, use require(r).
//
// A table the law cannot read (bad shape, invalid config) ends in
// 'posenc::laws::failed::table_shape_or_description_invalid'.
// monotone_frequencies has no position: its failure reads 'first_failure_pair_plus_one' instead
// (the function form on GCC then shows the pair j, plus one). The laws over two rows (relative_dot,
// composition, parity) name the row of their position field (docs/laws.md); the partner row is in
// to_string(r).
// The laws of the bias and absolute encodings (sinusoid_*, alibi_*, bucket_*, xpos_*) have signed
// positions: a negative one reads 'first_failure_minus_position_plus_one' (the function form on GCC
// shows -p + 1), and the ALiBi slope laws, which have a head and no position, read
// 'first_failure_head_plus_one' and name the head first: 'alibi_geometric_slopes(head, -1, -1)'.
#pragma once

#include <cstdint>
#include <type_traits>

#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

inline constexpr char first_failure_position_plus_one[1] = {};
inline constexpr char table_shape_or_description_invalid[1] = {};
inline constexpr char first_failure_pair_plus_one[1] = {};
inline constexpr char first_failure_minus_position_plus_one[1] = {};
inline constexpr char first_failure_head_plus_one[1] = {};

constexpr bool at(std::int64_t position) noexcept {
  if (position < 0) return table_shape_or_description_invalid[1 - position] != 0;  // always out of bounds
  return first_failure_position_plus_one[position + 1] != 0;
}
constexpr bool at_pair(std::int64_t pair) noexcept {
  if (pair < 0) return table_shape_or_description_invalid[1 - pair] != 0;
  return first_failure_pair_plus_one[pair + 1] != 0;
}

// The laws of the bias and absolute encodings read signed positions (a relative position, a row of
// a table on [-N, N)): -5 reads first_failure_minus_position_plus_one[6]; invalid_position (no
// place) reads table_shape_or_description_invalid.
constexpr bool at_signed(std::int64_t position) noexcept {
  if (position == invalid_position) return at(-1);  // table_shape_or_description_invalid
  if (position < 0) return first_failure_minus_position_plus_one[1 - position] != 0;
  return first_failure_position_plus_one[position + 1] != 0;
}
// The ALiBi slope laws have a head and no position.
constexpr bool at_head(std::int64_t head) noexcept {
  if (head < 0) return table_shape_or_description_invalid[1 - head] != 0;
  return first_failure_head_plus_one[head + 1] != 0;
}

// One function per law, so that the call stack names it; the arguments are the first failure.
constexpr bool exactness(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool unit_norm(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool pair_copies(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool identity_at_zero(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool layout_equivalence(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool relative_dot(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool composition(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool norm_preservation(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool pass_through(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool monotone_frequencies(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_pair(pair) && position + element > 0;
}
constexpr bool parity(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at(position) && pair + element > 0;
}
constexpr bool sinusoid_shift(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed(position) && pair + element > 0;
}
constexpr bool sinusoid_relative_dot(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed(position) && pair + element > 0;
}
constexpr bool alibi_geometric_slopes(std::int64_t head, std::int64_t position, std::int64_t element) noexcept {
  return at_head(head) && position + element > 0;
}
constexpr bool alibi_power_of_two_slopes(std::int64_t head, std::int64_t position, std::int64_t element) noexcept {
  return at_head(head) && position + element > 0;
}
constexpr bool alibi_relative_bias(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed(position) && pair + element > 0;
}
constexpr bool alibi_monotone_bias(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed(position) && pair + element > 0;
}
constexpr bool bucket_monotone(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed(position) && pair + element > 0;
}
constexpr bool bucket_bounded(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed(position) && pair + element > 0;
}
constexpr bool bucket_saturation(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed(position) && pair + element > 0;
}
constexpr bool bucket_sign_partition(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed(position) && pair + element > 0;
}
constexpr bool xpos_relative_scale(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws {

constexpr bool require(const law_result& r) noexcept {
  if (r.holds || !std::is_constant_evaluated()) return r.holds;
  const entry_index& f = r.first_failure;
  switch (r.kind) {
    case law_kind::exactness: return failed::exactness(f.position, f.pair, f.element);
    case law_kind::unit_norm: return failed::unit_norm(f.position, f.pair, f.element);
    case law_kind::pair_copies: return failed::pair_copies(f.position, f.pair, f.element);
    case law_kind::identity_at_zero: return failed::identity_at_zero(f.position, f.pair, f.element);
    case law_kind::layout_equivalence: return failed::layout_equivalence(f.position, f.pair, f.element);
    case law_kind::relative_dot: return failed::relative_dot(f.position, f.pair, f.element);
    case law_kind::composition: return failed::composition(f.position, f.pair, f.element);
    case law_kind::norm_preservation: return failed::norm_preservation(f.position, f.pair, f.element);
    case law_kind::pass_through: return failed::pass_through(f.position, f.pair, f.element);
    case law_kind::monotone_frequencies: return failed::monotone_frequencies(f.position, f.pair, f.element);
    case law_kind::parity: return failed::parity(f.position, f.pair, f.element);
    case law_kind::sinusoid_shift: return failed::sinusoid_shift(f.position, f.pair, f.element);
    case law_kind::sinusoid_relative_dot: return failed::sinusoid_relative_dot(f.position, f.pair, f.element);
    case law_kind::alibi_relative_bias: return failed::alibi_relative_bias(f.position, f.pair, f.element);
    case law_kind::alibi_monotone_bias: return failed::alibi_monotone_bias(f.position, f.pair, f.element);
    case law_kind::bucket_monotone: return failed::bucket_monotone(f.position, f.pair, f.element);
    case law_kind::bucket_bounded: return failed::bucket_bounded(f.position, f.pair, f.element);
    case law_kind::bucket_saturation: return failed::bucket_saturation(f.position, f.pair, f.element);
    case law_kind::bucket_sign_partition: return failed::bucket_sign_partition(f.position, f.pair, f.element);
    case law_kind::xpos_relative_scale: return failed::xpos_relative_scale(f.position, f.pair, f.element);
    case law_kind::alibi_geometric_slopes: return failed::alibi_geometric_slopes(f.pair, f.position, f.element);
    case law_kind::alibi_power_of_two_slopes: return failed::alibi_power_of_two_slopes(f.pair, f.position, f.element);
  }
  return false;
}

}  // namespace posenc::laws

namespace posenc::laws {

// The template form's argument: the part of a law_result that a template argument can carry. A
// law_result has double members and a string pointer, which cannot be template arguments (Clang 16
// takes no floating-point class members); these integers and the kind can. The constructor is
// implicit so that require<law(t)>() takes the law's result as it is.
struct law_verdict {
  law_kind kind = law_kind::exactness;
  bool holds = true;
  std::int64_t position = -1;
  std::int64_t pair = -1;
  std::int64_t element = -1;

  constexpr law_verdict(const law_result& r) noexcept  // NOLINT(google-explicit-constructor): see above
      : kind(r.kind),
        holds(r.holds),
        position(r.first_failure.position),
        pair(r.first_failure.pair),
        element(r.first_failure.element) {}
};

}  // namespace posenc::laws

namespace posenc::laws::failed {

// The same dispatch as require(r)'s, with the indices as template arguments: in the instantiation
// they are constants, so GCC's "in 'constexpr' expansion of" line prints the law's call with their
// values, 'posenc::laws::failed::unit_norm(3, 5, 5)', where require(r)'s prints the parameter
// names. Both switches list every law_kind with no default, so -Wswitch (-Wall) catches a law
// missing from either.
template <law_kind Kind, std::int64_t Position, std::int64_t Pair, std::int64_t Element>
constexpr bool first_failure() noexcept {
  switch (Kind) {
    case law_kind::exactness: return exactness(Position, Pair, Element);
    case law_kind::unit_norm: return unit_norm(Position, Pair, Element);
    case law_kind::pair_copies: return pair_copies(Position, Pair, Element);
    case law_kind::identity_at_zero: return identity_at_zero(Position, Pair, Element);
    case law_kind::layout_equivalence: return layout_equivalence(Position, Pair, Element);
    case law_kind::relative_dot: return relative_dot(Position, Pair, Element);
    case law_kind::composition: return composition(Position, Pair, Element);
    case law_kind::norm_preservation: return norm_preservation(Position, Pair, Element);
    case law_kind::pass_through: return pass_through(Position, Pair, Element);
    case law_kind::monotone_frequencies: return monotone_frequencies(Position, Pair, Element);
    case law_kind::parity: return parity(Position, Pair, Element);
    case law_kind::sinusoid_shift: return sinusoid_shift(Position, Pair, Element);
    case law_kind::sinusoid_relative_dot: return sinusoid_relative_dot(Position, Pair, Element);
    case law_kind::alibi_relative_bias: return alibi_relative_bias(Position, Pair, Element);
    case law_kind::alibi_monotone_bias: return alibi_monotone_bias(Position, Pair, Element);
    case law_kind::bucket_monotone: return bucket_monotone(Position, Pair, Element);
    case law_kind::bucket_bounded: return bucket_bounded(Position, Pair, Element);
    case law_kind::bucket_saturation: return bucket_saturation(Position, Pair, Element);
    case law_kind::bucket_sign_partition: return bucket_sign_partition(Position, Pair, Element);
    case law_kind::xpos_relative_scale: return xpos_relative_scale(Position, Pair, Element);
    // The slope laws keep the head in the pair field (law_result.hpp); their functions take it first.
    case law_kind::alibi_geometric_slopes: return alibi_geometric_slopes(Pair, Position, Element);
    case law_kind::alibi_power_of_two_slopes: return alibi_power_of_two_slopes(Pair, Position, Element);
  }
  return false;
}

}  // namespace posenc::laws::failed

namespace posenc::laws {

// The template form: require<law(t)>() is law(t).holds, and a failing law's constant evaluation
// ends in failed::first_failure<kind, position, pair, element>(), which both compilers print with
// the values. The law must be a constant expression where require is named (a constexpr variable,
// a law of constexpr tables); inside a constexpr function whose table is a parameter, use require(r).
template <law_verdict V>
constexpr bool require() noexcept {
  if constexpr (V.holds) {
    return true;
  } else {
    // At run time (a call outside constant evaluation) the failure is the value false, not a read
    // past the end of an array.
    if (!std::is_constant_evaluated()) return false;
    return failed::first_failure<V.kind, V.position, V.pair, V.element>();
  }
}

}  // namespace posenc::laws
