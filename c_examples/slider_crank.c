/* The slider-crank of Exudyn's SliderCrank.py through the system C API: a crank (0.5 m, 2 kg)
 * and a connecting rod (1 m, 4 kg) as 2D rigid bodies, a 1 kg slider as a 2D mass point,
 * three revolute joints, the slider's y held by a coordinate constraint, 10 N m on the crank;
 * stepped by the generalized-alpha scheme (index 3, rho_inf = 0.5) at 1 kHz for 2 s, as a
 * control loop would step it. Prints the slider's position, the loop closure's prediction of it
 * from the crank angle (x = 2 a0 cos(phi) + 2 a1 cos(psi), sin(psi) = -(a0/a1) sin(phi)), the
 * largest constraint residual, the ground joint's reaction force and the Newton iterations.
 * Then the same run in real-time mode (alpha_real_time_updates = 1: at most one Newton update a
 * step, its iterate taken without the evaluation that would only confirm it, so every step
 * costs at most one update), against the loop closure and the iterated run. */
#include <math.h>
#include <stdio.h>
#include "mbs.h"

static mbs_system sys; /* caller-owned storage, no malloc */

#define TRY(call, what)                                                        \
    do {                                                                       \
        mbs_status s_ = (call);                                                \
        if (!mbs_status_is_ok(s_)) {                                           \
            printf("%s failed: %u (%s)\n", what, (unsigned)s_, mbs_status_str(s_)); \
            return 1;                                                          \
        }                                                                      \
    } while (0)

/* The slider's x (m) that the loop closure gives for the crank angle `phi` (rad). */
static double loop_closure(double phi) {
    const double a0 = 0.25, a1 = 0.5;
    double psi = asin(-(a0 / a1) * sin(phi));
    return 2 * a0 * cos(phi) + 2 * a1 * cos(psi);
}

/* What a run of 2000 steps of 1 ms found. */
typedef struct {
    double x_slider, phi, worst, force[3];
    unsigned iterations, most;
} run_result;

/* Builds the slider-crank in `sys` with at most `real_time_updates` Newton updates a step (0:
 * iterated to the tolerances) and steps it for 2 s. */
