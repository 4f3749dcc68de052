/* The C firmware: libmbs.a (built for the firmware's target) linked by arm-none-eabi-gcc with
 * startup.S and a machine linker script, run under QEMU. It prints `key=value` lines through
 * semihosting (parsed by tests/firmware_qemu.rs) and returns the number of failed checks,
 * which startup.S hands to QEMU as its exit status.
 *
 * Modes (semihosting command line, `-semihosting-config ...,arg=MODE`):
 *   none:  run every workload and check it;
 *   count: run one call of each workload's step between mbs_count_begin/mbs_count_end and exit
 *          (instruction counting, scripts/embedded-figures.sh);
 *   selftest-fail:  a check that fails: must exit with 1 (a wrong result reaches QEMU's status);
 *   selftest-fault: read an unmapped address: Fault_Handler must exit with 101. */
#include <stdint.h>
#include <string.h>

#include "checks.h"
#include "fnv.h"
#include "harness.h"
#include "mbs.h"
#include "probe.h"
#include "semihost.h"


/* The smallest calls into libmbs.a: the version and the status strings. */
static void check_status_strings(void) {
    sh_write0("mbs_version=");
    sh_write0(mbs_version());
    sh_write0("\n");
    fw_expect(strcmp(mbs_status_str(MBS_OK), "ok") == 0, "mbs_status_str(MBS_OK)");
    fw_expect(strcmp(mbs_status_str(MBS_ERR_NULL_POINTER), "null pointer argument") == 0,
           "mbs_status_str(MBS_ERR_NULL_POINTER)");
    fw_expect(mbs_status_is_ok(MBS_WARN_STEP_TOO_LARGE) && !mbs_status_is_ok(MBS_ERR_PANIC),
           "mbs_status_is_ok");
}

static void status_str_probe(void *ctx) {
    const char **out = ctx;
    *out = mbs_status_str(MBS_ERR_SOLVER_FAILED);
}

static void print_result(const char *name, uint32_t steps, double value, uint64_t hash, int ok) {
    sh_write0("result name=");
    sh_write0(name);
    sh_write0(" type=f64 steps=");
    sh_put_u32(steps);
    sh_write0(" value_bits=");
    sh_put_f64_bits(value);
    sh_write0(" hash=");
    sh_put_hex64(hash);
    sh_write0(ok ? " ok\n" : " FAIL\n");
}

/* A steel BodyCylinder: r = [0.1, 0, 0] m, diameter 0.1 m, Modelica's density. */
static mbs_cylinder steel_cylinder(void) {
    const double r[3] = {0.1, 0.0, 0.0};
    mbs_cylinder cyl;
    memset(&cyl, 0, sizeof cyl);
    if (mbs_cylinder_default(&cyl, r) != MBS_OK) {
        fw_fail(1);
    }
    cyl.diameter = 0.1;
    cyl.has_diameter = true;
    return cyl;
}

struct cylinder_probe {
    mbs_cylinder cyl;
    mbs_mass_properties out;
    mbs_status status;
};

static struct cylinder_probe cylinder_ctx;

static void cylinder_mass_properties_probe(void *ctx) {
    struct cylinder_probe *p = ctx;
    p->status = mbs_cylinder_mass_properties(&p->cyl, &p->out);
}

/* The C API's cylinder mass properties against the closed form (m = rho pi L R^2, COM at L/2
 * on the axis, I11 = m R^2 / 2, I22 = I33 = m (L^2 + 3 R^2) / 12, off-diagonal 0), and a
 * refused input that must leave the output untouched. Prints the bits of every output
 * (FNV-1a), which tests/firmware_qemu.rs compares with the same call on x86_64. */
