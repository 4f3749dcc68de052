/* Exudyn's tutorialSpringDamperCreate through the system C API: a mass point on a
 * spring-damper to the ground, pulled by a constant force, recorded by a sensor into a C
 * buffer, against the closed-form damped oscillation.
 *
 *   mass 1.6 kg at reference x = L = 0.5 m, spring 4000 N/m, damper 8 N s/m, reference length
 *   L, force 80 N along x; start u0 = -0.08 m, v0 = 1 m/s; 1 s in 10000 steps.
 *
 * Closed form (Exudyn's reference solution): with w0 = sqrt(k/m), D = d / (2 sqrt(k m)),
 * w = w0 sqrt(1 - D^2), the static offset x0 = f/k, C1 = u0 - x0, C2 = (v0 + w0 D C1)/w:
 *   u(t) = exp(-w0 D t) (C1 cos(w t) + C2 sin(w t)) + x0.
 * Then the same system is stepped again by mbs_system_step (a control loop's form), with the
 * force changed half way by mbs_system_set_load_vector. Exits non-zero on a wrong result. */
#include <math.h>
#include <stdio.h>
#include "mbs.h"

#define STEPS 10000
#define ROW 4 /* t, displacement x, y, z */

static mbs_system sys; /* MBS_SYSTEM_SIZE bytes: static storage, no malloc */
static double rows[(STEPS + 1) * ROW];

static const double L = 0.5, M = 1.6, K = 4000.0, D = 8.0, F = 80.0, U0 = -0.08, V0 = 1.0;

static double exact(double t) {
    double w0 = sqrt(K / M), dr = D / (2.0 * sqrt(K * M)), w = w0 * sqrt(1.0 - dr * dr);
    double x0 = F / K, c1 = U0 - x0, c2 = (V0 + w0 * dr * c1) / w;
    return exp(-w0 * dr * t) * (c1 * cos(w * t) + c2 * sin(w * t)) + x0;
}

static int fail(mbs_status s, const char *what, const mbs_item_ref *item) {
    printf("%s failed: %s", what, mbs_status_str(s));
    if (item) printf(" (item kind %u, index %u)", (unsigned)item->kind, (unsigned)item->index);
    printf("\n");
    return 1;
}
#define TRY(call, what)                                         \
    do {                                                        \
        mbs_status s_ = (call);                                 \
        if (!mbs_status_is_ok(s_)) return fail(s_, what, NULL); \
    } while (0)

int main(void) {
    const double origin[3] = {0, 0, 0}, reference[2] = {L, 0}, u0[2] = {U0, 0}, v0[2] = {V0, 0};
    const double force[3] = {F, 0, 0};
    uint32_t ground, m_ground, m_mass, spring, load, sensor;
    mbs_created_body mass;
    mbs_sensor_spec spec = {MBS_SENSOR_NODE, 0, MBS_OUTPUT_DISPLACEMENT, {0, 0, 0}};
    mbs_simulation_settings sim;
    mbs_system_solve_report report;
    mbs_system_counts counts;
    mbs_item_ref failed;
    mbs_status s;
    size_t n = 0, i, written;
    double max_err = 0.0, t_end, p[3];

    TRY(mbs_system_init(&sys), "init");
    TRY(mbs_system_create_ground(&sys, origin, &ground), "ground");
    TRY(mbs_system_create_mass_point(&sys, M, reference, u0, v0, NULL, &mass), "mass point");
    TRY(mbs_system_add_marker_body_position(&sys, ground, origin, &m_ground), "ground marker");
    TRY(mbs_system_add_marker_body_position(&sys, mass.object, origin, &m_mass), "mass marker");
    TRY(mbs_system_add_spring_damper(&sys, m_ground, m_mass, K, D, L, 0.0, &spring), "spring");
    TRY(mbs_system_add_load_force(&sys, m_mass, force, &load), "load");
    spec.index = mass.node;
    TRY(mbs_system_add_sensor(&sys, &spec, rows, STEPS + 1, &sensor), "sensor");
    s = mbs_system_assemble(&sys, &failed);
    if (s != MBS_OK) return fail(s, "assemble", &failed);
    TRY(mbs_system_get_counts(&sys, &counts), "counts");
    printf("system: %u nodes, %u objects, %u markers, %u loads, %u connectors, %u sensors; "
           "storage %u bytes\n",
           (unsigned)counts.nodes, (unsigned)counts.objects, (unsigned)counts.markers,
           (unsigned)counts.loads, (unsigned)counts.connectors, (unsigned)counts.sensors,
           (unsigned)sizeof sys);

    TRY(mbs_simulation_settings_default(&sim), "settings");
    sim.solver_type = MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME; /* kick-drift-kick: 3D bodies, no constraints */
    sim.end_time = 1.0;
    sim.number_of_steps = STEPS;
    s = mbs_system_solve_dynamic(&sys, &sim, &report, &failed);
    if (s != MBS_OK) return fail(s, "solve", &failed);
    TRY(mbs_system_sensor_rows(&sys, sensor, &n), "rows");
    for (i = 0; i < n; i++) {
        double e = fabs(rows[i * ROW + 1] - exact(rows[i * ROW]));
        if (e > max_err) max_err = e;
    }
    TRY(mbs_system_time(&sys, &t_end), "time");
    printf("solve: %u steps, %llu force evaluations, %u sensor rows, end time %g s\n",
           (unsigned)report.steps, (unsigned long long)report.force_evaluations, (unsigned)n,
           t_end);
    printf("final x = %.12f m (closed form %.12f m)\n", L + rows[(n - 1) * ROW + 1], L + exact(1.0));
    printf("max |u - u_exact| = %.3e m over %u rows\n", max_err, (unsigned)n);

    /* The control-loop form: reset, step, change the force after 0.5 s (the new static
     * offset is f/k = 0.01 m; the oscillation decays at exp(-w0 D t)). */
    TRY(mbs_system_reset(&sys), "reset");
    for (i = 0; i < STEPS; i++) {
        mbs_system_step_report r;
        if (i == STEPS / 2) {
            const double f2[3] = {40.0, 0, 0};
            TRY(mbs_system_set_load_vector(&sys, load, f2), "set load");
        }
        s = mbs_system_step(&sys, 1e-4, &r, &failed);
        if (s != MBS_OK) return fail(s, "step", &failed);
    }
    TRY(mbs_system_node_output(&sys, mass.node, MBS_OUTPUT_POSITION, p, 3, &written), "output");
    TRY(mbs_system_time(&sys, &t_end), "time");
    printf("stepped: t = %g s, x = %.9f m after the force went 80 -> 40 N at 0.5 s\n", t_end, p[0]);
    /* the buffer holds STEPS + 1 rows: the next step fills it, the one after warns (a full
     * sensor buffer is a warning, the step is taken) */
    TRY(mbs_system_step(&sys, 1e-4, NULL, NULL), "step");
    s = mbs_system_step(&sys, 1e-4, NULL, NULL);
    printf("one more step with the buffer full: %s\n", mbs_status_str(s));

    if (max_err > 2e-5 || s != MBS_WARN_SENSOR_BUFFER_FULL) {
        printf("WRONG\n");
        return 1;
    }
    return 0;
}
