/* C tests of the constraint API: the planar items (2D rigid node and body, coordinate
 * markers), the four constraints, their outputs, the generalized-alpha settings and the Newton
 * report. A pendulum (a mass point on a distance constraint) and a 2D rigid link on a revolute
 * joint run against their closed forms; then every refusal: NULL pointers, NaN and inf, a zero
 * axis, a flag that is not 0 or 1, a joint between a marker and itself, markers of the wrong
 * kind, unknown indices, capacity full (constraints and the solver's), constraints with an
 * explicit scheme, a planar joint on a 3D body, redundant constraints, violated start
 * positions. After each refused call every output still holds the sentinel pattern and the
 * system is unchanged (c_tests/system_snapshot.h: counts, time, settings, every node state,
 * every load and sensor). */
#include <stdint.h>
#include "mbs.h"
#include "check.h"
#include "system_snapshot.h"

static mbs_system sys, big;


static const double Z2[2] = {0, 0}, Z3[3] = {0, 0, 0}, X2[2] = {1, 0}, Y2[2] = {0, 1};
static const double NAN2[2] = {NAN, 0}, INF3[3] = {0, INFINITY, 0};

/* Items of the test system. */
static uint32_t ground, point, m_ground, m_point, dist, link_node, link_body, m_link, m_link_end,
    revolute, c_ground, c_point, m_ground_rigid;

static void settings_alpha(mbs_system *s, uint32_t scheme) {
    mbs_system_settings st;
    CHECK_STATUS(mbs_system_settings_default(&st), MBS_OK);
    st.scheme = scheme;
    CHECK_STATUS(mbs_system_set_settings(s, &st), MBS_OK);
}

/* A pendulum (1 kg point on a 1 m rod from the origin, released horizontally, g as a force)
 * and a 2D rigid link (2 kg, 0.5 m long, pinned at its end to the ground at (3, 0)). */
static void build(void) {
    double g_point[3] = {0, -9.81, 0};
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    settings_alpha(&sys, MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA);
    CHECK_STATUS(mbs_system_add_object_ground(&sys, Z3, &ground), MBS_OK);
    {
        double r[2] = {1, 0};
        CHECK_STATUS(mbs_system_add_node_point2d(&sys, r, Z2, Z2, &point), MBS_OK);
    }
    {
        uint32_t o;
        CHECK_STATUS(mbs_system_add_object_mass_point_2d(&sys, point, 1.0, &o), MBS_OK);
    }
    CHECK_STATUS(mbs_system_add_marker_body_position(&sys, ground, Z3, &m_ground), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_node_position(&sys, point, &m_point), MBS_OK);
    CHECK_STATUS(mbs_system_add_distance_constraint(&sys, m_ground, m_point, 1.0, &dist), MBS_OK);
    {
        uint32_t l;
        CHECK_STATUS(mbs_system_add_load_force(&sys, m_point, g_point, &l), MBS_OK);
    }
    {
        double ref[3] = {3.25, 0, 0}, com[2] = {0, 0}, left[3] = {-0.25, 0, 0}, pin[3] = {3, 0, 0};
        double inertia = 2.0 / 12.0 * 0.25;
        uint32_t l, mm;
        CHECK_STATUS(mbs_system_add_node_rigid_2d(&sys, ref, Z3, Z3, &link_node), MBS_OK);
        CHECK_STATUS(mbs_system_add_object_rigid_body_2d(&sys, link_node, 2.0, inertia, com, &link_body),
                     MBS_OK);
        CHECK_STATUS(mbs_system_add_marker_body_rigid(&sys, link_body, left, &m_link), MBS_OK);
        CHECK_STATUS(mbs_system_add_marker_body_rigid(&sys, link_body, Z3, &m_link_end), MBS_OK);
        CHECK_STATUS(mbs_system_add_marker_body_rigid(&sys, ground, pin, &m_ground_rigid), MBS_OK);
        CHECK_STATUS(mbs_system_add_revolute_joint_2d(&sys, m_ground_rigid, m_link, &revolute), MBS_OK);
        CHECK_STATUS(mbs_system_add_marker_body_mass(&sys, link_body, &mm), MBS_OK);
        CHECK_STATUS(mbs_system_add_load_mass_proportional(&sys, mm, g_point, &l), MBS_OK);
    }
}

/* The pendulum and the link swing: lengths held, the rod's tension at the bottom-most instant
 * of a horizontal release is 3 m g (energy: v^2 = 2 g L), the link's pin force balances. */
