/* C tests of the per-item rigid-body API (double and float from one template, rigid_checks.inc),
 * of Modelica's start values and of the BodyCylinder constructor: results against closed
 * forms, and every refusal (null pointers, NaN and inf, dt <= 0, unknown enum values, invalid
 * parameters) returns its status and leaves every output untouched. */
#include <float.h>
#include "mbs.h"
#include "check.h"

/* double */
#define REAL double
#define F(name) name
#define TOL 1e-14
#define HUGE_VAL_R 1e300
#define MAX_R DBL_MAX
#include "rigid_checks.inc"
#undef REAL
#undef F
#undef TOL
#undef HUGE_VAL_R
#undef MAX_R

/* float */
#define REAL float
#define F(name) name##_f32
#define TOL 1e-6
#define HUGE_VAL_R 1e30f
#define MAX_R FLT_MAX
#include "rigid_checks.inc"
#undef REAL
#undef F
#undef TOL
#undef HUGE_VAL_R
#undef MAX_R

static const double PI = 3.14159265358979323846;

static void test_body_start(void) {
    mbs_body_start st, bad;
    mbs_rigid_state s;
    CHECK_STATUS(mbs_body_start_default(&st), MBS_OK);
    CHECK(st.sequence_start[0] == 1 && st.sequence_start[1] == 2 && st.sequence_start[2] == 3);
    CHECK(st.r_0_start[0] == 0 && st.angles_start[2] == 0 && st.w_0_start[1] == 0);
    CHECK_STATUS(mbs_body_start_default(NULL), MBS_ERR_NULL_POINTER);

    /* A quarter turn about z: R_0b = Rz(90 deg), q = (cos 45, 0, 0, sin 45); the world rate
     * (1, 0, 0) is (0, -1, 0) in the body frame (w_b = R_0b^T w_0). */
    st.angles_start[2] = PI / 2;
    st.w_0_start[0] = 1;
    st.r_0_start[1] = 2;
    st.v_0_start[2] = 3;
    st.z_0_start[1] = 4; /* world y is body x after the quarter turn */
    CHECK_STATUS(mbs_rigid_state_from_start(&st, &s), MBS_OK);
    CHECK(fabs(s.angular_acceleration[0] - 4) < 1e-15 && fabs(s.angular_acceleration[1]) < 1e-15);
    CHECK(fabs(s.orientation[0] - sqrt(0.5)) < 1e-15 && fabs(s.orientation[3] - sqrt(0.5)) < 1e-15);
    CHECK(fabs(s.orientation[1]) < 1e-15 && fabs(s.orientation[2]) < 1e-15);
    CHECK(fabs(s.angular_velocity[0]) < 1e-15 && fabs(s.angular_velocity[1] + 1) < 1e-15);
    CHECK(s.position[1] == 2 && s.velocity[2] == 3 && s.acceleration[0] == 0);

    POISON(s);
    CHECK_STATUS(mbs_rigid_state_from_start(NULL, &s), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_rigid_state_from_start(&st, NULL), MBS_ERR_NULL_POINTER);
    bad = st;
    bad.r_0_start[0] = NAN;
    CHECK_STATUS(mbs_rigid_state_from_start(&bad, &s), MBS_ERR_NOT_FINITE);
    bad = st;
    bad.v_0_start[0] = INFINITY;
    CHECK_STATUS(mbs_rigid_state_from_start(&bad, &s), MBS_ERR_NOT_FINITE);
    bad = st;
    bad.angles_start[1] = NAN;
    CHECK_STATUS(mbs_rigid_state_from_start(&bad, &s), MBS_ERR_NOT_FINITE);
    bad = st;
    bad.w_0_start[2] = -INFINITY;
    CHECK_STATUS(mbs_rigid_state_from_start(&bad, &s), MBS_ERR_NOT_FINITE);
    bad = st;
    bad.z_0_start[0] = NAN;
    CHECK_STATUS(mbs_rigid_state_from_start(&bad, &s), MBS_ERR_NOT_FINITE);
    {
        const uint32_t seqs[5][3] = {{1, 1, 2}, {1, 2, 2}, {0, 1, 2}, {1, 2, 4}, {257, 2, 3}};
        int i;
        for (i = 0; i < 5; i++) {
            bad = st;
            memcpy(bad.sequence_start, seqs[i], sizeof bad.sequence_start);
            CHECK_STATUS(mbs_rigid_state_from_start(&bad, &s), MBS_ERR_INVALID_SEQUENCE);
        }
    }
    CHECK(UNTOUCHED(s));
}

