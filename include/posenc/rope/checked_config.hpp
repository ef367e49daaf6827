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
#include "posenc/validation.hpp"

namespace posenc::rope {

using checked_config = posenc::checked<config, &rope::detail::validate_config>;

}  // namespace posenc::rope
