/* The lean C firmware: what a control loop on a microcontroller links from libmbs.a, and
 * nothing else. main.c exercises the whole C API (its conformance test on the target); this
 * firmware does the product's job the way a firmware would and is the one the flash
 * budget is measured on (16 KiB of mbs code):
 *
 *   - a rigid body stepped in float through the midpoint-only entry point
 *     (mbs_rigid_midpoint_step_f32: no run-time integrator choice, so the other integrators
 *     are not linked), its body made from mass properties given as numbers
 *     (mbs_rigid_body_init_f32: no double builders): the spinning steel BodyCylinder
 *     (r = [0.1, 0, 0] m, diameter 0.1 m) with w = [50, 1, 0] rad/s, 1000 steps of 1 ms,
 *     checked against the symmetric top's closed form as main.c checks it;
 *   - the mini example of Exudyn's `ObjectMassPoint2D` through the mass point's float C API
 *     (mbs_mass_point_2d_*_f32): 100 generalized-alpha steps, final x = 2 m, y = 1 m to
 *     MINI_TOL_F32.
 *
 * Output and modes as main.c (`result` and `stack` lines; none, count, selftest-fail,
 * selftest-fault); the exit status is the number of failed checks. */
#include <stdint.h>
#include <string.h>

#include "checks.h"
#include "fnv.h"
#include "harness.h"
#include "mbs.h"
#include "probe.h"
#include "semihost.h"


/* -- the spinning cylinder in float ------------------------------------------------------
 * Mass properties of the steel cylinder (rho = 7700 kg/m^3, length 0.1 m, radius 0.05 m),
 * about its COM in frame_a, rounded to float: m = rho pi L R^2, I11 = m R^2/2,
 * I22 = I33 = m (L^2 + 3 R^2)/12, COM at L/2 on the axis. These are the values
 * mbs_body_cylinder_init gives in double, rounded (main.c's float body, bit for bit). */
static const float CYL_MASS = 6.047566f;                            /* kg */
static const float CYL_INERTIA[9] = {7.5594573e-3f, 0, 0, 0, 8.819367e-3f, 0,
                                     0, 0, 8.819367e-3f};           /* kg m^2 */
static const float CYL_COM[3] = {0.05f, 0, 0};                      /* m, body frame */
static const float CYL_W0[3] = {50, 1, 0};                          /* rad/s, body frame */

struct cyl {
    mbs_rigid_body_f32 body;
    mbs_rigid_loads_f32 loads;
    mbs_step_settings_f32 settings;
    mbs_rigid_state_f32 state;
    mbs_status status;
};

static struct cyl cyl_ctx;

/* At rest at the origin, identity orientation, turning at CYL_W0; no load. */
static int cyl_init(struct cyl *c) {
    const float zero[3] = {0, 0, 0}, identity[4] = {1, 0, 0, 0};
    memset(c, 0, sizeof *c);
    return mbs_rigid_body_init_f32(&c->body, CYL_MASS, CYL_INERTIA, CYL_COM) == MBS_OK &&
           mbs_rigid_state_init_f32(&c->state, zero, identity, zero, CYL_W0) == MBS_OK &&
           mbs_step_settings_default_f32(&c->settings) == MBS_OK;
}

static void step_cyl(void *ctx) {
    struct cyl *c = ctx;
    c->status = mbs_rigid_midpoint_step_f32(&c->body, &c->loads, &c->settings, &c->state,
                                            (float)CYL_DT, 0);
}

static int run_cylinder(void) {
    struct cyl c;
    double err = 0.0 / 0.0, w1 = 0.0 / 0.0;
    uint64_t h = MBS_FNV_OFFSET;
    uint32_t k = 0;
    if (cyl_init(&c)) {
        for (; k < CYL_STEPS; k++) {
            step_cyl(&c);
            if (c.status != MBS_OK) break;
            HASH_RIGID_STATE(h, c.state);
        }
        if (k == CYL_STEPS) {
            double inertia[9], w0[3], w[3], q[4];
            for (int i = 0; i < 9; i++) inertia[i] = c.body.inertia[i];
            for (int i = 0; i < 3; i++) {
                w0[i] = CYL_W0[i];
                w[i] = c.state.angular_velocity[i];
            }
            for (int i = 0; i < 4; i++) q[i] = c.state.orientation[i];
            w1 = w[0];
            err = top_error(inertia, w0, w, q, CYL_STEPS * CYL_DT);
        }
    }
    print_outcome("cylinder_midpoint", "f32", k, w1, h, err, CYL_TOL);
    return err <= CYL_TOL ? 0 : 1;
}