static void test_run(void) {
    mbs_item_ref failed;
    mbs_system_step_report r;
    mbs_newton_report nr;
    double c[3], f[3], p[3], v[3], tension_err = 0, worst_c = 0;
    size_t n;
    int i;
    POISON(nr);
    CHECK_STATUS(mbs_system_newton_report(&sys, &nr), MBS_ERR_NOT_AVAILABLE);
    CHECK(UNTOUCHED(nr));
    CHECK_STATUS(mbs_system_assemble(&sys, &failed), MBS_OK);
    for (i = 0; i < 2000; i++) {
        double v2, t;
        CHECK_STATUS(mbs_system_step(&sys, 5e-4, &r, &failed), MBS_OK);
        CHECK(r.newton_iterations <= 8 && r.halvings == 0);
        CHECK_STATUS(mbs_system_constraint_output(&sys, dist, MBS_OUTPUT_CONSTRAINT_RESIDUAL, c, 3, &n),
                     MBS_OK);
        CHECK(n == 3);
        if (fabs(c[0]) > worst_c) worst_c = fabs(c[0]);
        CHECK_STATUS(mbs_system_constraint_output(&sys, revolute, MBS_OUTPUT_CONSTRAINT_RESIDUAL, c, 3, &n),
                     MBS_OK);
        if (hypot(c[0], c[1]) > worst_c) worst_c = hypot(c[0], c[1]);
        /* tension = m (v^2 / L - g . r / L), L = 1 */
        CHECK_STATUS(mbs_system_node_output(&sys, point, MBS_OUTPUT_POSITION, p, 3, &n), MBS_OK);
        CHECK_STATUS(mbs_system_node_output(&sys, point, MBS_OUTPUT_VELOCITY, v, 3, &n), MBS_OK);
        CHECK_STATUS(mbs_system_constraint_output(&sys, dist, MBS_OUTPUT_FORCE, f, 3, &n), MBS_OK);
        v2 = v[0] * v[0] + v[1] * v[1];
        t = v2 / hypot(p[0], p[1]) + 9.81 * -p[1] / hypot(p[0], p[1]);
        if (fabs(f[0] - t) > tension_err) tension_err = fabs(f[0] - t);
    }
    printf("2000 steps: max residual %.2e m, max |lambda - tension| %.2e N\n", worst_c, tension_err);
    CHECK(worst_c < 1e-9);
    CHECK(tension_err < 2e-2);
    CHECK_STATUS(mbs_system_newton_report(&sys, &nr), MBS_OK);
    CHECK(nr.history_len >= 1 && nr.history_len <= MBS_NEWTON_HISTORY && nr.constraint_residual < 1e-9);
    CHECK(nr.history_capacity == MBS_NEWTON_HISTORY && sizeof nr == 16 + 8 * (2 + MBS_NEWTON_HISTORY));
    {
        mbs_rigid2d_state st;
        CHECK_STATUS(mbs_system_get_rigid2d_state(&sys, link_node, &st), MBS_OK);
        /* the link hangs from its pin: its centre stays 0.25 m from (3, 0) */
        CHECK(fabs(hypot(3.25 + st.q[0] - 3.0, st.q[1]) - 0.25) < 1e-9);
    }
    /* Real-time mode, one Newton update a step: never more, the iterate after it not evaluated
     * (the report's history one entry short), the lengths still held. */
    {
        mbs_system_settings st;
        int updated = 0;
        CHECK_STATUS(mbs_system_get_settings(&sys, &st), MBS_OK);
        CHECK(st.alpha_real_time_updates == 0);
        st.alpha_real_time_updates = 1;
        CHECK_STATUS(mbs_system_set_settings(&sys, &st), MBS_OK);
        CHECK_STATUS(mbs_system_assemble(&sys, &failed), MBS_OK);
        worst_c = 0;
        for (i = 0; i < 1000; i++) {
            CHECK_STATUS(mbs_system_step(&sys, 5e-4, &r, &failed), MBS_OK);
            CHECK(r.newton_iterations <= 1);
            CHECK_STATUS(mbs_system_newton_report(&sys, &nr), MBS_OK);
            CHECK(nr.history_len == 1 && nr.iterations == r.newton_iterations);
            updated += (int)r.newton_iterations;
            CHECK_STATUS(mbs_system_constraint_output(&sys, dist, MBS_OUTPUT_CONSTRAINT_RESIDUAL, c, 3, &n),
                         MBS_OK);
            if (fabs(c[0]) > worst_c) worst_c = fabs(c[0]);
        }
        printf("real-time, 1000 steps: %d updates, max residual %.2e m\n", updated, worst_c);
        CHECK(updated > 900 && worst_c < 1e-9);
        st.alpha_real_time_updates = 0;
        CHECK_STATUS(mbs_system_set_settings(&sys, &st), MBS_OK);
    }
}

