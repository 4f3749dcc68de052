/* A run to look at: a hollow steel BodyCylinder (Modelica parameters) thrown spinning about an
 * oblique axis, and a 4 kg mass point thrown beside it, both under gravity g = (0, -9.81, 0),
 * for 1 s at 1 kHz through the per-item C API (mbs_rigid_step with the seed 004 midpoint step,
 * mbs_mass_point_2d_step with generalized-alpha).
 *
 * Checked against closed forms: the ball follows the parabola r0 + v0 t + g t^2/2
 * (generalized-alpha is exact for a constant force); the cylinder's COM follows the midpoint
 * step's symplectic-Euler translation exactly, r0 + v0 t + g (t^2 + h t)/2 (first order in h:
 * h g t/2 = 4.9 mm lower than the parabola after 1 s at 1 kHz); gravity acts at the COM (no
 * torque), so the spin conserves its kinetic energy of rotation and |L| about the COM.
 * Prints them; exits non-zero if off.
 *
 * With MBS_RUN_DIR set (the Makefile's `run` sets it to target/mbs-run), writes there:
 *   bodies.txt   the bodies' parameters and final states (mbs-view's "mbs-bodies 1" format),
 *   sensors.csv  time, ball x, y, cylinder COM x, y, cylinder w_b (every 10 ms);
 * `mbs-view render bodies.txt --csv sensors.csv` then exports the scene (the system's default
 * drawings) and draws the picture and the time plot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mbs.h"

#define STEPS 1000
#define EVERY 10
static const double DT = 1e-3; /* s */
static const double G[3] = {0.0, -9.81, 0.0};

static int check(mbs_status s, const char *what) {
    if (s != MBS_OK) {
        printf("%s failed: %s\n", what, mbs_status_str(s));
        return 1;
    }
    return 0;
}

/* Kinetic energy of rotation w_b.I w_b / 2 (J) and |I w_b| (kg m^2/s), about the COM. */
static void spin(const mbs_rigid_body *b, const mbs_rigid_state *s, double *e, double *l) {
    double l2 = 0.0, e2 = 0.0;
    int i, j;
    for (i = 0; i < 3; i++) {
        double li = 0.0;
        for (j = 0; j < 3; j++) li += b->inertia[3 * i + j] * s->angular_velocity[j];
        l2 += li * li;
        e2 += li * s->angular_velocity[i];
    }
    *e = 0.5 * e2;
    *l = sqrt(l2);
}

static int com(const mbs_rigid_body *b, const mbs_rigid_state *s, double out[3]) {
    size_t n = 0;
    return check(mbs_rigid_output(b, s, MBS_OUTPUT_POSITION, b->center_of_mass, out, 3, &n),
                 "COM");
}

static FILE *open_out(const char *dir, const char *name) {
    char path[1024];
    FILE *f;
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return NULL;
    f = fopen(path, "w");
    if (!f) printf("cannot write %s\n", path);
    return f;
}

static void v3(FILE *f, const double *v) { fprintf(f, " %.17g %.17g %.17g", v[0], v[1], v[2]); }

