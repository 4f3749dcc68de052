/* C tests that init defines the bytes of a storage: two storages that held different bytes
 * before init (all 0x00, all 0xFF), with different bytes on the stack, are equal after init
 * (an mbs_system, an mbs_tree, an mbs_tree_f32) but for what PADDING_BYTES says, and two
 * systems used alike give the same outputs. The padding of the values later calls copy in
 * (an item's, a link's) may hold any bytes, as the header says. */
#include <stdint.h>
#include "mbs.h"
#include "check.h"

static mbs_system sys[2];
static mbs_tree tree[2], tree_in_sys;
static mbs_tree_f32 tree32[2];
static double rows[2][11 * 4];

/* Leaves `pattern` in the stack below the caller, where the next call's frames will be: a
 * value an init copies from its stack then carries that pattern. */
static void churn(unsigned char pattern) {
    volatile unsigned char buf[200000];
    size_t i;
    for (i = 0; i < sizeof buf; i++) buf[i] = pattern;
}

static size_t count_differing(const void *a, const void *b, size_t n) {
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    size_t i, count = 0;
    for (i = 0; i < n; i++) count += x[i] != y[i];
    return count;
}

/* What init may leave as copies of its stack: the padding between fields (bool flags beside
 * doubles, a few dozen bytes) and, in a system, the payloads of its empty options (the
 * kinematic-tree slot's 7 KB, the scheme's) when the build copies the empty value from the
 * stack: none in the release build, 7,195 bytes in the AddressSanitizer build, 11,890 under
 * coverage instrumentation. Before init zeroed the unused item slots, 56,810 bytes differed. */
#define PADDING_BYTES 16384

/* Prints how many bytes of two storages differ; 1 if more than their padding. The padding is
 * undefined to valgrind's memcheck: declared defined first, the bytes compared as they are. */
static int differ(const char *what, const void *a, const void *b, size_t n) {
    size_t count;
    STORAGE_DEFINED(a, n);
    STORAGE_DEFINED(b, n);
    count = count_differing(a, b, n);
    if (count > PADDING_BYTES) printf("FAIL %s: %zu of %zu bytes differ\n", what, count, n);
    return count > PADDING_BYTES;
}

static mbs_tree_link bar(uint32_t parent, double at_x) {
    mbs_tree_link l;
    memset(&l, 0, sizeof l);
    l.parent = parent, l.joint = MBS_JOINT_REVOLUTE, l.axis[2] = 1;
    l.rotation[0] = l.rotation[4] = l.rotation[8] = 1;
    l.position[0] = at_x, l.mass = 2, l.com[0] = 0.5;
    l.inertia[0] = 0.002, l.inertia[4] = l.inertia[8] = 2.0 / 12.0;
    return l;
}

static mbs_tree_link_f32 bar32(uint32_t parent, float at_x) {
    mbs_tree_link_f32 l;
    memset(&l, 0, sizeof l);
    l.parent = parent, l.joint = MBS_JOINT_REVOLUTE, l.axis[2] = 1;
    l.rotation[0] = l.rotation[4] = l.rotation[8] = 1;
    l.position[0] = at_x, l.mass = 2, l.com[0] = 0.5f;
    l.inertia[0] = 0.002f, l.inertia[4] = l.inertia[8] = 2.0f / 12.0f;
    return l;
}

static void force(void *ctx, double t, double *out) {
    (void)ctx;
    out[0] = sin(t);
}

/* A mass point on a spring, a rigid body under gravity, a user force, a sensor and (in
 * generalized-alpha, which steps trees) a two-link tree, in `scheme`; assembled, then 10
 * steps and a 10-step solve. */
static void build_and_run(mbs_system *s, double *sensor_rows, uint32_t scheme) {
    const double Z3[3] = {0, 0, 0}, Z2[2] = {0, 0}, Q1[4] = {1, 0, 0, 0};
    const double ref[2] = {1.0, 0.0}, g[3] = {0, 0, -9.81}, w[3] = {0.3, 2.0, -1.0};
    const double G[3] = {0, -9.81, 0}, q[2] = {0.3, -0.2}, v[2] = {0, 0};
    mbs_tree_link a = bar(MBS_NO_INDEX, 0), b = bar(0, 1.0);
    mbs_mass_properties mp;
    mbs_created_body point, body;
    mbs_sensor_spec spec;
    mbs_system_settings st;
    mbs_simulation_settings sim;
    uint32_t ground, m_ground, m_point, spring, load, sensor, first, i;
    memset(&mp, 0, sizeof mp);
    mp.mass = 2.0, mp.inertia[0] = 0.1, mp.inertia[4] = 0.2, mp.inertia[8] = 0.3;
    CHECK_STATUS(mbs_tree_init(&tree_in_sys, G), MBS_OK);
    CHECK_STATUS(mbs_tree_add_link(&tree_in_sys, &a, &i), MBS_OK);
    CHECK_STATUS(mbs_tree_add_link(&tree_in_sys, &b, &i), MBS_OK);
    CHECK_STATUS(mbs_system_init(s), MBS_OK);
    CHECK_STATUS(mbs_system_settings_default(&st), MBS_OK);
    st.scheme = scheme;
    CHECK_STATUS(mbs_system_set_settings(s, &st), MBS_OK);
    CHECK_STATUS(mbs_system_create_ground(s, Z3, &ground), MBS_OK);
    CHECK_STATUS(mbs_system_create_mass_point(s, 1.0, ref, Z2, Z2, NULL, &point), MBS_OK);
    CHECK_STATUS(mbs_system_create_rigid_body(s, &mp, Z3, Q1, Z3, w, g, &body), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_body_position(s, ground, Z3, &m_ground), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_node_position(s, point.node, &m_point), MBS_OK);
    CHECK_STATUS(mbs_system_add_spring_damper(s, m_ground, m_point, 100.0, 0.5, 0.5, 0.0, &spring),
                 MBS_OK);
    CHECK_STATUS(mbs_system_add_load_user(s, m_point, MBS_USER_LOAD_FORCE, force, NULL, &load),
                 MBS_OK);
    memset(&spec, 0, sizeof spec);
    spec.kind = MBS_SENSOR_NODE, spec.index = point.node, spec.variable = MBS_OUTPUT_POSITION;
    CHECK_STATUS(mbs_system_add_sensor(s, &spec, sensor_rows, 11, &sensor), MBS_OK);
    if (scheme == MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA)
        CHECK_STATUS(mbs_system_add_kinematic_tree(s, &tree_in_sys, q, 2, v, 2, &first), MBS_OK);
    CHECK_STATUS(mbs_system_assemble(s, NULL), MBS_OK);
    for (i = 0; i < 10; i++) CHECK_STATUS(mbs_system_step(s, 1e-3, NULL, NULL), MBS_OK);
    CHECK_STATUS(mbs_simulation_settings_default(&sim), MBS_OK);
    sim.end_time = 0.01, sim.number_of_steps = 10;
    CHECK_STATUS(mbs_system_solve_dynamic(s, &sim, NULL, NULL), MBS_OK);
}