static void test_refusals(void) {
    uint32_t out = 0xABABABABu, m_coord = 0, o;
    mbs_item_ref failed;
    mbs_system_settings st;
    double buf[3];
    size_t n;
    /* NULL, NaN, inf, bad values, bad indices. */
    REFUSE(mbs_system_add_node_rigid_2d(NULL, Z3, Z3, Z3, &out), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_rigid_2d(&sys, NULL, Z3, Z3, &out), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_rigid_2d(&sys, Z3, INF3, Z3, &out), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_node_rigid_2d(&sys, Z3, Z3, Z3, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_object_rigid_body_2d(&sys, link_node, -1.0, 1.0, Z2, &out), MBS_ERR_INVALID_MASS);
    REFUSE(mbs_system_add_object_rigid_body_2d(&sys, link_node, 1.0, 0.0, Z2, &out), MBS_ERR_INVALID_INERTIA);
    REFUSE(mbs_system_add_object_rigid_body_2d(&sys, link_node, 1.0, 1.0, NAN2, &out), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_object_rigid_body_2d(&sys, link_node, 1.0, 1.0, Z2, &out), MBS_ERR_NODE_ALREADY_USED);
    REFUSE(mbs_system_add_object_rigid_body_2d(&sys, point, 1.0, 1.0, Z2, &out), MBS_ERR_WRONG_NODE_KIND);
    REFUSE(mbs_system_add_object_rigid_body_2d(&sys, 99, 1.0, 1.0, Z2, &out), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_marker_node_coordinate(&sys, point, 2, &out), MBS_ERR_INVALID_COORDINATE);
    REFUSE(mbs_system_add_marker_node_coordinate(&sys, 99, 0, &out), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_distance_constraint(&sys, m_ground, m_point, NAN, &out), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_distance_constraint(&sys, m_ground, m_point, 0.0, &out), MBS_ERR_INVALID_LENGTH);
    REFUSE(mbs_system_add_distance_constraint(&sys, m_point, m_point, 1.0, &out), MBS_ERR_SAME_MARKER);
    REFUSE(mbs_system_add_distance_constraint(&sys, m_ground, 999, 1.0, &out), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_distance_constraint(&sys, m_ground, m_point, 1.0, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_revolute_joint_2d(&sys, m_link, m_link, &out), MBS_ERR_SAME_MARKER);
    REFUSE(mbs_system_add_revolute_joint_2d(NULL, m_ground, m_point, &out), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_coordinate_constraint(&sys, m_ground, m_point, 1.0, 0.0, &out), MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_prismatic_joint_2d(&sys, m_ground_rigid, m_link_end, Z2, Y2, 1, &out),
           MBS_ERR_INVALID_DIRECTION);
    REFUSE(mbs_system_add_prismatic_joint_2d(&sys, m_ground_rigid, m_link_end, X2, NAN2, 1, &out),
           MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_prismatic_joint_2d(&sys, m_ground_rigid, m_link_end, X2, Y2, 2, &out),
           MBS_ERR_INVALID_ARGUMENT);
    REFUSE(mbs_system_add_prismatic_joint_2d(&sys, m_ground_rigid, m_point, X2, Y2, 1, &out),
           MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_prismatic_joint_2d(&sys, m_ground_rigid, m_link_end, NULL, Y2, 1, &out),
           MBS_ERR_NULL_POINTER);
    CHECK(out == 0xABABABABu);
    /* Outputs. */
    POISON(buf);
    REFUSE(mbs_system_constraint_output(&sys, 99, MBS_OUTPUT_FORCE, buf, 3, &n), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_constraint_output(&sys, dist, MBS_OUTPUT_VELOCITY, buf, 3, &n), MBS_ERR_NOT_AVAILABLE);
    REFUSE(mbs_system_constraint_output(&sys, dist, 999, buf, 3, &n), MBS_ERR_INVALID_ARGUMENT);
    REFUSE(mbs_system_constraint_output(&sys, dist, MBS_OUTPUT_FORCE, buf, 2, &n), MBS_ERR_STORAGE);
    REFUSE(mbs_system_constraint_output(&sys, dist, MBS_OUTPUT_FORCE, NULL, 3, &n), MBS_ERR_NULL_POINTER);
    CHECK(UNTOUCHED(buf));
    {
        mbs_rigid2d_state s2;
        POISON(s2);
        REFUSE(mbs_system_get_rigid2d_state(&sys, point, &s2), MBS_ERR_WRONG_NODE_KIND);
        CHECK(UNTOUCHED(s2));
        memset(&s2, 0, sizeof s2);
        s2.q_t[2] = NAN;
        REFUSE(mbs_system_set_rigid2d_state(&sys, link_node, &s2), MBS_ERR_NOT_FINITE);
        s2.q_t[2] = 0;
        REFUSE(mbs_system_set_rigid2d_state(&sys, point, &s2), MBS_ERR_WRONG_NODE_KIND);
    }
    /* Settings. */
    CHECK_STATUS(mbs_system_get_settings(&sys, &st), MBS_OK);
    {
        mbs_system_settings bad = st;
        bad.alpha_formulation = 7;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_ARGUMENT);
        bad = st, bad.alpha_assembly_solve = 2;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_ARGUMENT);
        bad = st, bad.alpha_rotations = 2;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_ARGUMENT);
        bad = st, bad.alpha_spectral_radius = NAN;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_NOT_FINITE);
        bad = st, bad.alpha_spectral_radius = 1.5;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_SETTING);
        bad = st, bad.alpha_newton_max_iterations = 0;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_SETTING);
        bad = st, bad.alpha_step_halving = 17;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_SETTING);
        bad = st, bad.alpha_real_time_updates = bad.alpha_newton_max_iterations + 1;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_SETTING);
        bad = st, bad.alpha_assembly_tolerance = -1.0;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_SETTING);
        /* Index 3 in the real-time mode at rho_inf = 1: the constraints would drift silently. */
        bad = st, bad.alpha_real_time_updates = 1, bad.alpha_spectral_radius = 1.0;
        bad.alpha_formulation = MBS_FORMULATION_INDEX3;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_SETTING);
        bad.alpha_formulation = MBS_FORMULATION_STABILIZED_INDEX2;
        CHECK_STATUS(mbs_system_set_settings(&sys, &bad), MBS_OK);
        CHECK_STATUS(mbs_system_set_settings(&sys, &st), MBS_OK);
        bad = st, bad.scheme = 3;
        REFUSE(mbs_system_set_settings(&sys, &bad), MBS_ERR_INVALID_ARGUMENT);
    }
    /* A constraint with the kick-drift-kick scheme: refused at assemble, naming it. */
    settings_alpha(&sys, MBS_SYSTEM_SCHEME_KICK_DRIFT_KICK);
    POISON(failed);
    REFUSE(mbs_system_assemble(&sys, &failed), MBS_ERR_NOT_SUPPORTED_BY_SCHEME);
    CHECK(failed.kind == MBS_ITEM_CONSTRAINT && failed.index == dist);
    settings_alpha(&sys, MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA);
    CHECK_STATUS(mbs_system_assemble(&sys, &failed), MBS_OK);
    /* Violated start positions: refused naming the most violated constraint, then projected
     * with the assembly option. */
    {
        mbs_point2d_state p;
        CHECK_STATUS(mbs_system_get_point2d_state(&sys, point, &p), MBS_OK);
        p.q[0] += 0.1;
        CHECK_STATUS(mbs_system_set_point2d_state(&sys, point, &p), MBS_OK);
        POISON(failed);
        REFUSE(mbs_system_step(&sys, 1e-3, NULL, &failed), MBS_ERR_CONSTRAINT_VIOLATED);
        CHECK(failed.kind == MBS_ITEM_CONSTRAINT && failed.index == dist); /* the one at fault */
        CHECK_STATUS(mbs_system_get_settings(&sys, &st), MBS_OK);
        st.alpha_assembly_solve = 1;
        CHECK_STATUS(mbs_system_set_settings(&sys, &st), MBS_OK);
        CHECK_STATUS(mbs_system_step(&sys, 1e-3, NULL, &failed), MBS_OK);
        CHECK_STATUS(mbs_system_constraint_output(&sys, dist, MBS_OUTPUT_CONSTRAINT_RESIDUAL, buf, 3, &n),
                     MBS_OK);
        CHECK(fabs(buf[0]) < 1e-9);
    }
    /* Redundant constraints: the same distance twice is singular at assemble, naming the
     * second copy (the first constraint that makes the set singular). */
    CHECK_STATUS(mbs_system_add_distance_constraint(&sys, m_ground, m_point, 1.0, &o), MBS_OK);
    POISON(failed);
    REFUSE(mbs_system_assemble(&sys, &failed), MBS_ERR_SINGULAR_MATRIX);
    CHECK(failed.kind == MBS_ITEM_CONSTRAINT && failed.index == o);
    (void)m_coord, (void)c_ground, (void)c_point;
}