static int run_cylinder_mass_properties(void) {
    const double pi = 3.14159265358979323846, rho = 7700.0, len = 0.1, rad = 0.05;
    mbs_cylinder cyl = steel_cylinder();
    mbs_mass_properties mp;
    memset(&mp, 0, sizeof mp);
    int ok = mbs_cylinder_mass_properties(&cyl, &mp) == MBS_OK;
    const double m = rho * pi * len * rad * rad;
    const double i11 = m * rad * rad / 2.0, i22 = m * (len * len + 3.0 * rad * rad) / 12.0;
    const double want[13] = {m, len / 2.0, 0.0, 0.0, i11, 0.0, 0.0, 0.0, i22, 0.0, 0.0, 0.0, i22};
    const double got[13] = {mp.mass, mp.com[0], mp.com[1], mp.com[2],
                            mp.inertia[0], mp.inertia[1], mp.inertia[2],
                            mp.inertia[3], mp.inertia[4], mp.inertia[5],
                            mp.inertia[6], mp.inertia[7], mp.inertia[8]};
    uint64_t h = MBS_FNV_OFFSET;
    for (int i = 0; i < 13; i++) {
        double scale = fw_fabs(want[i]) > 0.0 ? fw_fabs(want[i]) : 1e-3;
        ok = ok && fw_fabs(got[i] - want[i]) <= 1e-14 * scale;
        h = mbs_fnv1a_f64(h, got[i]);
    }
    print_result("cylinder_mass_properties", 1, mp.mass, h, ok);
    /* Refused: inner diameter not below the diameter; the output stays as it was. */
    mbs_mass_properties before = mp;
    cyl.inner_diameter = 0.1;
    mbs_status s = mbs_cylinder_mass_properties(&cyl, &mp);
    fw_expect(s == MBS_ERR_INVALID_INNER_DIAMETER && memcmp(&before, &mp, sizeof mp) == 0,
           "mbs_cylinder_mass_properties refuses inner_diameter >= diameter, output untouched");
    cylinder_ctx.cyl = steel_cylinder();
    return ok ? 0 : 1;
}

/* ---------------------------------------------------------------------------------------
 * The workloads through the C API's step functions. Each `run_*` steps from its initial state,
 * folds every state component after every step into an FNV-1a hash (the same calls made on
 * x86_64 through the ffi crate give the same hash: tests/firmware_qemu.rs), checks the result
 * against its closed form, prints a `result` line and returns 1 on a failed check. Each
 * `step_*` makes one step on a prepared state (for probe_stack_bytes and probe_counted).
 * --------------------------------------------------------------------------------------- */

/* -- mini_masspoint: the mini example of Exudyn's `ObjectMassPoint2D` (f64; the mass-point C API is double only) -- */
struct mini {
    mbs_mass_point_2d body;
    mbs_mass_point_2d_loads loads;
    mbs_simulation_settings settings;
    mbs_point2d_state state;
    double dt;
    mbs_status status;
};

static struct mini mini_ctx;

/* MassPoint2D (mass 1 kg) on a NodePoint2D at [1, 1] m, initial displacement [0.5, 0] m,
 * velocity [0.5, 0] m/s, no load; SolveDynamic's defaults (1 s, 100 steps). */
static int mini_init(struct mini *m) {
    const double reference[2] = {1.0, 1.0}, q0[2] = {0.5, 0.0}, v0[2] = {0.5, 0.0};
    memset(m, 0, sizeof *m);
    int ok = mbs_mass_point_2d_init(&m->body, 1.0, reference) == MBS_OK &&
             mbs_simulation_settings_default(&m->settings) == MBS_OK &&
             mbs_mass_point_2d_init_state(&m->body, &m->loads, &m->settings, q0, v0, &m->state) ==
                 MBS_OK;
    m->dt = (m->settings.end_time - m->settings.start_time) / m->settings.number_of_steps;
    return ok;
}

static void step_mini(void *ctx) {
    struct mini *m = ctx;
    m->status = mbs_mass_point_2d_step(&m->body, &m->loads, &m->settings, &m->state, m->dt, 0);
}

/* Free motion: x(1 s) = 1 + 0.5 + 0.5 * 1 = 2 m, y = 1 m (generalized-alpha is exact for a
 * constant acceleration), stepped and with mbs_mass_point_2d_solve_dynamic. */
