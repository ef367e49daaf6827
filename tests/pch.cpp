// The translation unit that builds the tests' precompiled header (tests/CMakeLists.txt): Catch2 and
// Boost.Multiprecision's MPFR backend, which most test files include and which are most of their
// compile time. The header list is in CMakeLists.txt; this file only gives CMake a source to build.
