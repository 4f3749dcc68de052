/* The C side of the Python package's bit-for-bit test (python/tests/test_mbsdyn.py): the same
 * models as the test builds through mbsdyn, run through the C API, their results written as
 * raw doubles (native byte order) to the file argv[1], in this order:
 *
 *   1. spring-damper (1.6 kg on 4000 N/m, 8 N s/m to the ground, 80 N along x; start
 *      u0 = -0.08 m, v0 = 1 m/s): the displacement sensor's 501 rows [t, x, y, z] of a
 *      kick-drift-kick solve over 1 s in 500 steps;
 *   2. the same system reset and stepped 500 times by 2 ms, the force set to 40 N after 250
 *      steps: the node's position (3);
 *   3. the same spring-damper with the force a user load f(t) = 80 + 10 t N: the sensor's
 *      501 rows;
 *   4. Exudyn's SliderCrank.py (crank 0.5 m 2 kg, rod 1 m 4 kg, slider 1 kg, 0.1 N m on the
 *      crank) by generalized-alpha (rho_inf = 0.8), 1 s in 1000 steps: the crank node's
 *      coordinates sensor (1001 rows [t, x, y, theta]), then the slider's position sensor
 *      (1001 rows [t, x, y, z]).
 *
 * With `--statuses` instead, prints every status code the library knows and its text
 * (`mbs_status_str`), one "code<TAB>text" line each.
 *
 * Exits 1 with a message on any failed call. */
#include <stdio.h>
#include <string.h>
#include "mbs.h"

#define SD_STEPS 500
#define SC_STEPS 1000

static mbs_system sys; /* caller-owned storage, no malloc */
static double sd_rows[(SD_STEPS + 1) * 4], sd_solved[(SD_STEPS + 1) * 4], user_rows[(SD_STEPS + 1) * 4];
static double crank_rows[(SC_STEPS + 1) * 4], slider_rows[(SC_STEPS + 1) * 4];

