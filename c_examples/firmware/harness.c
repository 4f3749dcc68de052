/* See harness.h. */
#include "harness.h"

#include <stdint.h>
#include <string.h>

#include "probe.h"
#include "semihost.h"

static int failures;

void fw_expect(int ok, const char *what) {
    sh_write0(ok ? "check ok " : "check FAIL ");
    sh_write0(what);
    sh_write0("\n");
    if (!ok) {
        failures++;
    }
}

void fw_fail(int n) { failures += n; }

static void *ctx_of(const struct fw_workload *w, const char **scratch) {
    return w->ctx ? w->ctx : (void *)scratch;
}

/* `count`: the order of the probes, then each step between the count markers. */
static int count_mode(const struct fw_program *p) {
    sh_write0("count order=empty");
    for (size_t i = 0; i < p->n_workloads; i++) {
        sh_write0(",");
        sh_write0(p->workloads[i].name);
        sh_write0("/");
        sh_write0(p->workloads[i].type);
    }
    sh_write0("\n");
    const char *scratch = 0;
    int ok = p->prepare_steps();
    probe_counted_empty();
    for (size_t i = 0; i < p->n_workloads; i++) {
        probe_counted(p->workloads[i].step, ctx_of(&p->workloads[i], &scratch));
    }
    return ok && p->steps_ok() ? 0 : 1;
}

/* `check`: every workload's checks, then the stack of each step. */
static int check_mode(const struct fw_program *p) {
    sh_write0(p->banner);
    sh_write0(" target=" FW_TARGET " mode=check\n");
    if (p->checks) {
        p->checks();
    }
    for (size_t i = 0; i < p->n_workloads; i++) {
        if (p->workloads[i].run) {
            failures += p->workloads[i].run();
        }
    }
    sh_write0("stack what=since_reset bytes=");
    sh_put_u32((uint32_t)probe_stack_bytes_since_reset());
    sh_write0(" region=");
    sh_put_u32((uint32_t)probe_stack_region_bytes());
    sh_write0("\n");
    fw_expect(p->prepare_steps(), "the step probes' states prepared");
    for (size_t i = 0; i < p->n_workloads; i++) {
        const char *scratch = 0;
        size_t bytes = probe_stack_bytes(p->workloads[i].step, ctx_of(&p->workloads[i], &scratch));
        sh_write0("stack what=");
        sh_write0(p->workloads[i].name);
        sh_write0(" type=");
        sh_write0(p->workloads[i].type);
        sh_write0(" bytes=");
        sh_put_u32((uint32_t)bytes);
        sh_write0("\n");
    }
    fw_expect(p->steps_ok(), "the probed steps succeeded");
    sh_write0("done failures=");
    sh_put_u32((uint32_t)failures);
    sh_write0("\n");
    return failures;
}

int fw_main(const struct fw_program *p) {
    char mode[32];
    sh_cmdline(mode, sizeof mode);
    if (strcmp(mode, "count") == 0) {
        return count_mode(p);
    }
    if (strcmp(mode, "selftest-fail") == 0) {
        fw_expect(0, "selftest-fail (must fail)");
        return failures;
    }
    if (strcmp(mode, "selftest-fault") == 0) {
        volatile uint32_t *unmapped = (volatile uint32_t *)0xF0000000u;
        sh_write0("no fault: read ");
        sh_put_u32(*unmapped);
        sh_write0("\n");
        return 0;
    }
    return check_mode(p);
}
