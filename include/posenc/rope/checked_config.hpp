// checked_config.hpp: a RoPE config validated once, where it is made.
//
//   constexpr posenc::rope::checked_config cfg{{.head_dim = 128, .rope_theta = 500000.0}};
//   posenc::rope::checked_config run_time{parsed};        // at run time: test run_time.ok()
//
// The frequency, angle and table functions take a checked_config; a plain config converts to one
// implicitly (validated there, once per call), and a caller that builds many values from one config
// makes the checked_config once and passes it, so nothing re-validates.
// In constant evaluation a broken precondition is a compile error that names it (validate.hpp's
// report mode: the compiler prints the precondition's sentence beside
// posenc::rope::invalid_rope_config). At run time the object records it: ok() is false, check()
// holds the same sentence, and every function given it returns status::domain_error.
#pragma once

#include "posenc/rope/config.hpp"
#include "posenc/rope/validate.hpp"

namespace posenc::rope {

class checked_config {
 public:
  // Not explicit: every config argument of the generators goes through here.
  constexpr checked_config(const config& c) noexcept : config_(c), check_(require_valid(c)) {}  // NOLINT

  constexpr const config& get() const noexcept { return config_; }
  constexpr const validation& check() const noexcept { return check_; }
  constexpr bool ok() const noexcept { return check_.ok(); }
  constexpr explicit operator bool() const noexcept { return ok(); }

 private:
  config config_;
  validation check_;
};

}  // namespace posenc::rope
