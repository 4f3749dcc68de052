/* ARM semihosting for the C firmware under QEMU (-semihosting-config enable=on,target=native):
 * text output (SYS_WRITE0, to QEMU's stderr), the command line (SYS_GET_CMDLINE, from
 * `arg=WORD`) and an exit with any status (SYS_EXIT_EXTENDED: QEMU exits with it). */
#ifndef MBS_FW_SEMIHOST_H
#define MBS_FW_SEMIHOST_H

#include <stddef.h>
#include <stdint.h>

/* Writes a NUL-terminated string. */
void sh_write0(const char *s);
/* Writes `v` in decimal. */
void sh_put_u32(uint32_t v);
/* Writes `v` as 0x followed by 16 hex digits. */
void sh_put_hex64(uint64_t v);
/* Writes the bit pattern of `x` as 0x + 16 hex digits (exact, comparable with the host). */
void sh_put_f64_bits(double x);
/* Copies the semihosting command line into buf (NUL-terminated); "" if there is none. */
void sh_cmdline(char *buf, size_t len);
/* Ends the emulation; QEMU's exit status is `code`. */
void sh_exit(int code) __attribute__((noreturn));

#endif
