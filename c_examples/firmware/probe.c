/* See probe.h. */
#include "probe.h"

extern uint32_t __stack_bottom[];
extern uint32_t __stack_top[];

/* Different bodies, so the linker cannot fold the markers into one address. */
__attribute__((noinline)) void mbs_count_begin(void) { __asm__ volatile("nop"); }
__attribute__((noinline)) void mbs_count_end(void) { __asm__ volatile("nop\n nop"); }

__attribute__((noinline)) size_t probe_stack_bytes(void (*f)(void *), void *ctx) {
    uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    volatile uint32_t *p = __stack_bottom;
    while ((uintptr_t)p < sp) {
        *p++ = MBS_FW_PAINT;
    }
    void (*volatile call)(void *) = f;
    call(ctx);
    p = __stack_bottom;
    while ((uintptr_t)p < sp && *p == MBS_FW_PAINT) {
        p++;
    }
    return (size_t)(sp - (uintptr_t)p);
}

size_t probe_stack_region_bytes(void) {
    return (size_t)((uintptr_t)__stack_top - (uintptr_t)__stack_bottom);
}

size_t probe_stack_bytes_since_reset(void) {
    volatile uint32_t *p = __stack_bottom;
    while (p < __stack_top && *p == MBS_FW_PAINT) {
        p++;
    }
    return (size_t)((uintptr_t)__stack_top - (uintptr_t)p);
}

__attribute__((noinline)) void probe_counted(void (*f)(void *), void *ctx) {
    void (*volatile call)(void *) = f;
    mbs_count_begin();
    call(ctx);
    mbs_count_end();
}

__attribute__((noinline)) void probe_counted_empty(void) {
    mbs_count_begin();
    mbs_count_end();
}
