/* Vector table and reset handler for tests/cross/qemu_m4.cpp on QEMU's mps2-an386 (Cortex-M4F).
   The core loads SP and PC from the table at address 0 (ARMv7-M ARM, B1.5.5). The reset handler
   turns the FPU on (CPACR.CP10/CP11 = full access, ARMv7-M ARM B3.2.20): the program is built with
   -mfloat-abi=hard, so newlib's start-up code may already use VFP registers, and the FPU is off at
   reset. It then jumps to newlib's _start (rdimon-crt0: semihosting heap info, .bss cleared,
   constructors, main, exit through semihosting). Any fault ends the run through semihosting
   SYS_EXIT with a failure code instead of hanging until the timeout. */
  .syntax unified
  .cpu cortex-m4
  .thumb

  .section .vectors, "a", %progbits
  .global posenc_qemu_vectors
posenc_qemu_vectors:
  .word __stack_top          /* initial SP */
  .word posenc_qemu_reset    /* reset */
  .word posenc_qemu_fault    /* NMI */
  .word posenc_qemu_fault    /* HardFault */
  .word posenc_qemu_fault    /* MemManage */
  .word posenc_qemu_fault    /* BusFault */
  .word posenc_qemu_fault    /* UsageFault */
  .word 0, 0, 0, 0           /* reserved */
  .word posenc_qemu_fault    /* SVCall */
  .word posenc_qemu_fault    /* DebugMonitor */
  .word 0                    /* reserved */
  .word posenc_qemu_fault    /* PendSV */
  .word posenc_qemu_fault    /* SysTick */

  .text
  .thumb_func
  .global posenc_qemu_reset
posenc_qemu_reset:
  ldr r0, =0xE000ED88        /* CPACR */
  ldr r1, [r0]
  orr r1, r1, #(0xF << 20)
  str r1, [r0]
  dsb
  isb
  b _start

  .thumb_func
  .global posenc_qemu_fault
posenc_qemu_fault:
  /* SYS_EXIT (0x18) with ADP_Stopped_RunTimeErrorUnknown (0x20023): QEMU exits with status 1. */
  movs r0, #0x18
  ldr r1, =0x20023
  bkpt 0xAB
1:
  b 1b
  .pool
