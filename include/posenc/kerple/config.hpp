// config.hpp: one head of KERPLE (Chi, Fan, Ramadge, Rudnicky, NeurIPS 2022; chijames/KERPLE
// ParallelKerpleLog / ParallelKerplePower) as a plain aggregate: its two learned parameters, the
// exact binary doubles given (KERPLE initialises p, a from U(0, 2), U(0, 1) and clamps them at 0.01).
//
//   constexpr posenc::kerple::log_config head{.p = 1.5, .a = 0.5};      // -p log(1 + a k)
//   constexpr posenc::kerple::power_config head2{.a = 0.5, .p = 1.25};  // -a k^p
#pragma once

namespace posenc::kerple {

struct log_config {  // KERPLE-log: -p log(1 + a k)
  double p = 0.0;
  double a = 0.0;
};

struct power_config {  // KERPLE-power: -a k^p
  double a = 0.0;
  double p = 0.0;
};

}  // namespace posenc::kerple
