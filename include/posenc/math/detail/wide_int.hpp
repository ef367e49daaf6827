// wide_int.hpp: portable 64x64 -> 128-bit integer helpers for the multiprecision path.
//
// Why: 32-bit ARM has no unsigned __int128, and the library must be constexpr everywhere. The
// portable product is the schoolbook method on 32-bit halves (Knuth, TAOCP vol. 2, 4.3.1,
// Algorithm M). Where the compiler offers unsigned __int128 (x86-64, AArch64) it is used for
// speed, inside __extension__ so that -Wpedantic stays quiet; both branches return the same bits
// (tests/test_mp.cpp compares mul_64x64 with mul_64x64_portable). Define POSENC_NO_INT128 to
// force the portable branch.
#pragma once

#include <cstdint>

namespace posenc::detail {

struct u128 {
  std::uint64_t hi;
  std::uint64_t lo;
};

#if defined(__SIZEOF_INT128__) && !defined(POSENC_NO_INT128)
#define POSENC_DETAIL_HAS_INT128 1
__extension__ typedef unsigned __int128 native_u128;
#endif

// a * b exactly, from four 32x32 -> 64 partial products (Algorithm M with base 2^32).
constexpr u128 mul_64x64_portable(std::uint64_t a, std::uint64_t b) noexcept {
  const std::uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
  const std::uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
  const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  // middle column: (p00 >> 32) + low halves of p01 and p10 is below 3 * 2^32, no overflow.
  const std::uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  return {p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (p00 & 0xFFFFFFFFu)};
}

constexpr u128 mul_64x64(std::uint64_t a, std::uint64_t b) noexcept {
#ifdef POSENC_DETAIL_HAS_INT128
  const native_u128 p = static_cast<native_u128>(a) * b;
  return {static_cast<std::uint64_t>(p >> 64), static_cast<std::uint64_t>(p)};
#else
  return mul_64x64_portable(a, b);
#endif
}

// a * b + c + d exactly: (2^64 - 1)^2 + 2 (2^64 - 1) = 2^128 - 1 never overflows 128 bits. The
// inner step of every schoolbook multiplication below.
constexpr u128 mul_add2(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) noexcept {
#ifdef POSENC_DETAIL_HAS_INT128
  const native_u128 p = static_cast<native_u128>(a) * b + c + d;
  return {static_cast<std::uint64_t>(p >> 64), static_cast<std::uint64_t>(p)};
#else
  u128 p = mul_64x64_portable(a, b);
  p.lo += c;
  p.hi += p.lo < c ? 1u : 0u;
  p.lo += d;
  p.hi += p.lo < d ? 1u : 0u;
  return p;
#endif
}

// a + b + carry_in (carry_in in {0, 1}); carry_out set to the carry (0 or 1).
constexpr std::uint64_t add_carry(std::uint64_t a, std::uint64_t b, std::uint64_t carry_in,
                                  std::uint64_t& carry_out) noexcept {
  const std::uint64_t s = a + b;
  const std::uint64_t r = s + carry_in;
  carry_out = (s < a ? 1u : 0u) + (r < s ? 1u : 0u);
  return r;
}

// a - b - borrow_in (borrow_in in {0, 1}); borrow_out set to the borrow (0 or 1).
constexpr std::uint64_t sub_borrow(std::uint64_t a, std::uint64_t b, std::uint64_t borrow_in,
                                   std::uint64_t& borrow_out) noexcept {
  const std::uint64_t d = a - b;
  const std::uint64_t r = d - borrow_in;
  borrow_out = (a < b ? 1u : 0u) + (d < borrow_in ? 1u : 0u);
  return r;
}

constexpr u128 add(u128 a, u128 b) noexcept {
  const std::uint64_t lo = a.lo + b.lo;
  return {a.hi + b.hi + (lo < a.lo ? 1u : 0u), lo};
}

constexpr u128 sub(u128 a, u128 b) noexcept { return {a.hi - b.hi - (a.lo < b.lo ? 1u : 0u), a.lo - b.lo}; }

// Logical shifts by 0 <= n < 128.
constexpr u128 shl(u128 a, int n) noexcept {
  if (n == 0) return a;
  if (n >= 64) return {a.lo << (n - 64), 0};
  return {(a.hi << n) | (a.lo >> (64 - n)), a.lo << n};
}

constexpr u128 shr(u128 a, int n) noexcept {
  if (n == 0) return a;
  if (n >= 64) return {0, a.hi >> (n - 64)};
  return {a.hi >> n, (a.lo >> n) | (a.hi << (64 - n))};
}

}  // namespace posenc::detail