/* Capacities: 32 constraints; the solver's 64 coordinates plus equations. A 3D rigid body
 * with generalized-alpha. */
static void test_capacities(void) {
    uint32_t i, n, o, m0, m1, out;
    mbs_item_ref failed;
    double r[2] = {1, 0};
    CHECK_STATUS(mbs_system_init(&big), MBS_OK);
    settings_alpha(&big, MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA);
    CHECK_STATUS(mbs_system_add_object_ground(&big, Z3, &o), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_position(&big, o, Z3, &m0), MBS_OK);
    for (i = 0; i < 33; i++) {
        CHECK_STATUS(mbs_system_add_node_point2d(&big, r, Z2, Z2, &n), MBS_OK);
        CHECK_STATUS(mbs_system_add_object_mass_point_2d(&big, n, 1.0, &o), MBS_OK);
        CHECK_STATUS(mbs_system_add_marker_node_position(&big, n, &m1), MBS_OK);
        if (i < MBS_SYSTEM_MAX_CONSTRAINTS)
            CHECK_STATUS(mbs_system_add_distance_constraint(&big, m0, m1, 1.0, &out), MBS_OK);
    }
    CHECK_STATUS(mbs_system_add_distance_constraint(&big, m0, m1, 1.0, &out), MBS_ERR_CAPACITY_FULL);
    POISON(failed);
    CHECK_STATUS(mbs_system_assemble(&big, &failed), MBS_ERR_CAPACITY_FULL);
    CHECK(failed.kind == MBS_ITEM_SYSTEM);
    /* a 3D rigid body with generalized-alpha (Euler parameters): free fall is exact for the
       scheme (constant acceleration); a planar joint cannot hold it */
    {
        mbs_mass_properties mp;
        mbs_created_body cb;
        mbs_rigid_state st;
        const double q1[4] = {1, 0, 0, 0}, g[3] = {0, -9.81, 0};
        uint32_t m2, k;
        CHECK_STATUS(mbs_system_init(&big), MBS_OK);
        settings_alpha(&big, MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA);
        memset(&mp, 0, sizeof mp);
        mp.mass = 1, mp.inertia[0] = mp.inertia[4] = mp.inertia[8] = 1;
        CHECK_STATUS(mbs_system_create_rigid_body(&big, &mp, Z3, q1, Z3, Z3, g, &cb), MBS_OK);
        CHECK_STATUS(mbs_system_assemble(&big, NULL), MBS_OK);
        for (k = 0; k < 100; k++)
            CHECK_STATUS(mbs_system_step(&big, 1e-3, NULL, NULL), MBS_OK);
        CHECK_STATUS(mbs_system_get_rigid_state(&big, cb.node, &st), MBS_OK);
        CHECK(fabs(st.position[1] + 0.5 * 9.81 * 0.01) < 1e-12 && fabs(st.velocity[1] + 0.981) < 1e-12);
        CHECK_STATUS(mbs_system_add_node_ground(&big, Z3, &n), MBS_OK);
        CHECK_STATUS(mbs_system_add_marker_node_position(&big, n, &m1), MBS_OK);
        CHECK_STATUS(mbs_system_add_marker_body_position(&big, cb.object, Z3, &m2), MBS_OK);
        CHECK_STATUS(mbs_system_add_revolute_joint_2d(&big, m1, m2, &out), MBS_OK);
        POISON(failed);
        CHECK_STATUS(mbs_system_assemble(&big, &failed), MBS_ERR_INVALID_MARKER);
        CHECK(failed.kind == MBS_ITEM_CONSTRAINT && failed.index == out);
    }
}

int main(void) {
    build();
    test_run();
    test_refusals();
    test_capacities();
    printf("test_constraints: %d failures\n", failures);
    return failures != 0;
}