static void test_systems(void) {
    const uint32_t schemes[2] = {MBS_SYSTEM_SCHEME_KICK_DRIFT_KICK,
                                 MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA};
    uint32_t k;
    memset(&sys[0], 0x00, sizeof sys[0]);
    memset(&sys[1], 0xFF, sizeof sys[1]);
    churn(0x00);
    CHECK_STATUS(mbs_system_init(&sys[0]), MBS_OK);
    churn(0xC3);
    CHECK_STATUS(mbs_system_init(&sys[1]), MBS_OK);
    failures += differ("a system after init", &sys[0], &sys[1], sizeof sys[0]);
    for (k = 0; k < 2; k++) {
        memset(&sys[0], 0x00, sizeof sys[0]);
        memset(&sys[1], 0xFF, sizeof sys[1]);
        build_and_run(&sys[0], rows[0], schemes[k]);
        build_and_run(&sys[1], rows[1], schemes[k]);
        CHECK(memcmp(rows[0], rows[1], sizeof rows[0]) == 0);
    }
}

static void test_trees(void) {
    const double G[3] = {0, -9.81, 0}, tau[2] = {0.1, 0};
    const float G32[3] = {0, -9.81f, 0}, tau32[2] = {0.1f, 0};
    double q[2][2], v[2][2];
    float q32[2][2], v32[2][2], acc32[2][2];
    uint32_t k, i;
    for (k = 0; k < 2; k++) {
        memset(&tree[k], k ? 0xFF : 0x00, sizeof tree[k]);
        memset(&tree32[k], k ? 0xFF : 0x00, sizeof tree32[k]);
        churn(k ? 0xC3 : 0x00);
        CHECK_STATUS(mbs_tree_init(&tree[k], G), MBS_OK);
        churn(k ? 0x5A : 0x00);
        CHECK_STATUS(mbs_tree_init_f32(&tree32[k], G32), MBS_OK);
    }
    failures += differ("a tree after init", &tree[0], &tree[1], sizeof tree[0]);
    failures += differ("a tree in single precision after init", &tree32[0], &tree32[1],
                       sizeof tree32[0]);
    /* Used alike, the two trees compute the same bits. */
    for (k = 0; k < 2; k++) {
        mbs_tree_link a = bar(MBS_NO_INDEX, 0), b = bar(0, 1.0);
        mbs_tree_link_f32 a32 = bar32(MBS_NO_INDEX, 0), b32 = bar32(0, 1.0f);
        q[k][0] = 0.3, q[k][1] = -0.2, v[k][0] = v[k][1] = 0;
        q32[k][0] = 0.3f, q32[k][1] = -0.2f, v32[k][0] = v32[k][1] = 0;
        CHECK_STATUS(mbs_tree_add_link(&tree[k], &a, &i), MBS_OK);
        CHECK_STATUS(mbs_tree_add_link(&tree[k], &b, &i), MBS_OK);
        for (i = 0; i < 10; i++)
            CHECK_STATUS(mbs_tree_step(&tree[k], q[k], 2, v[k], tau, 2, 1e-3,
                                       MBS_TREE_RUNGE_KUTTA_4, NULL),
                         MBS_OK);
        CHECK_STATUS(mbs_tree_add_link_f32(&tree32[k], &a32, &i), MBS_OK);
        CHECK_STATUS(mbs_tree_add_link_f32(&tree32[k], &b32, &i), MBS_OK);
        CHECK_STATUS(mbs_tree_aba_f32(&tree32[k], q32[k], 2, v32[k], tau32, 2, acc32[k]),
                     MBS_OK);
    }
    CHECK(memcmp(q[0], q[1], sizeof q[0]) == 0 && memcmp(v[0], v[1], sizeof v[0]) == 0);
    CHECK(memcmp(acc32[0], acc32[1], sizeof acc32[0]) == 0);
}

int main(void) {
    (void)untouched_bytes;
    test_systems();
    test_trees();
    printf("test_storage_bytes: %d failures\n", failures);
    return failures != 0;
}