static int run_mini_masspoint(void) {
    const double q0[2] = {0.5, 0.0}, v0[2] = {0.5, 0.0}, origin[3] = {0.0, 0.0, 0.0};
    struct mini m;
    double err = 0.0 / 0.0, x = 0.0 / 0.0;
    uint64_t h = MBS_FNV_OFFSET;
    uint32_t k = 0;
    if (mini_init(&m)) {
        for (; k < m.settings.number_of_steps; k++) {
            step_mini(&m);
            if (m.status != MBS_OK) break;
            HASH_POINT2D_STATE(h, m.state);
        }
        double p[3], e[3];
        size_t n = 0;
        mbs_point2d_state end;
        if (k == m.settings.number_of_steps &&
            mbs_mass_point_2d_output(&m.body, &m.state, MBS_OUTPUT_POSITION, origin, p, 3, &n) ==
                MBS_OK &&
            mbs_mass_point_2d_solve_dynamic(&m.body, &m.loads, &m.settings, q0, v0, &end) ==
                MBS_OK &&
            mbs_mass_point_2d_output(&m.body, &end, MBS_OUTPUT_POSITION, origin, e, 3, &n) ==
                MBS_OK) {
            x = p[0];
            err = fw_max(fw_max(fw_fabs(p[0] - 2.0), fw_fabs(p[1] - 1.0)),
                         fw_max(fw_fabs(e[0] - 2.0), fw_fabs(e[1] - 1.0)));
        }
    }
    print_outcome("mini_masspoint", "f64", k, x, h, err, MINI_TOL);
    return err <= MINI_TOL ? 0 : 1;
}

/* -- cylinder_midpoint: a spinning BodyCylinder, the linearly implicit midpoint step, f32 and f64 -- */
/* The steel BodyCylinder of steel_cylinder()  started with w_0_start = [50, 1, 0]
 * rad/s (world = body frame at the start: angles 0), at rest at the origin otherwise. */
static int cylinder_init(mbs_rigid_body *body, mbs_rigid_state *state) {
    mbs_cylinder cyl = steel_cylinder();
    mbs_body_start start;
    if (mbs_body_start_default(&start) != MBS_OK) return 0;
    start.w_0_start[0] = 50.0;
    start.w_0_start[1] = 1.0;
    return mbs_body_cylinder_init(&cyl, &start, body, state) == MBS_OK;
}

/* The same body and state in single precision (every value rounded to float). */
static int cylinder_init_f32(mbs_rigid_body_f32 *body, mbs_rigid_state_f32 *state) {
    mbs_rigid_body b;
    mbs_rigid_state s;
    if (!cylinder_init(&b, &s)) return 0;
    float inertia[9], com[3], pos[3], q[4], v[3], w[3];
    for (int i = 0; i < 9; i++) inertia[i] = (float)b.inertia[i];
    for (int i = 0; i < 3; i++) {
        com[i] = (float)b.center_of_mass[i];
        pos[i] = (float)s.position[i];
        v[i] = (float)s.velocity[i];
        w[i] = (float)s.angular_velocity[i];
    }
    for (int i = 0; i < 4; i++) q[i] = (float)s.orientation[i];
    return mbs_rigid_body_init_f32(body, (float)b.mass, inertia, com) == MBS_OK &&
           mbs_rigid_state_init_f32(state, pos, q, v, w) == MBS_OK;
}

struct cyl64 {
    mbs_rigid_body body;
    mbs_rigid_loads loads;
    mbs_step_settings settings;
    mbs_rigid_state state;
    mbs_status status;
};

struct cyl32 {
    mbs_rigid_body_f32 body;
    mbs_rigid_loads_f32 loads;
    mbs_step_settings_f32 settings;
    mbs_rigid_state_f32 state;
    mbs_status status;
};

static struct cyl64 cyl64_ctx;
static struct cyl32 cyl32_ctx;

static int cyl64_init(struct cyl64 *c) {
    memset(c, 0, sizeof *c); /* loads all zero: torque-free, no gravity */
    return cylinder_init(&c->body, &c->state) && mbs_step_settings_default(&c->settings) == MBS_OK;
}

static int cyl32_init(struct cyl32 *c) {
    memset(c, 0, sizeof *c);
    return cylinder_init_f32(&c->body, &c->state) &&
           mbs_step_settings_default_f32(&c->settings) == MBS_OK;
}

static void step_cyl64(void *ctx) {
    struct cyl64 *c = ctx;
    c->status = mbs_rigid_step(&c->body, &c->loads, &c->settings, &c->state, CYL_DT, 0);
}

