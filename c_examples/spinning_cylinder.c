/* A hollow steel cylinder (a ring: outer diameter 0.2 m, inner 0.16 m, length 0.1 m) built
 * from Modelica's BodyCylinder parameters, spinning torque-free about an oblique axis, stepped
 * with the linearly implicit midpoint step at 1 kHz for 10 s.
 *
 * Torque-free, the kinetic energy E and the angular momentum |L| about the centre of mass are
 * conserved; the step conserves them to O(dt^2). For this symmetric body (I2 = I3) the
 * body-frame rate is known in closed form (Euler's equations): w1 is constant and (w2, w3)
 * turns at Omega = (I1 - I2)/I2 * w1 (the body-cone precession). Prints E, |L|, their relative drift
 * and the error against the closed form; exits non-zero if they are off. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mbs.h"

#define STEPS 10000
static const double DT = 1e-3; /* s */

static int check(mbs_status s, const char *what) {
    if (!mbs_status_is_ok(s) || s != MBS_OK) {
        printf("%s: %s\n", what, mbs_status_str(s));
        return 1;
    }
    return 0;
}

/* |I w| (kg m^2/s): |L| about the centre of mass (a rotation keeps the length). */
static double angular_momentum(const mbs_rigid_body *b, const mbs_rigid_state *s) {
    double l2 = 0.0;
    int i, j;
    for (i = 0; i < 3; i++) {
        double li = 0.0;
        for (j = 0; j < 3; j++) li += b->inertia[3 * i + j] * s->angular_velocity[j];
        l2 += li * li;
    }
    return sqrt(l2);
}

static double kinetic_energy(const mbs_rigid_body *b, const mbs_rigid_state *s) {
    const double origin[3] = {0.0, 0.0, 0.0};
    double e = NAN;
    size_t n = 0;
    if (mbs_rigid_output(b, s, MBS_OUTPUT_KINETIC_ENERGY, origin, &e, 1, &n) != MBS_OK) return NAN;
    return e;
}

int main(void) {
    const double r[3] = {0.1, 0.0, 0.0}; /* frame_a -> frame_b along the cylinder axis (m) */
    mbs_cylinder cyl;
    mbs_body_start start;
    mbs_rigid_body body;
    mbs_rigid_state state, s0;
    mbs_rigid_loads loads;
    mbs_step_settings settings;
    mbs_step_info info;
    double e0, l0, e1, l1, w1, wp, omega, t, c, s, err = 0.0;
    int k, warnings = 0;

    if (check(mbs_cylinder_default(&cyl, r), "cylinder")) return 1;
    cyl.has_diameter = true;
    cyl.diameter = 0.2;
    cyl.inner_diameter = 0.16;
    /* density: Modelica's default 7700 kg/m^3 (steel) */
    if (check(mbs_body_start_default(&start), "start")) return 1;
    start.angles_start[0] = 0.3; /* an arbitrary start orientation, sequence {1,2,3} */
    start.angles_start[1] = -0.2;
    start.angles_start[2] = 0.5;
    start.w_0_start[0] = 20.0; /* rad/s, world frame: oblique to the symmetry axis */
    start.w_0_start[1] = 6.0;
    start.w_0_start[2] = -4.0;
    if (check(mbs_body_cylinder_init(&cyl, &start, &body, &state), "body")) return 1;
    memset(&loads, 0, sizeof loads); /* torque-free, no gravity */
    if (check(mbs_step_settings_default(&settings), "settings")) return 1;
    settings.integrator = MBS_RIGID_SCHEME_MIDPOINT;

    printf("hollow cylinder: mass %.17g kg, I11 %.17g, I22 %.17g kg m^2\n", body.mass,
           body.inertia[0], body.inertia[4]);
    printf("w_b(0) = %.17g %.17g %.17g rad/s\n", state.angular_velocity[0],
           state.angular_velocity[1], state.angular_velocity[2]);
    e0 = kinetic_energy(&body, &state);
    l0 = angular_momentum(&body, &state);
    s0 = state;
    w1 = state.angular_velocity[0];
    omega = (body.inertia[0] - body.inertia[4]) / body.inertia[4] * w1;

    for (k = 1; k <= STEPS; k++) {
        mbs_status st = mbs_rigid_step(&body, &loads, &settings, &state, DT, &info);
        if (st == MBS_WARN_STEP_TOO_LARGE) warnings++;
        else if (check(st, "step")) return 1;
    }
    t = STEPS * DT;
    e1 = kinetic_energy(&body, &state);
    l1 = angular_momentum(&body, &state);

    /* Closed form of the body rate: d/dt (w2 + i w3) = i Omega (w2 + i w3). */
    {
        double w2, w3;
        c = cos(omega * t);
        s = sin(omega * t);
        w2 = c * s0.angular_velocity[1] - s * s0.angular_velocity[2];
        w3 = s * s0.angular_velocity[1] + c * s0.angular_velocity[2];
        wp = sqrt(w2 * w2 + w3 * w3);
        err = fabs(state.angular_velocity[0] - w1) + fabs(state.angular_velocity[1] - w2) +
              fabs(state.angular_velocity[2] - w3);
        err /= sqrt(w1 * w1 + wp * wp);
    }

    printf("steps %d, dt %g s, t %g s, |w| dt %.3g rad\n", STEPS, DT, t,
           sqrt(w1 * w1 + wp * wp) * DT);
    printf("energy E0 = %.17g J, E = %.17g J\n", e0, e1);
    printf("|L| L0 = %.17g, L = %.17g kg m^2/s\n", l0, l1);
    printf("energy drift = %.3e\n", (e1 - e0) / e0);
    printf("|L| drift = %.3e\n", (l1 - l0) / l0);
    printf("precession rate Omega = %.17g rad/s\n", omega);
    printf("body-rate error vs closed form = %.3e\n", err);
    if (warnings || !(fabs(e1 - e0) < 1e-4 * e0) || !(fabs(l1 - l0) < 1e-4 * l0) || !(err < 1e-2)) {
        printf("WRONG: drift or error too large (%d warnings)\n", warnings);
        return 1;
    }
    return 0;
}