int main(void) {
    const double r[3] = {0.3, 0.0, 0.0}; /* frame_a -> frame_b (m, frame_a): the axis */
    const double origin[3] = {0.0, 0.0, 0.0};
    const double ball_ref[2] = {-1.0, 0.0}, ball_q0[2] = {0.0, 0.0}, ball_v0[2] = {2.0, 4.5};
    const char *dir = getenv("MBS_RUN_DIR");
    mbs_cylinder cyl;
    mbs_cylinder_derived der;
    mbs_body_start start;
    mbs_rigid_body body;
    mbs_rigid_state state;
    mbs_rigid_loads loads;
    mbs_step_settings settings;
    mbs_mass_point_2d ball;
    mbs_mass_point_2d_loads ball_loads;
    mbs_simulation_settings alpha;
    mbs_point2d_state bs;
    double c0[3], v0[3], c[3], want[3], p[3], e0, l0, e1, l1, t, err_c = 0.0, err_b = 0.0;
    FILE *csv = NULL, *out = NULL;
    size_t n = 0;
    int k, i;

    /* The cylinder: Modelica BodyCylinder, r = {0.3, 0, 0}, diameter 0.3, innerDiameter 0.2,
     * steel (7700 kg/m^3); thrown at (-0.15, 1, 0) with (0.5, 3, 0) m/s, spinning. */
    if (check(mbs_cylinder_default(&cyl, r), "cylinder")) return 1;
    cyl.has_diameter = true;
    cyl.diameter = 0.3;
    cyl.inner_diameter = 0.2;
    if (check(mbs_cylinder_derived_values(&cyl, &der), "derived")) return 1;
    if (check(mbs_body_start_default(&start), "start")) return 1;
    start.r_0_start[0] = -0.15;
    start.r_0_start[1] = 1.0;
    start.v_0_start[0] = 0.5;
    start.v_0_start[1] = 3.0;
    start.angles_start[0] = 0.3;
    start.angles_start[1] = -0.2;
    start.angles_start[2] = 0.5;
    start.w_0_start[0] = 6.0; /* rad/s, world */
    start.w_0_start[1] = 2.0;
    start.w_0_start[2] = -1.5;
    if (check(mbs_body_cylinder_init(&cyl, &start, &body, &state), "body")) return 1;
    memset(&loads, 0, sizeof loads);
    memcpy(loads.gravity, G, sizeof G);
    if (check(mbs_step_settings_default(&settings), "settings")) return 1;
    settings.integrator = MBS_INTEGRATOR_MIDPOINT;

    /* The ball: a 4 kg mass point from (-1, 0) with (2, 4.5) m/s. */
    memset(&ball_loads, 0, sizeof ball_loads);
    memcpy(ball_loads.gravity, G, sizeof G);
    if (check(mbs_mass_point_2d_init(&ball, 4.0, ball_ref), "ball") ||
        check(mbs_simulation_settings_default(&alpha), "alpha settings") ||
        check(mbs_mass_point_2d_init_state(&ball, &ball_loads, &alpha, ball_q0, ball_v0, &bs),
              "ball start")) {
        return 1;
    }

    if (com(&body, &state, c0)) return 1;
    if (check(mbs_rigid_output(&body, &state, MBS_OUTPUT_VELOCITY, body.center_of_mass, v0, 3,
                               &n),
              "COM velocity")) {
        return 1;
    }
    spin(&body, &state, &e0, &l0);
    printf("cylinder: mass %.6g kg, I11 %.6g, I22 %.6g kg m^2, COM (%.4g, %.4g, %.4g) m\n",
           body.mass, der.i11, der.i22, c0[0], c0[1], c0[2]);

    if (dir) {
        csv = open_out(dir, "sensors.csv");
        if (!csv) return 1;
        fprintf(csv, "time,ball x (m),ball y (m),cylinder COM x (m),cylinder COM y (m),"
                     "cylinder w_b1 (rad/s),cylinder w_b2 (rad/s),cylinder w_b3 (rad/s)\n");
    }
    for (k = 0; k <= STEPS; k++) {
        t = k * DT;
        if (csv && k % EVERY == 0) {
            if (com(&body, &state, c)) return 1;
            if (check(mbs_mass_point_2d_output(&ball, &bs, MBS_OUTPUT_POSITION, origin, p, 3, &n),
                      "ball output"))
                return 1;
            fprintf(csv, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", t, p[0], p[1], c[0],
                    c[1], state.angular_velocity[0], state.angular_velocity[1],
                    state.angular_velocity[2]);
        }
        if (k == STEPS) break;
        if (check(mbs_rigid_step(&body, &loads, &settings, &state, DT, NULL), "step") ||
            check(mbs_mass_point_2d_step(&ball, &ball_loads, &alpha, &bs, DT, NULL), "ball step")) {
            return 1;
        }
    }
    if (csv) fclose(csv);
    t = STEPS * DT;

    /* Closed forms. */
    if (com(&body, &state, c)) return 1;
    for (i = 0; i < 3; i++) {
        /* The midpoint step moves the COM by symplectic Euler (v += h g, then r += h v):
         * r_N = r0 + v0 t + g (t^2 + h t)/2, first order: h g t/2 off the parabola. */
        want[i] = c0[i] + v0[i] * t + 0.5 * G[i] * (t * t + DT * t);
        err_c = fmax(err_c, fabs(c[i] - want[i]));
    }
    spin(&body, &state, &e1, &l1);
    if (check(mbs_mass_point_2d_output(&ball, &bs, MBS_OUTPUT_POSITION, origin, p, 3, &n),
              "ball output"))
        return 1;
    err_b = fmax(fabs(p[0] - (ball_ref[0] + ball_v0[0] * t)),
                 fabs(p[1] - (ball_ref[1] + ball_v0[1] * t + 0.5 * G[1] * t * t)));

    printf("t = %g s (%d steps of %g s)\n", t, STEPS, DT);
    printf("cylinder COM = %.17g %.17g %.17g m\n", c[0], c[1], c[2]);
    printf("cylinder COM y - parabola = %.6g m (h g t/2 = %.6g m)\n",
           c[1] - (c0[1] + v0[1] * t + 0.5 * G[1] * t * t), 0.5 * G[1] * DT * t);
    printf("cylinder COM error vs the step's closed form = %.3e m\n", err_c);
    printf("cylinder spin energy drift = %.3e, |L| drift = %.3e\n", (e1 - e0) / e0,
           (l1 - l0) / l0);
    printf("ball position = %.17g %.17g m\n", p[0], p[1]);
    printf("ball error vs parabola = %.3e m\n", err_b);

    if (dir) {
        out = open_out(dir, "bodies.txt");
        if (!out) return 1;
        fprintf(out, "mbs-bodies 1\n");
        fprintf(out, "title scene_run.c, t = %g s: spinning BodyCylinder (0) and a ball (1)\n", t);
        fprintf(out, "body_cylinder");
        v3(out, cyl.r);
        v3(out, cyl.r_shape);
        v3(out, der.length_direction);
        fprintf(out, " %.17g %.17g %.17g %.17g", der.length, der.diameter, der.inner_diameter,
                cyl.density);
        v3(out, state.position);
        fprintf(out, " %.17g %.17g %.17g %.17g", state.orientation[0], state.orientation[1],
                state.orientation[2], state.orientation[3]);
        v3(out, state.velocity);
        v3(out, state.angular_velocity);
        fprintf(out, "\nmass_point_2d %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", ball.mass,
                ball.reference_coordinates[0], ball.reference_coordinates[1], bs.q[0], bs.q[1],
                bs.q_t[0], bs.q_t[1]);
        fclose(out);
        printf("wrote %s/bodies.txt and %s/sensors.csv\n", dir, dir);
    }

    if (!(err_c < 1e-9) || !(err_b < 1e-9) || !(fabs(e1 - e0) < 1e-4 * e0) ||
        !(fabs(l1 - l0) < 1e-4 * l0)) {
        printf("WRONG: off the closed forms\n");
        return 1;
    }
    return 0;
}
