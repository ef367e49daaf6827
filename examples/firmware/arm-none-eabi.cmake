# arm-none-eabi.cmake: a bare-metal Arm toolchain (the GNU Arm Embedded toolchain, arm-none-eabi-gcc
# 12; Debian's gcc-arm-none-eabi and libnewlib-arm-none-eabi) for this project:
#   cmake -S . -B build --toolchain arm-none-eabi.cmake
# The CPU flags (-mcpu, -mfloat-abi, -mfpu) are each board's, set per target by CMakeLists.txt, so
# one build tree holds the images of both boards; everything else is here.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# The compiler checks build a static library: linking a test program would need a board's
# linker script and start-up code.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# Size first; no exceptions and no RTTI (posenc needs neither); each function and object in its own
# section, so that --gc-sections drops whatever is not used.
set(CMAKE_CXX_FLAGS_INIT "-Os -fno-exceptions -fno-rtti -ffunction-sections -fdata-sections")
set(CMAKE_C_FLAGS_INIT "-Os -ffunction-sections -fdata-sections")
# newlib-nano, semihosting (rdimon: write() and exit() reach the debugger or QEMU); the start-up code
# is the project's own (src/startup.S), so not newlib's crt0 (-nostartfiles).
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nano.specs --specs=rdimon.specs -nostartfiles -Wl,--gc-sections")

# The target's headers, libraries and packages from its root, programs from the build machine.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