static void test_body_cylinder(void) {
    const double r[3] = {0.5, 0.0, 0.0};
    mbs_cylinder c, bad;
    mbs_body_start st, bst;
    mbs_rigid_body b;
    mbs_rigid_state s;
    double m, rad = 0.025;

    CHECK_STATUS(mbs_cylinder_default(&c, r), MBS_OK);
    CHECK_STATUS(mbs_body_start_default(&st), MBS_OK);
    CHECK_STATUS(mbs_body_cylinder_init(&c, &st, &b, &s), MBS_OK);
    /* Modelica defaults: diameter = length / 20 = 0.025 m, steel; COM at r/2 in frame_a. */
    m = 7700.0 * PI * 0.5 * rad / 2 * rad / 2;
    rad /= 2;
    CHECK(fabs(b.mass - m) < 1e-12 * m);
    CHECK(fabs(b.center_of_mass[0] - 0.25) < 1e-15 && b.center_of_mass[1] == 0);
    CHECK(fabs(b.inertia[0] - m * rad * rad / 2) < 1e-12 * m * rad * rad);
    CHECK(fabs(b.inertia[4] - m * (0.25 + 3 * rad * rad) / 12) < 1e-12 * m);
    CHECK(s.orientation[0] == 1 && s.position[0] == 0);
    /* A turned, moved start: the start pose is the reference of MBS_OUTPUT_DISPLACEMENT. */
    bst = st;
    bst.angles_start[0] = 0.7;
    bst.r_0_start[2] = 5;
    CHECK_STATUS(mbs_body_cylinder_init(&c, &bst, &b, &s), MBS_OK);
    {
        double d[3], pb[3];
        size_t n;
        CHECK_STATUS(mbs_rigid_output(&b, &s, MBS_OUTPUT_DISPLACEMENT, r, d, 3, &n), MBS_OK);
        CHECK(n == 3 && fabs(d[0]) < 1e-15 && fabs(d[1]) < 1e-15 && fabs(d[2]) < 1e-15);
        /* frame_b = r_0 + R_0b r, r along the rotation axis x: (0.5, 0, 5). */
        CHECK_STATUS(mbs_rigid_output(&b, &s, MBS_OUTPUT_POSITION, r, pb, 3, &n), MBS_OK);
        CHECK(fabs(pb[0] - 0.5) < 1e-15 && fabs(pb[1]) < 1e-15 && fabs(pb[2] - 5) < 1e-15);
    }

    POISON(b);
    POISON(s);
    CHECK_STATUS(mbs_body_cylinder_init(NULL, &st, &b, &s), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_body_cylinder_init(&c, NULL, &b, &s), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_body_cylinder_init(&c, &st, NULL, &s), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_body_cylinder_init(&c, &st, &b, NULL), MBS_ERR_NULL_POINTER);
    bad = c;
    bad.density = NAN;
    CHECK_STATUS(mbs_body_cylinder_init(&bad, &st, &b, &s), MBS_ERR_NOT_FINITE);
    bad = c;
    bad.r[2] = INFINITY;
    CHECK_STATUS(mbs_body_cylinder_init(&bad, &st, &b, &s), MBS_ERR_NOT_FINITE);
    bad = c;
    bad.density = 0; /* no mass to step */
    CHECK_STATUS(mbs_body_cylinder_init(&bad, &st, &b, &s), MBS_ERR_INVALID_MASS);
    bad = c;
    bad.density = -1;
    CHECK_STATUS(mbs_body_cylinder_init(&bad, &st, &b, &s), MBS_ERR_INVALID_DENSITY);
    bad = c;
    bad.density = 1e300; /* finite, but the mass overflows */
    bad.has_diameter = true;
    bad.diameter = 1e10;
    CHECK_STATUS(mbs_body_cylinder_init(&bad, &st, &b, &s), MBS_ERR_NON_FINITE_STATE);
    bad = c;
    bad.inner_diameter = 0.025; /* = diameter */
    CHECK_STATUS(mbs_body_cylinder_init(&bad, &st, &b, &s), MBS_ERR_INVALID_INNER_DIAMETER);
    bad = c;
    bad.has_length = true;
    bad.length = -1;
    CHECK_STATUS(mbs_body_cylinder_init(&bad, &st, &b, &s), MBS_ERR_INVALID_LENGTH);
    bst = st;
    bst.sequence_start[1] = 1;
    CHECK_STATUS(mbs_body_cylinder_init(&c, &bst, &b, &s), MBS_ERR_INVALID_SEQUENCE);
    bst = st;
    bst.w_0_start[0] = NAN;
    CHECK_STATUS(mbs_body_cylinder_init(&c, &bst, &b, &s), MBS_ERR_NOT_FINITE);
    CHECK(UNTOUCHED(b) && UNTOUCHED(s));
}

static void test_output_variable_len(void) {
    CHECK(mbs_output_variable_len(MBS_OUTPUT_POSITION) == 3);
    CHECK(mbs_output_variable_len(MBS_OUTPUT_ROTATION_MATRIX) == 9);
    CHECK(mbs_output_variable_len(MBS_OUTPUT_KINETIC_ENERGY) == 1);
    CHECK(mbs_output_variable_len(MBS_OUTPUT_POTENTIAL_ENERGY) == 1);
    CHECK(mbs_output_variable_len(MBS_OUTPUT_ANGULAR_ACCELERATION) == 3);
    CHECK(mbs_output_variable_len(UNKNOWN_OUTPUT) == 0 && mbs_output_variable_len(0xFFFFFFFFu) == 0);
    CHECK(strcmp(mbs_status_str(MBS_ERR_INVALID_TIME_STEP), "invalid time step (must be finite and > 0)") == 0);
    CHECK(strcmp(mbs_status_str(12345), "unknown status") == 0);
}

int main(void) {
    test_rigid_all();
    test_rigid_all_f32();
    test_body_start();
    test_body_cylinder();
    test_output_variable_len();
    printf("test_rigid: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