#define TRY(call)                                                                  \
    do {                                                                           \
        mbs_status s_ = (call);                                                    \
        if (!mbs_status_is_ok(s_)) {                                               \
            fprintf(stderr, "line %d: %s: %s\n", __LINE__, #call, mbs_status_str(s_)); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

static void user_force(void *ctx, double t, double *out) {
    (void)ctx;
    out[0] = 80.0 + 10.0 * t;
}

/* The spring-damper; its force a vector load, or the user load when `user`. */
static int spring_damper(int user, double *rows, uint32_t *node, uint32_t *load) {
    const double origin[3] = {0, 0, 0}, ref[2] = {0.5, 0}, u0[2] = {-0.08, 0}, v0[2] = {1.0, 0};
    const double force[3] = {80.0, 0, 0};
    uint32_t ground, m0, m1, spring, sensor;
    mbs_created_body body;
    mbs_sensor_spec spec = {MBS_SENSOR_NODE, 0, MBS_OUTPUT_DISPLACEMENT, {0, 0, 0}};
    mbs_simulation_settings sim;

    TRY(mbs_system_init(&sys));
    TRY(mbs_system_create_ground(&sys, origin, &ground));
    TRY(mbs_system_create_mass_point(&sys, 1.6, ref, u0, v0, NULL, &body));
    TRY(mbs_system_add_marker_body_position(&sys, ground, origin, &m0));
    TRY(mbs_system_add_marker_node_position(&sys, body.node, &m1));
    TRY(mbs_system_add_spring_damper(&sys, m0, m1, 4000.0, 8.0, 0.5, 0.0, &spring));
    if (user)
        TRY(mbs_system_add_load_user(&sys, m1, MBS_USER_LOAD_FORCE, user_force, NULL, load));
    else
        TRY(mbs_system_add_load_force(&sys, m1, force, load));
    spec.index = body.node;
    TRY(mbs_system_add_sensor(&sys, &spec, rows, SD_STEPS + 1, &sensor));
    TRY(mbs_system_assemble(&sys, NULL));
    TRY(mbs_simulation_settings_default(&sim));
    sim.end_time = 1.0;
    sim.number_of_steps = SD_STEPS;
    sim.solver_type = MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME;
    TRY(mbs_system_solve_dynamic(&sys, &sim, NULL, NULL));
    *node = body.node;
    return 0;
}

static int slider_crank(void) {
    const double z3[3] = {0, 0, 0}, tau[3] = {0, 0, 0.1};
    const double a0 = 0.25, a1 = 0.5;
    uint32_t n_ground, ground, n_crank, crank, n_rod, rod, mg, mc0, mc1, mr0, mr1, ms, mgc, msc;
    uint32_t j, load, s_crank, s_slider;
    mbs_created_body slider;
    mbs_system_settings st;
    mbs_simulation_settings sim;
    mbs_sensor_spec spec = {MBS_SENSOR_NODE, 0, MBS_OUTPUT_COORDINATES, {0, 0, 0}};

    TRY(mbs_system_init(&sys));
    TRY(mbs_system_settings_default(&st));
    st.scheme = MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA;
    TRY(mbs_system_set_settings(&sys, &st));
    TRY(mbs_system_add_node_ground(&sys, z3, &n_ground));
    TRY(mbs_system_create_ground(&sys, z3, &ground));
    {
        const double rc[3] = {a0, 0, 0}, rr[3] = {2 * a0 + a1, 0, 0}, rs[2] = {2 * a0 + 2 * a1, 0};
        const double zero2[2] = {0, 0};
        TRY(mbs_system_add_node_rigid_2d(&sys, rc, z3, z3, &n_crank));
        TRY(mbs_system_add_object_rigid_body_2d(&sys, n_crank, 2.0, 2.0 / 12 * (2 * a0) * (2 * a0),
                                                zero2, &crank));
        TRY(mbs_system_add_node_rigid_2d(&sys, rr, z3, z3, &n_rod));
        TRY(mbs_system_add_object_rigid_body_2d(&sys, n_rod, 4.0, 4.0 / 12 * (2 * a1) * (2 * a1),
                                                zero2, &rod));
        TRY(mbs_system_create_mass_point(&sys, 1.0, rs, zero2, zero2, NULL, &slider));
    }
    {
        const double c0[3] = {-a0, 0, 0}, c1[3] = {a0, 0, 0}, r0[3] = {-a1, 0, 0}, r1[3] = {a1, 0, 0};
        TRY(mbs_system_add_marker_body_rigid(&sys, ground, z3, &mg));
        TRY(mbs_system_add_marker_body_rigid(&sys, crank, c0, &mc0));
        TRY(mbs_system_add_marker_body_rigid(&sys, crank, c1, &mc1));
        TRY(mbs_system_add_marker_body_rigid(&sys, rod, r0, &mr0));
        TRY(mbs_system_add_marker_body_rigid(&sys, rod, r1, &mr1));
        TRY(mbs_system_add_marker_node_position(&sys, slider.node, &ms));
    }
    TRY(mbs_system_add_revolute_joint_2d(&sys, mg, mc0, &j));
    TRY(mbs_system_add_revolute_joint_2d(&sys, mc1, mr0, &j));
    TRY(mbs_system_add_revolute_joint_2d(&sys, mr1, ms, &j));
    TRY(mbs_system_add_marker_node_coordinate(&sys, n_ground, 0, &mgc));
    TRY(mbs_system_add_marker_node_coordinate(&sys, slider.node, 1, &msc));
    TRY(mbs_system_add_coordinate_constraint(&sys, mgc, msc, 1.0, 0.0, &j));
    TRY(mbs_system_add_load_torque(&sys, mc0, tau, false, &load));
    spec.index = n_crank;
    TRY(mbs_system_add_sensor(&sys, &spec, crank_rows, SC_STEPS + 1, &s_crank));
    spec.index = slider.node;
    spec.variable = MBS_OUTPUT_POSITION;
    TRY(mbs_system_add_sensor(&sys, &spec, slider_rows, SC_STEPS + 1, &s_slider));
    TRY(mbs_system_assemble(&sys, NULL));
    TRY(mbs_simulation_settings_default(&sim));
    sim.end_time = 1.0;
    sim.number_of_steps = SC_STEPS;
    sim.spectral_radius = 0.8;
    TRY(mbs_system_solve_dynamic(&sys, &sim, NULL, NULL));
    return 0;
}

int main(int argc, char **argv) {
    uint32_t node, load;
    double p[3];
    size_t written;
    FILE *f;
    int i;

    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT | --statuses\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "--statuses") == 0) {
        for (i = 0; i < 1000; i++)
            if (strcmp(mbs_status_str((mbs_status)i), "unknown status") != 0)
                printf("%d\t%s\n", i, mbs_status_str((mbs_status)i));
        return 0;
    }
    if (spring_damper(0, sd_rows, &node, &load)) return 1;
    memcpy(sd_solved, sd_rows, sizeof sd_rows); /* the steps below record into sd_rows again */
    TRY(mbs_system_reset(&sys));
    for (i = 0; i < SD_STEPS; i++) {
        if (i == SD_STEPS / 2) {
            const double f2[3] = {40.0, 0, 0};
            TRY(mbs_system_set_load_vector(&sys, load, f2));
        }
        TRY(mbs_system_step(&sys, 2e-3, NULL, NULL));
    }
    TRY(mbs_system_node_output(&sys, node, MBS_OUTPUT_POSITION, p, 3, &written));
    if (spring_damper(1, user_rows, &node, &load)) return 1;
    if (slider_crank()) return 1;

    f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fwrite(sd_solved, sizeof sd_solved, 1, f);
    fwrite(p, sizeof p, 1, f);
    fwrite(user_rows, sizeof user_rows, 1, f);
    fwrite(crank_rows, sizeof crank_rows, 1, f);
    fwrite(slider_rows, sizeof slider_rows, 1, f);
    return fclose(f) == 0 ? 0 : 1;
}
