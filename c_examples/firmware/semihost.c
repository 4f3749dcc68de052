/* ARM semihosting calls (BKPT 0xAB on M-profile). See semihost.h. */
#include "semihost.h"

#include <string.h>

enum {
    SYS_WRITE0 = 0x04,
    SYS_GET_CMDLINE = 0x15,
    SYS_EXIT_EXTENDED = 0x20,
    ADP_STOPPED_APPLICATION_EXIT = 0x20026
};

static uintptr_t sh_call(uintptr_t op, const void *arg) {
    register uintptr_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void sh_write0(const char *s) { sh_call(SYS_WRITE0, s); }

void sh_put_u32(uint32_t v) {
    char buf[11];
    char *p = buf + sizeof buf - 1;
    *p = '\0';
    do {
        *--p = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    sh_write0(p);
}

void sh_put_hex64(uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    char buf[19];
    buf[0] = '0';
    buf[1] = 'x';
    for (int i = 0; i < 16; i++) {
        buf[2 + i] = digits[(v >> (60 - 4 * i)) & 0xfu];
    }
    buf[18] = '\0';
    sh_write0(buf);
}

void sh_put_f64_bits(double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    sh_put_hex64(bits);
}

void sh_cmdline(char *buf, size_t len) {
    if (len == 0) {
        return;
    }
    uintptr_t block[2] = {(uintptr_t)buf, len};
    if (sh_call(SYS_GET_CMDLINE, block) != 0 || block[1] >= len) {
        buf[0] = '\0';
        return;
    }
    buf[block[1]] = '\0';
}

void sh_exit(int code) {
    uintptr_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uintptr_t)code};
    sh_call(SYS_EXIT_EXTENDED, block);
    for (;;) {
    }
}
