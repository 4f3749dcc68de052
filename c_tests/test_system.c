/* C tests of the system API: a small system (ground, mass point on a spring, rigid body with
 * gravity, a user load, sensors) against closed forms, and every refusal of every
 * mbs_system_* entry point: NULL pointers, NaN and inf, capacity full (each list filled),
 * unknown indices, dt <= 0, not assembled, marker/body mismatch, same marker, wrong node kind,
 * storage not initialized. After each refused call every output still holds the sentinel
 * pattern and the system is unchanged (counts, assembled flag, time, settings, every node
 * state, every load's vector and every sensor buffer's bookkeeping compared before/after). */
#include <stdint.h>
#include "mbs.h"
#include "check.h"
#include "system_snapshot.h"

static mbs_system sys, sys2;


static const double Z3[3] = {0, 0, 0}, Z2[2] = {0, 0}, Q1[4] = {1, 0, 0, 0};
static const double NAN3[3] = {0, NAN, 0}, INF3[3] = {INFINITY, 0, 0}, NAN2[2] = {NAN, 0};

/* Items of the test system. */
static uint32_t ground, m_ground, m_mass, m_rigid_pos, m_rigid, m_rigid_mass, spring, force_load,
    user_load, s_pos, s_load;
static mbs_created_body mass, rigid;
static double rows_pos[8 * 4], rows_load[8 * 4];
static double user_scale = 2.0;

/* A user force f = (scale t, 0, 0) N. */
static void user_force(void *ctx, double t, double *out) {
    out[0] = *(const double *)ctx * t;
}
static void nan_force(void *ctx, double t, double *out) {
    (void)ctx, (void)t;
    out[0] = NAN;
}

static mbs_mass_properties unit_body(void) {
    mbs_mass_properties mp;
    memset(&mp, 0, sizeof mp);
    mp.mass = 2.0;
    mp.inertia[0] = mp.inertia[4] = mp.inertia[8] = 0.1;
    return mp;
}

static void build(void) {
    const double ref[2] = {1.0, 0.0}, g[3] = {0, 0, -9.81}, f[3] = {0, 3.0, 0};
    const double pos[3] = {0, 0, 2.0};
    mbs_mass_properties mp = unit_body();
    mbs_sensor_spec spec;
    CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
    CHECK_STATUS(mbs_system_create_ground(&sys, Z3, &ground), MBS_OK);
    CHECK_STATUS(mbs_system_create_mass_point(&sys, 1.0, ref, Z2, Z2, NULL, &mass), MBS_OK);
    CHECK(mass.mass_marker == MBS_NO_INDEX && mass.gravity_load == MBS_NO_INDEX);
    CHECK_STATUS(mbs_system_create_rigid_body(&sys, &mp, pos, Q1, Z3, Z3, g, &rigid), MBS_OK);
    CHECK(rigid.node == 1 && rigid.object == 2 && rigid.mass_marker == 0 && rigid.gravity_load == 0);
    m_rigid_mass = rigid.mass_marker;
    CHECK_STATUS(mbs_system_add_marker_body_position(&sys, ground, Z3, &m_ground), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_node_position(&sys, mass.node, &m_mass), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_position(&sys, rigid.object, Z3, &m_rigid_pos), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_rigid(&sys, rigid.object, Z3, &m_rigid), MBS_OK);
    CHECK_STATUS(mbs_system_add_spring_damper(&sys, m_ground, m_mass, 100.0, 0.0, 1.0, 0.0, &spring),
                 MBS_OK);
    CHECK_STATUS(mbs_system_add_load_force(&sys, m_rigid_pos, f, &force_load), MBS_OK);
    CHECK_STATUS(mbs_system_add_load_user(&sys, m_mass, MBS_USER_LOAD_FORCE, user_force, &user_scale,
                                          &user_load),
                 MBS_OK);
    memset(&spec, 0, sizeof spec);
    spec.kind = MBS_SENSOR_NODE, spec.index = rigid.node, spec.variable = MBS_OUTPUT_POSITION;
    CHECK_STATUS(mbs_system_add_sensor(&sys, &spec, rows_pos, 8, &s_pos), MBS_OK);
    spec.kind = MBS_SENSOR_LOAD, spec.index = user_load;
    CHECK_STATUS(mbs_system_add_sensor(&sys, &spec, rows_load, 8, &s_load), MBS_OK);
}

