// validation.hpp: how every scheme states a broken precondition, and a config validated once.
//
//   posenc::validation               {status, message}: ok() or the first broken precondition, in
//                                    words (the same sentence the compiler prints, see below)
//   posenc::checked<Config, Check>   a Config validated where it is made: in constant evaluation a
//                                    broken precondition is a compile error naming it; at run time
//                                    it is recorded (ok() false, check().message the sentence)
//
// Each scheme supplies Check(const Config&, bool report): it returns the first broken precondition
// and, when report is set (constant evaluation), calls the scheme's own non-constexpr function
// (rope::invalid_rope_config, alibi::invalid_alibi_config, ...) with the sentence, which stops the
// compiler there: the technique of {fmt}'s report_error. The schemes' checked_config types are
// this template (rope/checked_config.hpp, alibi/validate.hpp, ...).
#pragma once

#include <type_traits>

#include "posenc/status.hpp"

namespace posenc {

struct validation {
  posenc::status error = posenc::status::ok;
  const char* message = "ok";
  constexpr bool ok() const noexcept { return error == posenc::status::ok; }
  constexpr explicit operator bool() const noexcept { return ok(); }
};

template <class Config, validation (*Check)(const Config&, bool) noexcept>
class checked {
 public:
  // Not explicit: every config argument of a scheme's generators goes through here.
  constexpr checked(const Config& c) noexcept : config_(c), check_(Check(c, std::is_constant_evaluated())) {}  // NOLINT

  constexpr const Config& get() const noexcept { return config_; }
  constexpr const validation& check() const noexcept { return check_; }
  constexpr bool ok() const noexcept { return check_.ok(); }
  constexpr explicit operator bool() const noexcept { return ok(); }

 private:
  Config config_;
  validation check_;
};

}  // namespace posenc
