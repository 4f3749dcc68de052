/* A rigid body in a system through the C API: Modelica's BodyCylinder (solid
 * steel, length 0.5 m, diameter 0.05 m) hanging from its frame_a on a Cartesian spring to the
 * ground, with gravity (mbs_system_create_body_cylinder adds the mass marker and load).
 * frame_a starts at the origin, the cylinder axis (body x) pointing down (angles {0, pi/2, 0}
 * about {1, 2, 3}); the centre of mass is c = 0.25 m below frame_a.
 *
 * (A) Bounce: released at rest with the spring unstretched, gravity acts along the axis, so
 *     the body does not turn and frame_a moves as z(t) = -(m g / k)(1 - cos(sqrt(k/m) t)).
 * (B) Swing: the same body with a stiff spring and a small start rate w about world y is a
 *     physical pendulum: period T0 = 2 pi sqrt(I_a / (m g c)), I_a = I22 + m c^2, times
 *     (1 + theta0^2 / 16) for the amplitude theta0; the energy
 *     E = kinetic + m g z_com + k |r_a|^2 / 2 is conserved.
 * Sensors write into C buffers. Exits non-zero on a wrong result. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mbs.h"

#define DT 1e-4
#define STEPS_A 10000
#define STEPS_B 30000

static mbs_system sys;
static double pos_a[(STEPS_A + 1) * 4];
static double frame_a[(STEPS_B + 1) * 4], com[(STEPS_B + 1) * 4], kin[(STEPS_B + 1) * 2];

static const double G = 9.81;

static int fail(mbs_status s, const char *what) {
    printf("%s failed: %s\n", what, mbs_status_str(s));
    return 1;
}
#define TRY(call, what)                                   \
    do {                                                  \
        mbs_status s_ = (call);                           \
        if (!mbs_status_is_ok(s_)) return fail(s_, what); \
    } while (0)

/* Builds the pendulum with spring stiffness k (N/m, all axes) and start rate w (rad/s, world
 * y); writes the body's items and the ground spring. */
static mbs_status build(double k, double w, const mbs_cylinder *cyl, mbs_created_body *body) {
    const double origin[3] = {0, 0, 0}, g[3] = {0, 0, -G}, kk[3] = {k, k, k};
    mbs_body_start start;
    uint32_t ground, m0, m1, c;
    mbs_status s;
    if ((s = mbs_system_init(&sys)) != MBS_OK) return s;
    if ((s = mbs_body_start_default(&start)) != MBS_OK) return s;
    start.angles_start[1] = 2.0 * atan(1.0); /* pi/2 about y: body x -> world -z */
    start.w_0_start[1] = w;
    if ((s = mbs_system_create_body_cylinder(&sys, cyl, &start, g, body)) != MBS_OK) return s;
    if ((s = mbs_system_create_ground(&sys, origin, &ground)) != MBS_OK) return s;
    if ((s = mbs_system_add_marker_body_position(&sys, ground, origin, &m0)) != MBS_OK) return s;
    if ((s = mbs_system_add_marker_body_position(&sys, body->object, origin, &m1)) != MBS_OK)
        return s;
    return mbs_system_add_cartesian_spring_damper(&sys, m0, m1, kk, origin, origin, &c);
}

