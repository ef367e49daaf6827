// pch.hpp: what the compile-fail cases include, precompiled once by the Clang build
// (tests/CMakeLists.txt) and given to each case (run.cmake, preconditions/run_case.cmake): each case
// parsed these headers again, about half of its time, for 138 cases.
// A case is about the diagnostic its misuse gets, not about its includes (each header compiling
// alone is tests/header_selfcontained.cmake's check), so including them all first changes nothing
// a case checks. Built and used with the same command-line flags (Clang rejects a precompiled
// header built with others).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <span>

#include <posenc/laws.hpp>
#include <posenc/posenc.hpp>