static void test_results(void) {
    mbs_item_ref item;
    mbs_system_step_report r;
    mbs_system_counts c;
    mbs_sensor_info info;
    mbs_rigid_state rs;
    mbs_point2d_state ps;
    double out[9], t, v[3];
    size_t n;
    int i;
    build();
    CHECK_STATUS(mbs_system_get_counts(&sys, &c), MBS_OK);
    CHECK(c.nodes == 2 && c.objects == 3 && c.markers == 5 && c.loads == 3 && c.connectors == 1 &&
          c.sensors == 2 && !c.assembled);
    CHECK_STATUS(mbs_system_assemble(&sys, &item), MBS_OK);
    CHECK_STATUS(mbs_system_get_counts(&sys, &c), MBS_OK);
    CHECK(c.assembled);
    /* free fall with a sideways force on the rigid body: z = 2 - g t^2/2, y = (3/2) t^2/2,
     * exact in the kick-drift-kick scheme (constant forces on the COM) */
    for (i = 0; i < 4; i++) {
        CHECK_STATUS(mbs_system_step(&sys, 0.01, &r, &item), MBS_OK);
        CHECK(r.status == MBS_OK && r.force_evaluations == 2 && r.substeps == 1 &&
              r.sensor_rows_dropped == 0);
    }
    CHECK_STATUS(mbs_system_time(&sys, &t), MBS_OK);
    CHECK(fabs(t - 0.04) < 1e-15);
    CHECK_STATUS(mbs_system_get_rigid_state(&sys, rigid.node, &rs), MBS_OK);
    CHECK(fabs(rs.position[2] - (2.0 - 9.81 * t * t / 2.0)) < 1e-14);
    CHECK(fabs(rs.position[1] - 1.5 * t * t / 2.0) < 1e-15);
    CHECK_STATUS(mbs_system_sensor_info(&sys, s_pos, &info), MBS_OK);
    CHECK(info.rows == 4 && info.row_len == 4 && info.capacity == 8 && info.dropped_rows == 0);
    CHECK(rows_pos[0] == 0.01 && fabs(rows_pos[3 * 4 + 3] - rs.position[2]) < 1e-15);
    /* the load sensor records the callback's value at each step's end time */
    CHECK(fabs(rows_load[1] - 2.0 * 0.01) < 1e-15 && fabs(rows_load[3 * 4 + 1] - 2.0 * 0.04) < 1e-15);
    CHECK_STATUS(mbs_system_load_value(&sys, user_load, v), MBS_OK);
    CHECK(fabs(v[0] - 0.08) < 1e-15);
    CHECK_STATUS(mbs_system_object_output(&sys, rigid.object, MBS_OUTPUT_VELOCITY, NULL, out, 9, &n),
                 MBS_OK);
    CHECK(n == 3 && fabs(out[2] + 9.81 * t) < 1e-13);
    CHECK_STATUS(mbs_system_marker_output(&sys, m_rigid, MBS_OUTPUT_ROTATION_MATRIX, out, 9, &n),
                 MBS_OK);
    CHECK(n == 9 && out[0] == 1.0 && out[4] == 1.0 && out[8] == 1.0);
    CHECK_STATUS(mbs_system_node_output(&sys, mass.node, MBS_OUTPUT_POSITION, out, 3, &n), MBS_OK);
    CHECK(n == 3 && out[1] == 0.0);
    /* set a state: read back exactly */
    CHECK_STATUS(mbs_system_get_point2d_state(&sys, mass.node, &ps), MBS_OK);
    ps.q[0] = 0.25, ps.q_t[1] = -1.0;
    CHECK_STATUS(mbs_system_set_point2d_state(&sys, mass.node, &ps), MBS_OK);
    CHECK_STATUS(mbs_system_node_output(&sys, mass.node, MBS_OUTPUT_POSITION, out, 3, &n), MBS_OK);
    CHECK(out[0] == 1.25);
    /* reset: time 0, initial states, sensor buffers empty */
    CHECK_STATUS(mbs_system_reset(&sys), MBS_OK);
    CHECK_STATUS(mbs_system_time(&sys, &t), MBS_OK);
    CHECK(t == 0.0);
    CHECK_STATUS(mbs_system_sensor_rows(&sys, s_pos, &n), MBS_OK);
    CHECK(n == 0);
    /* a full buffer warns, the step is taken, the row is counted as dropped */
    for (i = 0; i < 8; i++) CHECK_STATUS(mbs_system_step(&sys, 0.01, NULL, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_step(&sys, 0.01, &r, NULL), MBS_WARN_SENSOR_BUFFER_FULL);
    CHECK(r.status == MBS_WARN_SENSOR_BUFFER_FULL && r.sensor_rows_dropped == 2);
    CHECK_STATUS(mbs_system_time(&sys, &t), MBS_OK);
    CHECK(fabs(t - 0.09) < 1e-15);
    CHECK_STATUS(mbs_system_sensor_info(&sys, s_pos, &info), MBS_OK);
    CHECK(info.rows == 8 && info.dropped_rows == 1);
    CHECK_STATUS(mbs_system_sensor_clear(&sys, s_pos), MBS_OK);
    CHECK_STATUS(mbs_system_step(&sys, 0.01, &r, NULL), MBS_WARN_SENSOR_BUFFER_FULL);
    CHECK(r.sensor_rows_dropped == 1); /* only the load sensor's buffer is still full */
    CHECK_STATUS(mbs_system_sensor_rows(&sys, s_pos, &n), MBS_OK);
    CHECK(n == 1 && fabs(rows_pos[0] - 0.1) < 1e-15);
}

static void test_storage_refusals(void) {
    static mbs_system raw;
    double t = 7.0;
    mbs_system_counts c;
    memset(&raw, SENTINEL, sizeof raw);
    POISON(c);
    CHECK_STATUS(mbs_system_init(NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_time(&raw, &t), MBS_ERR_NOT_INITIALIZED);
    CHECK_STATUS(mbs_system_get_counts(&raw, &c), MBS_ERR_NOT_INITIALIZED);
    CHECK_STATUS(mbs_system_step(&raw, 0.01, NULL, NULL), MBS_ERR_NOT_INITIALIZED);
    CHECK_STATUS(mbs_system_reset(&raw), MBS_ERR_NOT_INITIALIZED);
    CHECK_STATUS(mbs_system_assemble(&raw, NULL), MBS_ERR_NOT_INITIALIZED);
    CHECK_STATUS(mbs_system_add_node_ground(&raw, Z3, NULL), MBS_ERR_NOT_INITIALIZED);
    CHECK(t == 7.0 && UNTOUCHED(c) && untouched_bytes(&raw, sizeof raw));
    CHECK_STATUS(mbs_system_time(NULL, &t), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_reset(NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_get_counts(NULL, &c), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_init(&raw), MBS_OK);
    CHECK_STATUS(mbs_system_time(&raw, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_get_counts(&raw, NULL), MBS_ERR_NULL_POINTER);
    CHECK(sizeof(mbs_system) == MBS_SYSTEM_SIZE && MBS_SYSTEM_SIZE % MBS_SYSTEM_ALIGN == 0);
}

static void test_settings_refusals(void) {
    mbs_system_settings s, d, out;
    CHECK_STATUS(mbs_system_settings_default(&d), MBS_OK);
    CHECK(d.scheme == MBS_SYSTEM_SCHEME_KICK_DRIFT_KICK &&
          d.rigid_scheme == MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE && !d.substep &&
          d.max_rotation_per_step == 0.5 && d.max_substeps == 1024 && d.damping_corrections == 1);
    CHECK_STATUS(mbs_system_settings_default(NULL), MBS_ERR_NULL_POINTER);
    s = d, s.scheme = 3;
    REFUSE(mbs_system_set_settings(&sys, &s), MBS_ERR_INVALID_ARGUMENT);
    s = d, s.rigid_scheme = 5;
    REFUSE(mbs_system_set_settings(&sys, &s), MBS_ERR_INVALID_ARGUMENT);
    s = d, s.substep = 2; /* a flag is 0 or 1: a byte of 2 is refused, not undefined */
    REFUSE(mbs_system_set_settings(&sys, &s), MBS_ERR_INVALID_ARGUMENT);
    s = d, s.max_rotation_per_step = NAN;
    REFUSE(mbs_system_set_settings(&sys, &s), MBS_ERR_NOT_FINITE);
    s = d, s.max_rotation_per_step = 0.0;
    REFUSE(mbs_system_set_settings(&sys, &s), MBS_ERR_INVALID_SETTING);
    s = d, s.max_substeps = 0;
    REFUSE(mbs_system_set_settings(&sys, &s), MBS_ERR_INVALID_SETTING);
    s = d, s.damping_corrections = 17;
    REFUSE(mbs_system_set_settings(&sys, &s), MBS_ERR_INVALID_SETTING);
    REFUSE(mbs_system_set_settings(&sys, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_set_settings(NULL, &d), MBS_ERR_NULL_POINTER);
    POISON(out);
    CHECK_STATUS(mbs_system_get_settings(NULL, &out), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_get_settings(&sys, NULL), MBS_ERR_NULL_POINTER);
    CHECK(UNTOUCHED(out));
    s = d, s.scheme = MBS_SYSTEM_SCHEME_HELD_LOADS, s.rigid_scheme = MBS_RIGID_SCHEME_RK4;
    CHECK_STATUS(mbs_system_set_settings(&sys, &s), MBS_OK);
    CHECK_STATUS(mbs_system_get_settings(&sys, &out), MBS_OK);
    CHECK(out.scheme == MBS_SYSTEM_SCHEME_HELD_LOADS && out.rigid_scheme == MBS_RIGID_SCHEME_RK4);
    CHECK_STATUS(mbs_system_set_settings(&sys, &d), MBS_OK);
}

static void test_add_refusals(void) {
    uint32_t idx = 0xABABABABu;
    const double ref[2] = {1.0, 0.0}, bad_q[4] = {2, 0, 0, 0};
    mbs_mass_properties mp = unit_body(), bad = unit_body();
    mbs_created_body cb;
    mbs_cylinder cyl;
    mbs_body_start st;
    const double r[3] = {0.5, 0, 0};
    POISON(cb);
    /* nodes */
    REFUSE(mbs_system_add_node_point2d(NULL, ref, Z2, Z2, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_point2d(&sys, NULL, Z2, Z2, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_point2d(&sys, ref, NULL, Z2, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_point2d(&sys, ref, Z2, NULL, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_point2d(&sys, ref, Z2, Z2, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_point2d(&sys, NAN2, Z2, Z2, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_node_point2d(&sys, ref, Z2, NAN2, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_node_ground(&sys, NULL, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_ground(&sys, INF3, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_node_ground(&sys, Z3, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_rigid(&sys, Z3, Q1, Z3, NULL, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_node_rigid(&sys, NAN3, Q1, Z3, Z3, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_node_rigid(&sys, Z3, Q1, Z3, INF3, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_node_rigid(&sys, Z3, bad_q, Z3, Z3, &idx), MBS_ERR_INVALID_ORIENTATION);
    /* objects */
    REFUSE(mbs_system_add_object_ground(&sys, NAN3, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_object_ground(&sys, NULL, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_object_mass_point_2d(&sys, mass.node, 1.0, &idx), MBS_ERR_NODE_ALREADY_USED);
    REFUSE(mbs_system_add_object_mass_point_2d(&sys, rigid.node, 1.0, &idx), MBS_ERR_WRONG_NODE_KIND);
    REFUSE(mbs_system_add_object_mass_point_2d(&sys, 99, 1.0, &idx), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_object_mass_point_2d(&sys, 0x10000u, 1.0, &idx), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_object_mass_point_2d(&sys, mass.node, NAN, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_object_mass_point_2d(&sys, mass.node, -1.0, &idx), MBS_ERR_INVALID_MASS);
    REFUSE(mbs_system_add_object_mass_point_2d(&sys, mass.node, 1.0, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_object_rigid_body(&sys, rigid.node, &mp, &idx), MBS_ERR_NODE_ALREADY_USED);
    REFUSE(mbs_system_add_object_rigid_body(&sys, mass.node, &mp, &idx), MBS_ERR_WRONG_NODE_KIND);
    REFUSE(mbs_system_add_object_rigid_body(&sys, rigid.node, NULL, &idx), MBS_ERR_NULL_POINTER);
    bad.inertia[0] = 10.0; /* violates the triangle inequality */
    REFUSE(mbs_system_add_object_rigid_body(&sys, rigid.node, &bad, &idx), MBS_ERR_INVALID_INERTIA);
    bad = unit_body(), bad.mass = 0.0;
    REFUSE(mbs_system_add_object_rigid_body(&sys, rigid.node, &bad, &idx), MBS_ERR_INVALID_MASS);
    bad = unit_body(), bad.com[1] = INFINITY;
    REFUSE(mbs_system_add_object_rigid_body(&sys, rigid.node, &bad, &idx), MBS_ERR_NOT_FINITE);
    /* markers */
    REFUSE(mbs_system_add_marker_node_position(&sys, 9, &idx), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_marker_node_position(&sys, 0, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_marker_body_position(&sys, 9, Z3, &idx), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_marker_body_position(&sys, 0, NAN3, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_marker_body_position(&sys, 0, NULL, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_marker_body_rigid(&sys, mass.object, Z3, &idx), MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_marker_body_rigid(&sys, rigid.object, INF3, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_marker_body_rigid(&sys, 9, Z3, &idx), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_marker_body_mass(&sys, ground, &idx), MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_marker_body_mass(&sys, 9, &idx), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_marker_body_mass(&sys, rigid.object, NULL), MBS_ERR_NULL_POINTER);
    /* loads: the marker must fit the load */
    REFUSE(mbs_system_add_load_force(&sys, m_rigid_mass, Z3, &idx), MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_load_force(&sys, 99, Z3, &idx), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_load_force(&sys, m_mass, NAN3, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_load_force(&sys, m_mass, NULL, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_load_torque(&sys, m_rigid_pos, Z3, false, &idx), MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_load_torque(&sys, m_rigid, INF3, true, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_load_torque(&sys, m_rigid, Z3, true, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_load_torque(&sys, m_rigid, Z3, 2, &idx), MBS_ERR_INVALID_ARGUMENT);
    REFUSE(mbs_system_add_load_mass_proportional(&sys, m_mass, Z3, &idx), MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_load_mass_proportional(&sys, m_rigid_mass, NAN3, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_load_user(&sys, m_mass, MBS_USER_LOAD_FORCE, NULL, NULL, &idx),
           MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_load_user(&sys, m_mass, 4, user_force, NULL, &idx), MBS_ERR_INVALID_ARGUMENT);
    REFUSE(mbs_system_add_load_user(&sys, m_mass, MBS_USER_LOAD_TORQUE_LOCAL, user_force, NULL, &idx),
           MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_load_user(&sys, 99, MBS_USER_LOAD_FORCE, user_force, NULL, &idx),
           MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_load_user(&sys, m_mass, MBS_USER_LOAD_FORCE, user_force, NULL, NULL),
           MBS_ERR_NULL_POINTER);
    /* replacing a load's vector */
    REFUSE(mbs_system_set_load_vector(&sys, force_load, NAN3), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_set_load_vector(&sys, force_load, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_set_load_vector(&sys, 99, Z3), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_set_load_vector(&sys, user_load, Z3), MBS_ERR_INVALID_ARGUMENT);
    REFUSE(mbs_system_set_load_vector(NULL, force_load, Z3), MBS_ERR_NULL_POINTER);
    /* connectors */
    REFUSE(mbs_system_add_spring_damper(&sys, m_mass, m_mass, 1, 0, 1, 0, &idx), MBS_ERR_SAME_MARKER);
    REFUSE(mbs_system_add_spring_damper(&sys, m_mass, 99, 1, 0, 1, 0, &idx), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_add_spring_damper(&sys, m_mass, m_rigid_mass, 1, 0, 1, 0, &idx),
           MBS_ERR_INVALID_MARKER);
    REFUSE(mbs_system_add_spring_damper(&sys, m_ground, m_mass, -1, 0, 1, 0, &idx),
           MBS_ERR_INVALID_STIFFNESS_DAMPING);
    REFUSE(mbs_system_add_spring_damper(&sys, m_ground, m_mass, 1, -1, 1, 0, &idx),
           MBS_ERR_INVALID_STIFFNESS_DAMPING);
    REFUSE(mbs_system_add_spring_damper(&sys, m_ground, m_mass, 1, 0, -1, 0, &idx),
           MBS_ERR_INVALID_LENGTH);
    REFUSE(mbs_system_add_spring_damper(&sys, m_ground, m_mass, NAN, 0, 1, 0, &idx),
           MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_spring_damper(&sys, m_ground, m_mass, 1, 0, 1, INFINITY, &idx),
           MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_add_spring_damper(&sys, m_ground, m_mass, 1, 0, 1, 0, NULL),
           MBS_ERR_NULL_POINTER);
    {
        const double neg[3] = {1, -1, 1};
        REFUSE(mbs_system_add_cartesian_spring_damper(&sys, m_rigid, m_rigid, Z3, Z3, Z3, &idx),
               MBS_ERR_SAME_MARKER);
        REFUSE(mbs_system_add_cartesian_spring_damper(&sys, m_ground, m_rigid, neg, Z3, Z3, &idx),
               MBS_ERR_INVALID_STIFFNESS_DAMPING);
        REFUSE(mbs_system_add_cartesian_spring_damper(&sys, m_ground, m_rigid, Z3, NAN3, Z3, &idx),
               MBS_ERR_NOT_FINITE);
        REFUSE(mbs_system_add_cartesian_spring_damper(&sys, m_ground, m_rigid, Z3, Z3, NULL, &idx),
               MBS_ERR_NULL_POINTER);
        REFUSE(mbs_system_add_cartesian_spring_damper(&sys, m_ground, 99, Z3, Z3, Z3, &idx),
               MBS_ERR_UNKNOWN_INDEX);
    }
    /* Create* helpers */
    REFUSE(mbs_system_create_ground(&sys, NAN3, &idx), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_create_mass_point(&sys, 0.0, ref, Z2, Z2, NULL, &cb), MBS_ERR_INVALID_MASS);
    REFUSE(mbs_system_create_mass_point(&sys, 1.0, ref, Z2, Z2, NAN3, &cb), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_create_mass_point(&sys, 1.0, NULL, Z2, Z2, NULL, &cb), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_create_mass_point(&sys, 1.0, ref, Z2, Z2, NULL, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_create_rigid_body(&sys, &mp, Z3, bad_q, Z3, Z3, NULL, &cb),
           MBS_ERR_INVALID_ORIENTATION);
    REFUSE(mbs_system_create_rigid_body(&sys, NULL, Z3, Q1, Z3, Z3, NULL, &cb), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_create_rigid_body(&sys, &mp, Z3, Q1, Z3, INF3, NULL, &cb), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_cylinder_default(&cyl, r), MBS_OK);
    CHECK_STATUS(mbs_body_start_default(&st), MBS_OK);
    cyl.density = -1.0;
    REFUSE(mbs_system_create_body_cylinder(&sys, &cyl, &st, NULL, &cb), MBS_ERR_INVALID_DENSITY);
    cyl.density = 7700.0, st.sequence_start[1] = 1;
    REFUSE(mbs_system_create_body_cylinder(&sys, &cyl, &st, NULL, &cb), MBS_ERR_INVALID_SEQUENCE);
    st.sequence_start[1] = 2;
    REFUSE(mbs_system_create_body_cylinder(&sys, NULL, &st, NULL, &cb), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_create_body_cylinder(&sys, &cyl, &st, NAN3, &cb), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_create_body_cylinder(&sys, &cyl, &st, NULL, NULL), MBS_ERR_NULL_POINTER);
    CHECK(idx == 0xABABABABu && UNTOUCHED(cb));
}

static void test_sensor_refusals(void) {
    mbs_sensor_spec spec, ok;
    uint32_t idx = 0xABABABABu;
    mbs_sensor_info info;
    double out[9];
    size_t n = 12345, rows = 12345;
    memset(&ok, 0, sizeof ok);
    ok.kind = MBS_SENSOR_BODY, ok.index = rigid.object, ok.variable = MBS_OUTPUT_VELOCITY;
    spec = ok, spec.kind = 5;
    REFUSE(mbs_system_add_sensor(&sys, &spec, NULL, 0, &idx), MBS_ERR_INVALID_ARGUMENT);
    spec = ok, spec.variable = UNKNOWN_OUTPUT;
    REFUSE(mbs_system_add_sensor(&sys, &spec, NULL, 0, &idx), MBS_ERR_INVALID_ARGUMENT);
    spec = ok, spec.local_position[2] = NAN;
    REFUSE(mbs_system_add_sensor(&sys, &spec, NULL, 0, &idx), MBS_ERR_NOT_FINITE);
    spec = ok, spec.index = 99;
    REFUSE(mbs_system_add_sensor(&sys, &spec, NULL, 0, &idx), MBS_ERR_UNKNOWN_INDEX);
    spec = ok, spec.variable = MBS_OUTPUT_ANGULAR_ACCELERATION, spec.index = mass.object;
    REFUSE(mbs_system_add_sensor(&sys, &spec, NULL, 0, &idx), MBS_ERR_NOT_AVAILABLE);
    spec = ok, spec.index = mass.object, spec.variable = MBS_OUTPUT_KINETIC_ENERGY;
    spec.local_position[0] = 1.0;
    REFUSE(mbs_system_add_sensor(&sys, &spec, NULL, 0, &idx), MBS_ERR_INVALID_LOCAL_POSITION);
    REFUSE(mbs_system_add_sensor(&sys, &ok, NULL, 4, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_sensor(&sys, &ok, out, SIZE_MAX / 2, &idx), MBS_ERR_STORAGE);
    REFUSE(mbs_system_add_sensor(&sys, NULL, NULL, 0, &idx), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_sensor(&sys, &ok, NULL, 0, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_add_sensor(NULL, &ok, NULL, 0, &idx), MBS_ERR_NULL_POINTER);
    CHECK(idx == 0xABABABABu);
    POISON(info);
    REFUSE(mbs_system_sensor_info(&sys, 2, &info), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_sensor_info(&sys, 0, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_sensor_rows(&sys, 0xFFFFFFFFu, &rows), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_sensor_rows(NULL, 0, &rows), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_sensor_clear(&sys, 2), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_sensor_clear(NULL, 0), MBS_ERR_NULL_POINTER);
    POISON(out);
    REFUSE(mbs_system_sensor_value(&sys, 2, out, 9, &n), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_sensor_value(&sys, s_pos, out, 2, &n), MBS_ERR_STORAGE);
    REFUSE(mbs_system_sensor_value(&sys, s_pos, NULL, 9, &n), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_sensor_value(&sys, s_pos, out, 9, NULL), MBS_ERR_NULL_POINTER);
    CHECK(UNTOUCHED(info) && UNTOUCHED(out) && n == 12345 && rows == 12345);
}

static void test_output_and_state_refusals(void) {
    double out[9], v[3];
    size_t n = 12345;
    mbs_rigid_state rs, bad_rs;
    mbs_point2d_state ps, bad_ps;
    POISON(out), POISON(v), POISON(rs), POISON(ps);
    REFUSE(mbs_system_node_output(&sys, 9, MBS_OUTPUT_POSITION, out, 9, &n), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_node_output(&sys, mass.node, UNKNOWN_OUTPUT, out, 9, &n), MBS_ERR_INVALID_ARGUMENT);
    REFUSE(mbs_system_node_output(&sys, mass.node, MBS_OUTPUT_ROTATION_MATRIX, out, 9, &n),
           MBS_ERR_NOT_AVAILABLE);
    REFUSE(mbs_system_node_output(&sys, rigid.node, MBS_OUTPUT_ROTATION_MATRIX, out, 8, &n),
           MBS_ERR_STORAGE);
    REFUSE(mbs_system_node_output(&sys, rigid.node, MBS_OUTPUT_POSITION, NULL, 9, &n),
           MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_node_output(&sys, rigid.node, MBS_OUTPUT_POSITION, out, 9, NULL),
           MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_node_output(NULL, rigid.node, MBS_OUTPUT_POSITION, out, 9, &n),
           MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_object_output(&sys, 9, MBS_OUTPUT_POSITION, Z3, out, 9, &n),
           MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_object_output(&sys, rigid.object, MBS_OUTPUT_POSITION, NAN3, out, 9, &n),
           MBS_ERR_NOT_FINITE);
    {
        const double off[3] = {1, 0, 0};
        REFUSE(mbs_system_object_output(&sys, mass.object, MBS_OUTPUT_KINETIC_ENERGY, off, out, 9, &n),
               MBS_ERR_INVALID_LOCAL_POSITION);
    }
    REFUSE(mbs_system_object_output(&sys, mass.object, MBS_OUTPUT_ANGULAR_ACCELERATION, Z3, out, 9, &n),
           MBS_ERR_NOT_AVAILABLE);
    REFUSE(mbs_system_marker_output(&sys, 99, MBS_OUTPUT_POSITION, out, 9, &n), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_marker_output(&sys, m_mass, MBS_OUTPUT_ROTATION_MATRIX, out, 9, &n),
           MBS_ERR_NOT_AVAILABLE);
    REFUSE(mbs_system_marker_output(&sys, m_mass, MBS_OUTPUT_POSITION, out, 2, &n), MBS_ERR_STORAGE);
    REFUSE(mbs_system_load_value(&sys, 99, v), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_load_value(&sys, force_load, NULL), MBS_ERR_NULL_POINTER);
    CHECK(UNTOUCHED(out) && UNTOUCHED(v) && n == 12345);
    /* node states */
    REFUSE(mbs_system_get_rigid_state(&sys, mass.node, &rs), MBS_ERR_WRONG_NODE_KIND);
    REFUSE(mbs_system_get_rigid_state(&sys, 9, &rs), MBS_ERR_UNKNOWN_INDEX);
    REFUSE(mbs_system_get_rigid_state(&sys, rigid.node, NULL), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_get_point2d_state(&sys, rigid.node, &ps), MBS_ERR_WRONG_NODE_KIND);
    REFUSE(mbs_system_get_point2d_state(&sys, 9, &ps), MBS_ERR_UNKNOWN_INDEX);
    CHECK(UNTOUCHED(rs) && UNTOUCHED(ps));
    CHECK_STATUS(mbs_system_get_rigid_state(&sys, rigid.node, &bad_rs), MBS_OK);
    REFUSE(mbs_system_set_rigid_state(&sys, mass.node, &bad_rs), MBS_ERR_WRONG_NODE_KIND);
    REFUSE(mbs_system_set_rigid_state(&sys, 9, &bad_rs), MBS_ERR_UNKNOWN_INDEX);
    bad_rs.orientation[0] = 0.5;
    REFUSE(mbs_system_set_rigid_state(&sys, rigid.node, &bad_rs), MBS_ERR_INVALID_ORIENTATION);
    bad_rs.orientation[0] = 1.0, bad_rs.velocity[1] = NAN;
    REFUSE(mbs_system_set_rigid_state(&sys, rigid.node, &bad_rs), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_set_rigid_state(&sys, rigid.node, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_get_point2d_state(&sys, mass.node, &bad_ps), MBS_OK);
    REFUSE(mbs_system_set_point2d_state(&sys, rigid.node, &bad_ps), MBS_ERR_WRONG_NODE_KIND);
    bad_ps.q_t[0] = INFINITY;
    REFUSE(mbs_system_set_point2d_state(&sys, mass.node, &bad_ps), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_set_point2d_state(&sys, mass.node, NULL), MBS_ERR_NULL_POINTER);
}

static void test_solve_refusals(void) {
    mbs_system_step_report r;
    mbs_system_solve_report sr;
    mbs_item_ref item;
    mbs_simulation_settings sim, bad;
    uint32_t nl, extra;
    POISON(r), POISON(sr), POISON(item);
    CHECK_STATUS(mbs_simulation_settings_default(&sim), MBS_OK);
    sim.solver_type = MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME;
    sim.number_of_steps = 4, sim.end_time = 0.04;
    /* dt */
    REFUSE(mbs_system_step(&sys, 0.0, &r, &item), MBS_ERR_INVALID_TIME_STEP);
    REFUSE(mbs_system_step(&sys, -1e-3, &r, &item), MBS_ERR_INVALID_TIME_STEP);
    REFUSE(mbs_system_step(&sys, NAN, &r, &item), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_step(&sys, INFINITY, &r, &item), MBS_ERR_NOT_FINITE);
    REFUSE(mbs_system_step(NULL, 0.01, &r, &item), MBS_ERR_NULL_POINTER);
    /* settings of a solve */
    bad = sim, bad.end_time = 0.0;
    REFUSE(mbs_system_solve_dynamic(&sys, &bad, &sr, &item), MBS_ERR_INVALID_SETTING);
    bad = sim, bad.number_of_steps = 0;
    REFUSE(mbs_system_solve_dynamic(&sys, &bad, &sr, &item), MBS_ERR_INVALID_SETTING);
    bad = sim, bad.end_time = NAN;
    REFUSE(mbs_system_solve_dynamic(&sys, &bad, &sr, &item), MBS_ERR_NOT_FINITE);
    bad = sim, bad.solver_type = 7;
    REFUSE(mbs_system_solve_dynamic(&sys, &bad, &sr, &item), MBS_ERR_INVALID_ARGUMENT);
    REFUSE(mbs_system_solve_dynamic(&sys, NULL, &sr, &item), MBS_ERR_NULL_POINTER);
    REFUSE(mbs_system_solve_dynamic(NULL, &sim, &sr, &item), MBS_ERR_NULL_POINTER);
    CHECK(UNTOUCHED(r) && UNTOUCHED(sr) && UNTOUCHED(item));
    /* not assembled: any add un-assembles; step and solve name the system */
    CHECK_STATUS(mbs_system_add_marker_node_position(&sys, rigid.node, &extra), MBS_OK);
    REFUSE(mbs_system_step(&sys, 0.01, &r, &item), MBS_ERR_NOT_ASSEMBLED);
    CHECK(item.kind == MBS_ITEM_SYSTEM && item.index == 0 && UNTOUCHED(r));
    POISON(item);
    REFUSE(mbs_system_solve_dynamic(&sys, &sim, &sr, &item), MBS_ERR_NOT_ASSEMBLED);
    CHECK(item.kind == MBS_ITEM_SYSTEM && UNTOUCHED(sr));
    /* a callback writing NaN: assemble names the load, the system stays unassembled */
    CHECK_STATUS(mbs_system_add_load_user(&sys, m_mass, MBS_USER_LOAD_FORCE, nan_force, NULL, &nl),
                 MBS_OK);
    POISON(item);
    REFUSE(mbs_system_assemble(&sys, &item), MBS_ERR_NOT_FINITE);
    CHECK(item.kind == MBS_ITEM_LOAD && item.index == nl);
    /* ... replacing it makes the system assemble again */
    CHECK_STATUS(mbs_system_init(&sys2), MBS_OK);
    {
        const double ref[2] = {1.0, 0.0};
        mbs_created_body b;
        uint32_t node, m0, m1, c;
        /* a node without a body, named by assemble */
        CHECK_STATUS(mbs_system_add_node_point2d(&sys2, ref, Z2, Z2, &node), MBS_OK);
        POISON(item);
        REFUSE_ON(&sys2, mbs_system_assemble(&sys2, &item), MBS_ERR_NODE_WITHOUT_BODY);
        CHECK(item.kind == MBS_ITEM_NODE && item.index == node);
        CHECK_STATUS(mbs_system_add_object_mass_point_2d(&sys2, node, 1.0, &b.object), MBS_OK);
        /* a spring of zero length is found by assemble, naming the connector */
        CHECK_STATUS(mbs_system_create_mass_point(&sys2, 1.0, ref, Z2, Z2, NULL, &b), MBS_OK);
        CHECK_STATUS(mbs_system_add_marker_node_position(&sys2, node, &m0), MBS_OK);
        CHECK_STATUS(mbs_system_add_marker_node_position(&sys2, b.node, &m1), MBS_OK);
        CHECK_STATUS(mbs_system_add_spring_damper(&sys2, m0, m1, 1.0, 0.0, 0.0, 0.0, &c), MBS_OK);
        POISON(item);
        REFUSE_ON(&sys2, mbs_system_assemble(&sys2, &item), MBS_ERR_INVALID_LENGTH);
        CHECK(item.kind == MBS_ITEM_CONNECTOR && item.index == c);
    }
}

/* Fills every list of sys2 and checks MBS_ERR_CAPACITY_FULL with nothing added. */
static void test_capacity(void) {
    uint32_t i, idx, gnode, gobj, m0 = 0, m1 = 1;
    const double ref[2] = {0, 0}, one[3] = {1, 0, 0}, g[3] = {0, -9.81, 0};
    mbs_created_body cb;
    mbs_sensor_spec spec;
    mbs_mass_properties mp = unit_body();
    mbs_status s = MBS_OK;
    CHECK_STATUS(mbs_system_init(&sys2), MBS_OK);
    CHECK_STATUS(mbs_system_add_node_ground(&sys2, Z3, &gnode), MBS_OK);
    CHECK_STATUS(mbs_system_add_object_ground(&sys2, Z3, &gobj), MBS_OK);
    /* markers: fill them, so that a Create* with gravity has no room for its marker */
    for (i = 0; i < MBS_SYSTEM_MAX_MARKERS && s == MBS_OK; i++)
        s = mbs_system_add_marker_node_position(&sys2, gnode, &idx);
    CHECK(s == MBS_OK);
    REFUSE_ON(&sys2, mbs_system_create_mass_point(&sys2, 1.0, ref, Z2, Z2, g, &cb), MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_create_rigid_body(&sys2, &mp, Z3, Q1, Z3, Z3, g, &cb),
              MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_add_marker_node_position(&sys2, gnode, &idx), MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_add_marker_body_position(&sys2, gobj, Z3, &idx), MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_add_marker_body_rigid(&sys2, gobj, Z3, &idx), MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_add_marker_body_mass(&sys2, gobj, &idx), MBS_ERR_CAPACITY_FULL);
    /* loads */
    for (i = 0, s = MBS_OK; i < MBS_SYSTEM_MAX_LOADS && s == MBS_OK; i++)
        s = mbs_system_add_load_force(&sys2, m0, one, &idx);
    CHECK(s == MBS_OK);
    REFUSE_ON(&sys2, mbs_system_add_load_force(&sys2, m0, one, &idx), MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_add_load_user(&sys2, m0, MBS_USER_LOAD_FORCE, user_force, &user_scale, &idx),
              MBS_ERR_CAPACITY_FULL);
    /* connectors */
    for (i = 0, s = MBS_OK; i < MBS_SYSTEM_MAX_CONNECTORS && s == MBS_OK; i++)
        s = mbs_system_add_cartesian_spring_damper(&sys2, m0, m1, one, Z3, Z3, &idx);
    CHECK(s == MBS_OK);
    REFUSE_ON(&sys2, mbs_system_add_spring_damper(&sys2, m0, m1, 1, 0, 1, 0, &idx), MBS_ERR_CAPACITY_FULL);
    /* sensors (no buffer: read on demand) */
    memset(&spec, 0, sizeof spec);
    spec.kind = MBS_SENSOR_NODE, spec.index = gnode, spec.variable = MBS_OUTPUT_POSITION;
    for (i = 0, s = MBS_OK; i < MBS_SYSTEM_MAX_SENSORS && s == MBS_OK; i++)
        s = mbs_system_add_sensor(&sys2, &spec, NULL, 0, &idx);
    CHECK(s == MBS_OK);
    REFUSE_ON(&sys2, mbs_system_add_sensor(&sys2, &spec, NULL, 0, &idx), MBS_ERR_CAPACITY_FULL);
    /* nodes and objects */
    for (i = 1, s = MBS_OK; i < MBS_SYSTEM_MAX_NODES && s == MBS_OK; i++)
        s = mbs_system_create_mass_point(&sys2, 1.0, ref, Z2, Z2, NULL, &cb);
    CHECK(s == MBS_OK);
    REFUSE_ON(&sys2, mbs_system_add_node_ground(&sys2, Z3, &idx), MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_add_node_rigid(&sys2, Z3, Q1, Z3, Z3, &idx), MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_create_mass_point(&sys2, 1.0, ref, Z2, Z2, NULL, &cb), MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_add_object_ground(&sys2, Z3, &idx), MBS_ERR_CAPACITY_FULL);
    REFUSE_ON(&sys2, mbs_system_create_ground(&sys2, Z3, &idx), MBS_ERR_CAPACITY_FULL);
    {
        mbs_system_counts c;
        CHECK_STATUS(mbs_system_get_counts(&sys2, &c), MBS_OK);
        CHECK(c.nodes == MBS_SYSTEM_MAX_NODES && c.objects == MBS_SYSTEM_MAX_OBJECTS &&
              c.markers == MBS_SYSTEM_MAX_MARKERS && c.loads == MBS_SYSTEM_MAX_LOADS &&
              c.connectors == MBS_SYSTEM_MAX_CONNECTORS && c.sensors == MBS_SYSTEM_MAX_SENSORS);
    }
    /* a full system still assembles and steps */
    CHECK_STATUS(mbs_system_assemble(&sys2, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_step(&sys2, 1e-3, NULL, NULL), MBS_OK);
}

/* mbs_system_deinit ends a system's life: every later call with the storage is refused
 * (a stale system after free), until it is initialized again; a storage of another layout is
 * refused too. */
static void test_deinit(void) {
    mbs_system_counts c;
    double t;
    CHECK_STATUS(mbs_system_init(&sys2), MBS_OK);
    CHECK_STATUS(mbs_system_deinit(&sys2), MBS_OK);
    POISON(c);
    CHECK_STATUS(mbs_system_get_counts(&sys2, &c), MBS_ERR_NOT_INITIALIZED);
    CHECK(UNTOUCHED(c));
    CHECK_STATUS(mbs_system_time(&sys2, &t), MBS_ERR_NOT_INITIALIZED);
    CHECK_STATUS(mbs_system_reset(&sys2), MBS_ERR_NOT_INITIALIZED);
    CHECK_STATUS(mbs_system_deinit(&sys2), MBS_ERR_NOT_INITIALIZED);
    CHECK_STATUS(mbs_system_deinit(NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_init(&sys2), MBS_OK);
    CHECK_STATUS(mbs_system_get_counts(&sys2, &c), MBS_OK);
    /* The header's second word is the layout of the library that wrote the storage: a storage
     * with the tag but another layout (another build of the library, or garbage that happens
     * to carry the tag) is refused, and so is reset on it (which once read such garbage). */
    {
        const uint64_t layout = sys2._opaque[1];
        sys2._opaque[1] = layout ^ 0x10000u; /* another size */
        POISON(c);
        CHECK_STATUS(mbs_system_get_counts(&sys2, &c), MBS_ERR_STORAGE);
        CHECK(UNTOUCHED(c));
        CHECK_STATUS(mbs_system_reset(&sys2), MBS_ERR_STORAGE);
        CHECK_STATUS(mbs_system_step(&sys2, 1e-3, NULL, NULL), MBS_ERR_STORAGE);
        sys2._opaque[1] = layout ^ 1u; /* another version */
        CHECK_STATUS(mbs_system_time(&sys2, &t), MBS_ERR_STORAGE);
        sys2._opaque[1] = layout;
        CHECK_STATUS(mbs_system_get_counts(&sys2, &c), MBS_OK);
        /* garbage: the tag alone does not make a system */
        memset(&sys2, 0x5A, sizeof sys2);
        memcpy(&sys2, &sys, 8);
        CHECK_STATUS(mbs_system_reset(&sys2), MBS_ERR_STORAGE);
        CHECK_STATUS(mbs_system_init(&sys2), MBS_OK);
    }
}

/* The frames of a rigid body's angular velocity: create takes it in the world frame, the
 * state holds it in the body frame, and each reads back in the other. q turns x to y, y to z,
 * z to x: w_0 = (9, 7, 8) is w_b = (7, 8, 9). */
static void test_angular_velocity_frames(void) {
    const double q[4] = {0.5, 0.5, 0.5, 0.5}, w0[3] = {9, 7, 8}, Z[3] = {0, 0, 0};
    const double w2[3] = {1, 2, 3};
    double out[9], back[3];
    size_t n = 0;
    mbs_mass_properties mp;
    mbs_created_body b;
    mbs_rigid_state s;
    memset(&mp, 0, sizeof mp);
    mp.mass = 1, mp.inertia[0] = mp.inertia[4] = mp.inertia[8] = 0.1;
    CHECK_STATUS(mbs_system_init(&sys2), MBS_OK);
    CHECK_STATUS(mbs_system_create_rigid_body(&sys2, &mp, Z, q, Z, w0, NULL, &b), MBS_OK);
    CHECK_STATUS(mbs_system_get_rigid_state(&sys2, b.node, &s), MBS_OK);
    CHECK(fabs(s.angular_velocity[0] - 7) + fabs(s.angular_velocity[1] - 8) +
          fabs(s.angular_velocity[2] - 9) < 1e-14);
    CHECK_STATUS(mbs_rigid_state_angular_velocity_world(&s, back), MBS_OK);
    CHECK(fabs(back[0] - 9) + fabs(back[1] - 7) + fabs(back[2] - 8) < 1e-14);
    CHECK_STATUS(mbs_system_node_output(&sys2, b.node, MBS_OUTPUT_ANGULAR_VELOCITY, out, 9, &n), MBS_OK);
    CHECK(fabs(out[0] - 9) + fabs(out[1] - 7) + fabs(out[2] - 8) < 1e-14);
    CHECK_STATUS(mbs_system_node_output(&sys2, b.node, MBS_OUTPUT_ANGULAR_VELOCITY_LOCAL, out, 9, &n), MBS_OK);
    CHECK(fabs(out[0] - 7) + fabs(out[1] - 8) + fabs(out[2] - 9) < 1e-14);
    /* A state set with a world-frame rate. */
    CHECK_STATUS(mbs_rigid_state_init_world(&s, Z, q, Z, w2), MBS_OK);
    CHECK_STATUS(mbs_system_set_rigid_state(&sys2, b.node, &s), MBS_OK);
    CHECK_STATUS(mbs_system_node_output(&sys2, b.node, MBS_OUTPUT_ANGULAR_VELOCITY, out, 9, &n), MBS_OK);
    CHECK(fabs(out[0] - 1) + fabs(out[1] - 2) + fabs(out[2] - 3) < 1e-14);
    CHECK_STATUS(mbs_system_deinit(&sys2), MBS_OK);
}

int main(void) {
    test_angular_velocity_frames();
    test_storage_refusals();
    test_results();
    test_settings_refusals();
    test_add_refusals();
    test_sensor_refusals();
    test_output_and_state_refusals();
    test_solve_refusals();
    test_capacity();
    test_deinit();
    printf("test_system: %d failures\n", failures);
    return failures != 0;
}