static void step_cyl32(void *ctx) {
    struct cyl32 *c = ctx;
    c->status = mbs_rigid_step_f32(&c->body, &c->loads, &c->settings, &c->state, (float)CYL_DT, 0);
}

static int run_cylinder_f64(void) {
    struct cyl64 c;
    double err = 0.0 / 0.0, w1 = 0.0 / 0.0;
    uint64_t h = MBS_FNV_OFFSET;
    uint32_t k = 0;
    if (cyl64_init(&c)) {
        const mbs_rigid_state s0 = c.state;
        for (; k < CYL_STEPS; k++) {
            step_cyl64(&c);
            if (c.status != MBS_OK) break;
            HASH_RIGID_STATE(h, c.state);
        }
        if (k == CYL_STEPS) {
            w1 = c.state.angular_velocity[0];
            err = top_error(c.body.inertia, s0.angular_velocity, c.state.angular_velocity,
                            c.state.orientation, CYL_STEPS * CYL_DT);
        }
    }
    print_outcome("cylinder_midpoint", "f64", k, w1, h, err, CYL_TOL);
    return err <= CYL_TOL ? 0 : 1;
}

static int run_cylinder_f32(void) {
    struct cyl32 c;
    double err = 0.0 / 0.0, w1 = 0.0 / 0.0;
    uint64_t h = MBS_FNV_OFFSET;
    uint32_t k = 0;
    if (cyl32_init(&c)) {
        double inertia[9], w0[3], w[3], q[4];
        for (int i = 0; i < 9; i++) inertia[i] = c.body.inertia[i];
        for (int i = 0; i < 3; i++) w0[i] = c.state.angular_velocity[i];
        for (; k < CYL_STEPS; k++) {
            step_cyl32(&c);
            if (c.status != MBS_OK) break;
            HASH_RIGID_STATE(h, c.state);
        }
        if (k == CYL_STEPS) {
            for (int i = 0; i < 3; i++) w[i] = c.state.angular_velocity[i];
            for (int i = 0; i < 4; i++) q[i] = c.state.orientation[i];
            w1 = w[0];
            err = top_error(inertia, w0, w, q, CYL_STEPS * CYL_DT);
        }
    }
    print_outcome("cylinder_midpoint", "f32", k, w1, h, err, CYL_TOL);
    return err <= CYL_TOL ? 0 : 1;
}

/* Prepares the step probes' states and takes one step on each, so a probed or counted step is
 * the second of its workload (as in the Rust firmware). */
static int prepare_steps(void) {
    int ok = mini_init(&mini_ctx) && cyl64_init(&cyl64_ctx) && cyl32_init(&cyl32_ctx);
    step_mini(&mini_ctx);
    step_cyl64(&cyl64_ctx);
    step_cyl32(&cyl32_ctx);
    cylinder_ctx.cyl = steel_cylinder();
    return ok && mini_ctx.status == MBS_OK && cyl64_ctx.status == MBS_OK &&
           cyl32_ctx.status == MBS_OK;
}

static int steps_still_ok(void) {
    return mini_ctx.status == MBS_OK && cyl64_ctx.status == MBS_OK && cyl32_ctx.status == MBS_OK;
}


static const struct fw_workload WORKLOADS[] = {
    {"mini_masspoint_step", "f64", run_mini_masspoint, step_mini, &mini_ctx},
    {"cylinder_midpoint_step", "f32", run_cylinder_f32, step_cyl32, &cyl32_ctx},
    {"cylinder_midpoint_step", "f64", run_cylinder_f64, step_cyl64, &cyl64_ctx},
    {"cylinder_mass_properties", "f64", run_cylinder_mass_properties,
     cylinder_mass_properties_probe, &cylinder_ctx},
    {"status_str", "-", 0, status_str_probe, 0},
};
#define N_WORKLOADS (sizeof WORKLOADS / sizeof WORKLOADS[0])

int main(void) {
    static const struct fw_program program = {
        "mbs-c-firmware", WORKLOADS, N_WORKLOADS, prepare_steps, steps_still_ok, check_status_strings,
    };
    return fw_main(&program);
}
