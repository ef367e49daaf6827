// The one translation unit that holds Catch2's main, so that test files compile faster.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