/* -- the mini example of Exudyn's `ObjectMassPoint2D` in float ----------------------------------------------------
 * MassPoint2D (1 kg) on a NodePoint2D at [1, 1] m, displaced by [0.5, 0] m, moving at
 * [0.5, 0] m/s, no load; SolveDynamic's defaults (1 s, 100 steps): x(1 s) = 2 m, y = 1 m.
 * Tolerance: without load the acceleration stays 0 and each step adds q_t dt = 0.005 m to
 * q in [0.5, 1) m, rounded to float by at most half an ulp (2^-25 m) in the product and in
 * the sum: 100 steps, at most 100 * 2 * 2^-25 = 6e-6 m, plus 2^-23 m for r + q near 2 m;
 * 1e-5 m bounds it (the double firmware's 1e-12 is for double rounding). */
#define MINI_TOL_F32 1e-5
struct mini {
    mbs_mass_point_2d_f32 body;
    mbs_mass_point_2d_loads_f32 loads;
    mbs_simulation_settings_f32 settings;
    mbs_point2d_state_f32 state;
    float dt;
    mbs_status status;
};

static struct mini mini_ctx;

static int mini_init(struct mini *m) {
    const float reference[2] = {1.0f, 1.0f}, q0[2] = {0.5f, 0.0f}, v0[2] = {0.5f, 0.0f};
    memset(m, 0, sizeof *m);
    int ok = mbs_mass_point_2d_init_f32(&m->body, 1.0f, reference) == MBS_OK &&
             mbs_simulation_settings_default_f32(&m->settings) == MBS_OK &&
             mbs_mass_point_2d_init_state_f32(&m->body, &m->loads, &m->settings, q0, v0,
                                              &m->state) == MBS_OK;
    m->dt = (m->settings.end_time - m->settings.start_time) / (float)m->settings.number_of_steps;
    return ok;
}

static void step_mini(void *ctx) {
    struct mini *m = ctx;
    m->status =
        mbs_mass_point_2d_step_f32(&m->body, &m->loads, &m->settings, &m->state, m->dt, 0);
}

static int run_mini(void) {
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
        if (k == m.settings.number_of_steps) {
            /* The position is the reference coordinates plus the displacement q (in float,
             * then widened exactly). */
            x = (double)(m.body.reference_coordinates[0] + m.state.q[0]);
            const double y = (double)(m.body.reference_coordinates[1] + m.state.q[1]);
            err = fw_max(fw_fabs(x - 2.0), fw_fabs(y - 1.0));
        }
    }
    print_outcome("mini_masspoint", "f32", k, x, h, err, MINI_TOL_F32);
    return err <= MINI_TOL_F32 ? 0 : 1;
}

/* -- probes ------------------------------------------------------------------------------ */
static int prepare_steps(void) {
    int ok = cyl_init(&cyl_ctx) && mini_init(&mini_ctx);
    step_cyl(&cyl_ctx); /* a probed or counted step is the second of its workload */
    step_mini(&mini_ctx);
    return ok && cyl_ctx.status == MBS_OK && mini_ctx.status == MBS_OK;
}


static const struct fw_workload WORKLOADS[] = {
    {"cylinder_midpoint_step", "f32", run_cylinder, step_cyl, &cyl_ctx},
    {"mini_masspoint_step", "f32", run_mini, step_mini, &mini_ctx},
};
#define N_WORKLOADS (sizeof WORKLOADS / sizeof WORKLOADS[0])

static int steps_still_ok(void) { return cyl_ctx.status == MBS_OK && mini_ctx.status == MBS_OK; }

int main(void) {
    static const struct fw_program program = {
        "mbs-c-loop-firmware", WORKLOADS, N_WORKLOADS, prepare_steps, steps_still_ok, 0,
    };
    return fw_main(&program);
}