int main(void) {
    const double r[3] = {0.5, 0, 0};
    mbs_cylinder cyl;
    mbs_mass_properties mp;
    mbs_created_body body;
    mbs_sensor_spec spec;
    mbs_simulation_settings sim;
    mbs_item_ref failed;
    uint32_t s0, s1, s2;
    size_t n, i, crossings = 0;
    double m, c, i22, ka = 2e4, kb = 2e6, wb = 0.5, max_err = 0.0, max_turn = 0.0;
    double t_first = 0, t_last = 0, e0 = 0, k0 = 0, max_de = 0, ia, t0, theta0, period;

    TRY(mbs_cylinder_default(&cyl, r), "cylinder");
    cyl.has_diameter = true;
    cyl.diameter = 0.05;
    TRY(mbs_cylinder_mass_properties(&cyl, &mp), "mass properties");
    m = mp.mass, c = mp.com[0], i22 = mp.inertia[4];
    printf("cylinder: mass = %.12g kg, com = %.6g m, I22 = %.12g kg m^2\n", m, c, i22);

    /* (A) bounce */
    TRY(build(ka, 0.0, &cyl, &body), "build A");
    memset(&spec, 0, sizeof spec);
    spec.kind = MBS_SENSOR_NODE, spec.index = body.node, spec.variable = MBS_OUTPUT_POSITION;
    TRY(mbs_system_add_sensor(&sys, &spec, pos_a, STEPS_A + 1, &s0), "sensor");
    TRY(mbs_system_assemble(&sys, &failed), "assemble");
    TRY(mbs_simulation_settings_default(&sim), "settings");
    sim.solver_type = MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME; /* kick-drift-kick: 3D bodies, no constraints */
    sim.end_time = STEPS_A * DT, sim.number_of_steps = STEPS_A;
    TRY(mbs_system_solve_dynamic(&sys, &sim, NULL, &failed), "solve A");
    TRY(mbs_system_sensor_rows(&sys, s0, &n), "rows");
    for (i = 0; i < n; i++) {
        const double *row = &pos_a[4 * i];
        double z = -(m * G / ka) * (1.0 - cos(sqrt(ka / m) * row[0]));
        if (fabs(row[3] - z) > max_err) max_err = fabs(row[3] - z);
        if (fabs(row[1]) + fabs(row[2]) > max_turn) max_turn = fabs(row[1]) + fabs(row[2]);
    }
    printf("bounce: omega = %.9g rad/s, max |z - z_exact| = %.3e m, max |x| + |y| = %.3e m\n",
           sqrt(ka / m), max_err, max_turn);

    /* (B) swing */
    TRY(build(kb, wb, &cyl, &body), "build B");
    spec.kind = MBS_SENSOR_NODE, spec.index = body.node, spec.variable = MBS_OUTPUT_POSITION;
    TRY(mbs_system_add_sensor(&sys, &spec, frame_a, STEPS_B + 1, &s0), "sensor a");
    spec.kind = MBS_SENSOR_BODY, spec.index = body.object, spec.local_position[0] = c;
    TRY(mbs_system_add_sensor(&sys, &spec, com, STEPS_B + 1, &s1), "sensor com");
    spec.variable = MBS_OUTPUT_KINETIC_ENERGY, spec.local_position[0] = 0.0;
    TRY(mbs_system_add_sensor(&sys, &spec, kin, STEPS_B + 1, &s2), "sensor energy");
    TRY(mbs_system_assemble(&sys, &failed), "assemble");
    sim.end_time = STEPS_B * DT, sim.number_of_steps = STEPS_B;
    TRY(mbs_system_solve_dynamic(&sys, &sim, NULL, &failed), "solve B");
    TRY(mbs_system_sensor_rows(&sys, s2, &n), "rows");
    for (i = 0; i < n; i++) {
        const double *a = &frame_a[4 * i], *p = &com[4 * i];
        double e = kin[2 * i + 1] + m * G * p[3] + 0.5 * kb * (a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
        if (i == 0) e0 = e, k0 = kin[1];
        if (fabs(e - e0) > max_de) max_de = fabs(e - e0);
        /* upward zero crossings of the COM's x (linear interpolation) */
        if (i > 0 && com[4 * (i - 1) + 1] < 0.0 && p[1] >= 0.0) {
            double t = p[0] - DT * p[1] / (p[1] - com[4 * (i - 1) + 1]);
            if (crossings == 0) t_first = t;
            t_last = t;
            crossings++;
        }
    }
    ia = i22 + m * c * c;
    t0 = 8.0 * atan(1.0) * sqrt(ia / (m * G * c));
    /* amplitude from the energy: m g c (1 - cos theta0) = I_a w^2 / 2 */
    theta0 = acos(1.0 - ia * wb * wb / (2.0 * m * G * c));
    period = (t_last - t_first) / (double)(crossings - 1);
    printf("swing: period = %.9g s over %u periods, T0 (1 + theta0^2/16) = %.9g s, "
           "theta0 = %.6g rad\n",
           period, (unsigned)(crossings - 1), t0 * (1.0 + theta0 * theta0 / 16.0), theta0);
    printf("swing: E0 = %.12g J, max |E - E0| / kinetic0 = %.3e\n", e0, max_de / k0);

    if (max_err > 1e-5 || max_turn > 1e-12 || crossings < 3 ||
        fabs(period / (t0 * (1.0 + theta0 * theta0 / 16.0)) - 1.0) > 1e-3 || max_de / k0 > 1e-3) {
        printf("WRONG\n");
        return 1;
    }
    return 0;
}
