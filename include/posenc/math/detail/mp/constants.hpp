// constants.hpp: pi/2, ln 2 and 2/pi as 64-bit limbs, most significant first.
//
// Generated with MPFR 4.2.0 at 4000 bits (round to nearest), then truncated: each table is
// floor(c * 2^(64 n - t)) written as n limbs, where t is the number of integer bits (1 for pi/2,
// 0 for ln 2 and 2/pi). To regenerate: a 30-line C program that calls mpfr_const_pi /
// mpfr_const_log2 at 4000 bits, mpfr_mul_2si by 64 n - t, mpfr_get_z with MPFR_RNDD and prints
// the limbs of the integer with mpz_fdiv_q_2exp / mpz_fdiv_r_2exp. Known prefixes to check
// against: pi/2 = 0x1.921fb54442d18469898cc51701b8...; 2/pi = 0x0.a2f9836e4e441529fc2757d1f534dd...
// (fdlibm's e_rem_pio2.c table "ipio2" in 24-bit pieces: A2F983 6E4E44 1529FC 2757D1 F534DD ...).
//
// Sizes: pi/2 and ln 2 carry 20 limbs (the largest precision level is 16 limbs). 2/pi carries
// 48 limbs (3072 bits): Payne-Hanek reduction (payne_hanek.hpp) of a double (exponent of the last
// bit <= 971) at 16 limbs reads limbs 15..35, of m * theta (m < 2^64) limbs 0..36.
#pragma once

#include <cstdint>

namespace posenc::detail::mp {

// The limbs four to a line, as generated.
// clang-format off
inline constexpr int pio2_limbs = 20;
inline constexpr std::uint64_t pio2_table[pio2_limbs] = {
    // pi/2 in [1, 2): 1 integer bit
    0xc90fdaa22168c234u, 0xc4c6628b80dc1cd1u, 0x29024e088a67cc74u, 0x020bbea63b139b22u, 0x514a08798e3404ddu,
    0xef9519b3cd3a431bu, 0x302b0a6df25f1437u, 0x4fe1356d6d51c245u, 0xe485b576625e7ec6u, 0xf44c42e9a637ed6bu,
    0x0bff5cb6f406b7edu, 0xee386bfb5a899fa5u, 0xae9f24117c4b1fe6u, 0x49286651ece45b3du, 0xc2007cb8a163bf05u,
    0x98da48361c55d39au, 0x69163fa8fd24cf5fu, 0x83655d23dca3ad96u, 0x1c62f356208552bbu, 0x9ed529077096966du,
};

inline constexpr int ln2_limbs = 20;
inline constexpr std::uint64_t ln2_table[ln2_limbs] = {
    // ln 2 in [1/2, 1): 0 integer bits
    0xb17217f7d1cf79abu, 0xc9e3b39803f2f6afu, 0x40f343267298b62du, 0x8a0d175b8baafa2bu, 0xe7b876206debac98u,
    0x559552fb4afa1b10u, 0xed2eae35c1382144u, 0x27573b291169b825u, 0x3e96ca16224ae8c5u, 0x1acbda11317c387eu,
    0xb9ea9bc3b136603bu, 0x256fa0ec7657f74bu, 0x72ce87b19d6548cau, 0xf5dfa6bd38303248u, 0x655fa1872f20e3a2u,
    0xda2d97c50f3fd5c6u, 0x07f4ca11fb5bfb90u, 0x610d30f88fe551a2u, 0xee569d6dfc1efa15u, 0x7d2e23de1400b396u,
};

inline constexpr int two_over_pi_limbs = 48;
// 2/pi in [1/2, 1): limb k holds the bits of weight 2^-(64k+1) .. 2^-(64k+64).
inline constexpr std::uint64_t two_over_pi_table[two_over_pi_limbs] = {
    0xa2f9836e4e441529u, 0xfc2757d1f534ddc0u, 0xdb6295993c439041u, 0xfe5163abdebbc561u, 0xb7246e3a424dd2e0u,
    0x06492eea09d1921cu, 0xfe1deb1cb129a73eu, 0xe88235f52ebb4484u, 0xe99c7026b45f7e41u, 0x3991d639835339f4u,
    0x9c845f8bbdf9283bu, 0x1ff897ffde05980fu, 0xef2f118b5a0a6d1fu, 0x6d367ecf27cb09b7u, 0x4f463f669e5fea2du,
    0x7527bac7ebe5f17bu, 0x3d0739f78a5292eau, 0x6bfb5fb11f8d5d08u, 0x56033046fc7b6babu, 0xf0cfbc209af4361du,
    0xa9e391615ee61b08u, 0x6599855f14a06840u, 0x8dffd8804d732731u, 0x06061556ca73a8c9u, 0x60e27bc08c6b47c4u,
    0x19c367cddce8092au, 0x8359c4768b961ca6u, 0xddaf44d15719053eu, 0xa5ff07053f7e33e8u, 0x32c2de4f98327dbbu,
    0xc33d26ef6b1e5ef8u, 0x9f3a1f35caf27f1du, 0x87f121907c7c246au, 0xfa6ed5772d30433bu, 0x15c614b59d19c3c2u,
    0xc4ad414d2c5d000cu, 0x467d862d71e39ac6u, 0x9b0062337cd2b497u, 0xa7b4d55537f63ed7u, 0x1810a3fc764d2a9du,
    0x64abd770f87c6357u, 0xb07ae715175649c0u, 0xd9d63b3884a7cb23u, 0x24778ad623545ab9u, 0x1f001b0af1dfce19u,
    0xff319f6a1e666157u, 0x9947fbacd87f7eb7u, 0x652289e83260bfe6u,
};
// clang-format on

}  // namespace posenc::detail::mp
