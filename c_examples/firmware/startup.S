/* Startup of the C firmware for QEMU's Cortex-M machines (mps2-an386: Cortex-M4F; microbit:
 * Cortex-M0). One file for both: only Thumb-1 instructions, and the FPU code only when the
 * compiler targets one (__ARM_FP).
 *
 * Reset_Handler, in this order:
 *   1. enables the FPU (CPACR: cp10 and cp11 full access) before any floating-point code,
 *   2. copies .data from its load address in flash to RAM,
 *   3. zeroes .bss,
 *   4. paints the stack below the current SP with 0xCCCCCCCC (for the high-water mark),
 *   5. calls main() and passes its return value to the semihosting exit (QEMU's exit status).
 * Every fault exits QEMU with status 101 instead of hanging it. */
    .syntax unified
    .thumb

    .section .vectors, "a", %progbits
    .align 2
    .global __vectors
__vectors:
    .word __stack_top           /* initial SP */
    .word Reset_Handler         /* reset */
    .word Fault_Handler         /* NMI */
    .word Fault_Handler         /* HardFault */
    .word Fault_Handler         /* MemManage (M3+) */
    .word Fault_Handler         /* BusFault (M3+) */
    .word Fault_Handler         /* UsageFault (M3+) */
    .word 0, 0, 0, 0            /* reserved */
    .word Fault_Handler         /* SVCall */
    .word Fault_Handler         /* DebugMonitor (M3+) */
    .word 0                     /* reserved */
    .word Fault_Handler         /* PendSV */
    .word Fault_Handler         /* SysTick */
    .rept 32
    .word Fault_Handler         /* external interrupts 0..31 (none are enabled) */
    .endr

    .text
    .align 1
    .global Reset_Handler
    .type Reset_Handler, %function
    .thumb_func
Reset_Handler:
#if defined(__ARM_FP)
    /* 1. CPACR (0xE000ED88) |= 0xF << 20: cp10 and cp11 full access. */
    ldr  r0, =0xE000ED88
    ldr  r1, [r0]
    ldr  r2, =(0xF << 20)
    orrs r1, r1, r2
    str  r1, [r0]
    dsb
    isb
#endif
    /* 2. .data: copy [__data_start, __data_end) from __data_load. */
    ldr  r0, =__data_start
    ldr  r1, =__data_end
    ldr  r2, =__data_load
1:  cmp  r0, r1
    bhs  2f
    ldmia r2!, {r3}
    stmia r0!, {r3}
    b    1b
2:  /* 3. .bss: zero [__bss_start, __bss_end). */
    ldr  r0, =__bss_start
    ldr  r1, =__bss_end
    movs r3, #0
3:  cmp  r0, r1
    bhs  4f
    stmia r0!, {r3}
    b    3b
4:  /* 4. paint [__stack_bottom, sp). */
    ldr  r0, =__stack_bottom
    mov  r1, sp
    ldr  r3, =0xCCCCCCCC
5:  cmp  r0, r1
    bhs  6f
    stmia r0!, {r3}
    b    5b
6:  /* 5. exit(main()). */
    bl   main
    bl   sh_exit
7:  b    7b
    .size Reset_Handler, . - Reset_Handler

    .align 1
    .global Fault_Handler
    .weak Fault_Handler
    .type Fault_Handler, %function
    .thumb_func
Fault_Handler:
    movs r0, #101
    bl   sh_exit
8:  b    8b
    .size Fault_Handler, . - Fault_Handler