static int run(uint32_t real_time_updates, run_result *r) {
    const double z2[2] = {0, 0}, z3[3] = {0, 0, 0};
    const double tau[3] = {0, 0, 10};
    uint32_t ground, n_ground, n_crank, o_crank, n_rod, o_rod, n_slider, o_slider;
    uint32_t mg, m0l, m0r, m1l, m1r, ms, mgc, msc, j[4], load;
    mbs_system_settings st;
    mbs_item_ref failed;
    mbs_system_step_report report;
    double out[3];
    size_t n;
    int i, k;

    r->worst = 0;
    r->iterations = 0;
    r->most = 0;
    TRY(mbs_system_init(&sys), "init");
    TRY(mbs_system_settings_default(&st), "settings");
    st.scheme = MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA;
    st.alpha_spectral_radius = 0.5;
    st.alpha_real_time_updates = real_time_updates;
    TRY(mbs_system_set_settings(&sys, &st), "set settings");

    TRY(mbs_system_add_object_ground(&sys, z3, &ground), "ground");
    TRY(mbs_system_add_node_ground(&sys, z3, &n_ground), "ground node");
    {
        const double r_crank[3] = {0.25, 0, 0}, r_rod[3] = {1.0, 0, 0}, r_slider[2] = {1.5, 0};
        TRY(mbs_system_add_node_rigid_2d(&sys, r_crank, z3, z3, &n_crank), "crank node");
        TRY(mbs_system_add_object_rigid_body_2d(&sys, n_crank, 2.0, 2.0 / 12.0 * 0.25, z2, &o_crank),
            "crank");
        TRY(mbs_system_add_node_rigid_2d(&sys, r_rod, z3, z3, &n_rod), "rod node");
        TRY(mbs_system_add_object_rigid_body_2d(&sys, n_rod, 4.0, 4.0 / 12.0 * 1.0, z2, &o_rod), "rod");
        TRY(mbs_system_add_node_point2d(&sys, r_slider, z2, z2, &n_slider), "slider node");
        TRY(mbs_system_add_object_mass_point_2d(&sys, n_slider, 1.0, &o_slider), "slider");
    }
    {
        const double left0[3] = {-0.25, 0, 0}, right0[3] = {0.25, 0, 0};
        const double left1[3] = {-0.5, 0, 0}, right1[3] = {0.5, 0, 0};
        TRY(mbs_system_add_marker_body_position(&sys, ground, z3, &mg), "marker");
        TRY(mbs_system_add_marker_body_rigid(&sys, o_crank, left0, &m0l), "marker");
        TRY(mbs_system_add_marker_body_position(&sys, o_crank, right0, &m0r), "marker");
        TRY(mbs_system_add_marker_body_position(&sys, o_rod, left1, &m1l), "marker");
        TRY(mbs_system_add_marker_body_position(&sys, o_rod, right1, &m1r), "marker");
        TRY(mbs_system_add_marker_body_position(&sys, o_slider, z3, &ms), "marker");
        TRY(mbs_system_add_marker_node_coordinate(&sys, n_ground, 0, &mgc), "marker");
        TRY(mbs_system_add_marker_node_coordinate(&sys, n_slider, 1, &msc), "marker");
    }
    TRY(mbs_system_add_revolute_joint_2d(&sys, mg, m0l, &j[0]), "joint ground-crank");
    TRY(mbs_system_add_revolute_joint_2d(&sys, m0r, m1l, &j[1]), "joint crank-rod");
    TRY(mbs_system_add_revolute_joint_2d(&sys, m1r, ms, &j[2]), "joint rod-slider");
    TRY(mbs_system_add_coordinate_constraint(&sys, mgc, msc, 1.0, 0.0, &j[3]), "slider on x");
    TRY(mbs_system_add_load_torque(&sys, m0l, tau, false, &load), "torque");
    TRY(mbs_system_assemble(&sys, &failed), "assemble");

    for (i = 0; i < 2000; i++) {
        TRY(mbs_system_step(&sys, 1e-3, &report, &failed), "step");
        r->iterations += report.newton_iterations;
        if (report.newton_iterations > r->most) r->most = report.newton_iterations;
        for (k = 0; k < 4; k++) {
            TRY(mbs_system_constraint_output(&sys, j[k], MBS_OUTPUT_CONSTRAINT_RESIDUAL, out, 3, &n),
                "residual");
            if (hypot(out[0], out[1]) > r->worst) r->worst = hypot(out[0], out[1]);
        }
    }
    TRY(mbs_system_node_output(&sys, n_slider, MBS_OUTPUT_POSITION, out, 3, &n), "slider");
    r->x_slider = out[0];
    TRY(mbs_system_node_output(&sys, n_crank, MBS_OUTPUT_ROTATION, out, 3, &n), "crank angle");
    r->phi = out[2];
    TRY(mbs_system_constraint_output(&sys, j[0], MBS_OUTPUT_FORCE, r->force, 3, &n), "reaction");
    return 0;
}

int main(void) {
    run_result it, rt;
    if (run(0, &it) != 0 || run(1, &rt) != 0) return 1;
    {
        double x_closure = loop_closure(it.phi);
        printf("slider-crank at t = 2 s (2000 steps of 1 ms, generalized-alpha, rho_inf 0.5)\n");
        printf("crank angle phi = %.6f rad\n", it.phi);
        printf("slider x = %.12f m\n", it.x_slider);
        printf("loop closure x(phi) = %.12f m\n", x_closure);
        printf("|x - x(phi)| = %.3e m\n", fabs(it.x_slider - x_closure));
        printf("max constraint residual = %.3e m\n", it.worst);
        printf("ground joint force on the ground = [%.4f, %.4f] N\n", it.force[0], it.force[1]);
        printf("Newton iterations per step = %.3f\n", it.iterations / 2000.0);
        printf("real-time mode, at most 1 update a step: most updates in a step = %u\n", rt.most);
        printf("real-time slider x = %.12f m, loop closure error = %.3e m, minus iterated = %.3e m\n",
               rt.x_slider, fabs(rt.x_slider - loop_closure(rt.phi)), rt.x_slider - it.x_slider);
    }
    return 0;
}
