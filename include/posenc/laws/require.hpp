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
//     'posenc::laws::require<law_verdict{(& posenc::laws::kind::unit_norm), false, 3, 5, 5}>()'
//     'posenc::laws::failed::first_failure<posenc::laws::failed::unit_norm, 3, 5, 5>()'
//     'posenc::laws::failed::unit_norm(3, 5, 5)'
//     error: array subscript value '4' is outside the bounds of array
//            'posenc::laws::failed::first_failure_position_plus_one<posenc::laws::failed::unit_norm>'
//   both forms, Clang 16: "cannot refer to element 4 of array of 1 element" and
//     "in call to 'unit_norm(3, 5, 5)'" (law, position, pair, element)
//   function form, GCC 12: the array error above, which names the law and the position, not the
//     pair nor the element (to_string(r) at run time shows everything).
// The template form needs the law's result to be a constant expression where require is named (a
// law of constexpr tables); inside a constexpr function whose table is a parameter, use require(r).
//
// A table the law cannot read (bad shape, invalid config) ends in
// 'posenc::laws::failed::table_shape_or_description_invalid<law>'.
// monotone_frequencies has no position: its failure reads 'first_failure_pair_plus_one' instead
// (the function form on GCC then shows the pair j, plus one). The laws over two rows (relative_dot,
// composition, parity) name the row of their position field (docs/laws.md); the partner row is in
// to_string(r).
// The laws of the bias and absolute encodings have signed positions: a negative one reads
// 'first_failure_minus_position_plus_one' (the function form on GCC shows -p + 1); the laws with a
// head and no position (law_indices::head) read 'first_failure_head_plus_one' and name the head
// first: 'alibi_geometric_slopes(head, -1, -1)'.
//
// Nothing here lists the laws: each law's header declares its failure function and identity
// (laws/law_kind.hpp), and both forms call the failure function its result points to.
#pragma once

#include <cstdint>
#include <type_traits>

#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// A failing result with no law_kind (a law_result made by hand, not by make_result).
inline constexpr char law_result_without_a_kind[1] = {};
constexpr bool without_a_kind(std::int64_t one) noexcept { return law_result_without_a_kind[one] != 0; }

// The failure function's arguments: (position, pair, element), or (head, position, element) for
// the laws that keep a head in the pair field (law_indices::head).
constexpr bool head_first(law_kind k) noexcept { return k->indices == law_indices::head; }

}  // namespace posenc::laws::failed

namespace posenc::laws {

constexpr bool require(const law_result& r) noexcept {
  if (r.holds || !std::is_constant_evaluated()) return r.holds;
  if (r.kind == nullptr) return failed::without_a_kind(1);
  const entry_index& f = r.first_failure;
  if (failed::head_first(r.kind)) return r.kind->failed(f.pair, f.position, f.element);
  return r.kind->failed(f.position, f.pair, f.element);
}

// The template form's argument: the part of a law_result that a template argument can carry. A
// law_result has double members and a string pointer, which cannot be template arguments (Clang 16
// takes no floating-point class members); these integers and the kind (a pointer to a constexpr
// variable) can. The constructor is implicit so that require<law(t)>() takes the law's result as it is.
struct law_verdict {
  law_kind kind = nullptr;
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

// The failure function and its arguments as template arguments: in the instantiation they are
// constants, so GCC's "in 'constexpr' expansion of" line prints the law's call with their values,
// 'posenc::laws::failed::unit_norm(3, 5, 5)', where require(r)'s call through a pointer prints none.
template <failure_function Law, std::int64_t First, std::int64_t Second, std::int64_t Element>
constexpr bool first_failure() noexcept {
  return Law(First, Second, Element);
}

}  // namespace posenc::laws::failed

namespace posenc::laws {

// The template form: require<law(t)>() is law(t).holds, and a failing law's constant evaluation
// ends in failed::first_failure<law, indices...>(), which both compilers print with the values. The
// law must be a constant expression where require is named (a constexpr variable, a law of
// constexpr tables); inside a constexpr function whose table is a parameter, use require(r).
template <law_verdict V>
constexpr bool require() noexcept {
  if constexpr (V.holds) {
    return true;
  } else if constexpr (V.kind == nullptr) {
    return std::is_constant_evaluated() && failed::without_a_kind(1);
  } else {
    // At run time (a call outside constant evaluation) the failure is the value false, not a read
    // past the end of an array.
    if (!std::is_constant_evaluated()) return false;
    if constexpr (failed::head_first(V.kind))
      return failed::first_failure<V.kind->failed, V.pair, V.position, V.element>();
    else
      return failed::first_failure<V.kind->failed, V.position, V.pair, V.element>();
  }
}

}  // namespace posenc::laws
