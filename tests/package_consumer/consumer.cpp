// Built against an installed posenc found by find_package(posenc CONFIG).
#include <posenc/posenc.hpp>

#include <cstdio>
#include <cstring>

// exp(0) == 1 and sqrt(4) == 2 exactly for any correctly rounded implementation.
static_assert(posenc::math::exp(0.0) == 1.0, "exp(0) is exactly 1");
static_assert(posenc::math::sqrt(4.0) == 2.0, "sqrt(4) is exactly 2");

int main() {
  if (std::strcmp(posenc::version_string, POSENC_VERSION_STRING) != 0) return 1;
  std::printf("posenc %s found and usable\n", posenc::version_string);
  return 0;
}
