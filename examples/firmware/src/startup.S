/* startup.S: vector table and reset handler for both boards (Cortex-M0 and Cortex-M4F). Written in
   the Thumb instructions that ARMv6-M has, so that one file assembles for both cores.
   The core loads the stack pointer and the reset address from the table at address 0 (ARMv6-M ARM
   B1.5.3, ARMv7-M ARM B1.5.3). The reset handler:
     1. turns the FPU on when the build uses it (__ARM_FP: the Cortex-M4F build; CPACR CP10/CP11 =
        full access, ARMv7-M ARM B3.2.20): the FPU is off at reset and hard-float code may use it;
     2. copies .data from flash to RAM and clears .bss (symbols from sections.ld);
     3. opens newlib's semihosting handles (rdimon: stdout for write());
     4. runs the constructors of .init_array (posenc adds none; a check of the tests);
     5. calls main and passes its status to exit(), which rdimon turns into semihosting SYS_EXIT
        (QEMU exits with that status).
   Any fault ends the run through semihosting SYS_EXIT with ADP_Stopped_RunTimeErrorUnknown (QEMU
   exits with status 1) instead of hanging. On a real board, replace that with your fault handler. */
  .syntax unified
  .thumb

  .section .vectors, "a", %progbits
  .align 2
  .global firmware_vectors
firmware_vectors:
  .word __stack_top          /* initial SP */
  .word firmware_reset       /* reset */
  .word firmware_fault       /* NMI */
  .word firmware_fault       /* HardFault */
  .word firmware_fault       /* MemManage (ARMv7-M; reserved on ARMv6-M) */
  .word firmware_fault       /* BusFault (ARMv7-M) */
  .word firmware_fault       /* UsageFault (ARMv7-M) */
  .word 0, 0, 0, 0           /* reserved */
  .word firmware_fault       /* SVCall */
  .word firmware_fault       /* DebugMonitor (ARMv7-M) */
  .word 0                    /* reserved */
  .word firmware_fault       /* PendSV */
  .word firmware_fault       /* SysTick */

  .text
  .thumb_func
  .global firmware_reset
  .type firmware_reset, %function
firmware_reset:
#if defined(__ARM_FP)
  ldr r0, =0xE000ED88        /* CPACR */
  ldr r1, [r0]
  ldr r2, =(0xF << 20)
  orrs r1, r2
  str r1, [r0]
  dsb
  isb
#endif
  ldr r0, =__data_start      /* .data: flash (__data_load) to RAM, a word at a time */
  ldr r1, =__data_end
  ldr r2, =__data_load
1:
  cmp r0, r1
  bhs 2f
  ldr r3, [r2]
  str r3, [r0]
  adds r0, #4
  adds r2, #4
  b 1b
2:
  ldr r0, =__bss_start__     /* .bss: zero */
  ldr r1, =__bss_end__
  movs r3, #0
3:
  cmp r0, r1
  bhs 4f
  str r3, [r0]
  adds r0, #4
  b 3b
4:
  bl initialise_monitor_handles
  ldr r4, =__init_array_start
  ldr r5, =__init_array_end
5:
  cmp r4, r5
  bhs 6f
  ldr r0, [r4]
  blx r0
  adds r4, #4
  b 5b
6:
  bl main
  bl exit
7:
  b 7b
  .size firmware_reset, . - firmware_reset

  .thumb_func
  .global firmware_fault
  .type firmware_fault, %function
firmware_fault:
  movs r0, #0x18             /* SYS_EXIT */
  ldr r1, =0x20023           /* ADP_Stopped_RunTimeErrorUnknown */
  bkpt 0xAB
8:
  b 8b
  .size firmware_fault, . - firmware_fault
  .pool
