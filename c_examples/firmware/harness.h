/* What both C firmwares share around their workloads: the check counter, the modes chosen by
 * the semihosting command line (check, count, selftest-fail, selftest-fault) and the `stack`
 * and `count` reports over a table of workloads that tests/firmware_qemu.rs parses. */
#ifndef MBS_FW_HARNESS_H
#define MBS_FW_HARNESS_H

#include <stddef.h>

#if defined(__ARM_FP)
#define FW_TARGET "thumbv7em-none-eabihf"
#else
#define FW_TARGET "thumbv6m-none-eabi"
#endif

/* One workload: `run` computes and checks it and returns its failures (may be NULL: a probe
 * only); `step` is one step of it on `ctx` (NULL: a scratch pointer), measured for stack and
 * instructions. */
struct fw_workload {
    const char *name;
    const char *type;
    int (*run)(void);
    void (*step)(void *ctx);
    void *ctx;
};

/* A firmware: its banner, its workloads, and how the step probes' states are prepared and
 * checked afterwards (1 = ok). `checks` runs first in check mode (may be NULL). */
struct fw_program {
    const char *banner;
    const struct fw_workload *workloads;
    size_t n_workloads;
    int (*prepare_steps)(void);
    int (*steps_ok)(void);
    void (*checks)(void);
};

/* Prints `check ok|FAIL what` and counts a failure. */
void fw_expect(int ok, const char *what);
/* Counts `n` failures found elsewhere. */
void fw_fail(int n);
/* The firmware's main: runs the mode the command line names; returns the number of failures
 * (the exit status). */
int fw_main(const struct fw_program *p);

#endif
