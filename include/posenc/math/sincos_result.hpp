// sincos_result.hpp: the pair returned by every sin-and-cos-at-once entry point.
#pragma once

namespace posenc::math {

template <class T>
struct sincos_result {
  T sin{};
  T cos{};
};

}  // namespace posenc::math
