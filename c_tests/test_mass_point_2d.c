/* C tests of the mass point 2D API and the simulation settings: results against closed forms
 * (constant force and gravity: x = x0 + v0 t + a t^2 / 2, which generalized-alpha reproduces
 * exactly), and every refusal (null pointers, NaN and inf, dt <= 0, unknown solver type,
 * invalid settings and parameters) returns its status and leaves every output untouched. */
#include "mbs.h"
#include "check.h"

static const double ZERO[3] = {0.0, 0.0, 0.0};

static void setup(mbs_mass_point_2d *b, mbs_mass_point_2d_loads *l, mbs_simulation_settings *s) {
    const double ref[2] = {1.0, -2.0};
    CHECK_STATUS(mbs_mass_point_2d_init(b, 2.0, ref), MBS_OK);
    memset(l, 0, sizeof *l);
    l->force[0] = 3.0;    /* N */
    l->gravity[1] = -9.81; /* m/s^2 */
    CHECK_STATUS(mbs_simulation_settings_default(s), MBS_OK);
}

static void test_settings_default(void) {
    mbs_simulation_settings s;
    CHECK_STATUS(mbs_simulation_settings_default(&s), MBS_OK);
    CHECK(s.start_time == 0.0 && s.end_time == 1.0 && s.number_of_steps == 100);
    CHECK(s.solver_type == MBS_DYNAMIC_SOLVER_GENERALIZED_ALPHA && s.spectral_radius == 0.9);
    CHECK(s.newton_relative_tolerance == 1e-8 && s.newton_absolute_tolerance == 1e-10);
    CHECK(s.newton_max_iterations == 25);
    CHECK_STATUS(mbs_simulation_settings_default(NULL), MBS_ERR_NULL_POINTER);
}

static void test_init(void) {
    const double ref[2] = {1.0, 2.0};
    double bad[2] = {0.0, NAN};
    mbs_mass_point_2d b;
    CHECK_STATUS(mbs_mass_point_2d_init(&b, 1.5, ref), MBS_OK);
    CHECK(b.mass == 1.5 && b.reference_coordinates[0] == 1.0 && b.reference_coordinates[1] == 2.0);
    POISON(b);
    CHECK_STATUS(mbs_mass_point_2d_init(NULL, 1.0, ref), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init(&b, 1.0, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init(&b, NAN, ref), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_mass_point_2d_init(&b, INFINITY, ref), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_mass_point_2d_init(&b, 1.0, bad), MBS_ERR_NOT_FINITE);
    bad[1] = -INFINITY;
    CHECK_STATUS(mbs_mass_point_2d_init(&b, 1.0, bad), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_mass_point_2d_init(&b, 0.0, ref), MBS_ERR_INVALID_MASS);
    CHECK_STATUS(mbs_mass_point_2d_init(&b, -1.0, ref), MBS_ERR_INVALID_MASS);
    CHECK(UNTOUCHED(b));
}

/* Settings variants every call that takes settings must refuse, with their status. */
static void bad_settings(const mbs_simulation_settings *ok, mbs_simulation_settings out[6],
                         mbs_status expected[6]) {
    int i;
    for (i = 0; i < 6; i++) out[i] = *ok;
    out[0].solver_type = 1, expected[0] = MBS_ERR_INVALID_ARGUMENT;
    out[1].solver_type = 0xFFFFFFFFu, expected[1] = MBS_ERR_INVALID_ARGUMENT;
    out[2].spectral_radius = 1.5, expected[2] = MBS_ERR_INVALID_SETTING;
    out[3].spectral_radius = NAN, expected[3] = MBS_ERR_NOT_FINITE;
    out[4].newton_max_iterations = 0, expected[4] = MBS_ERR_INVALID_SETTING;
    out[5].newton_relative_tolerance = -1.0, expected[5] = MBS_ERR_INVALID_SETTING;
}

static void test_init_state(void) {
    mbs_mass_point_2d b, bb;
    mbs_mass_point_2d_loads l, lb;
    mbs_simulation_settings s, bs[6];
    mbs_status be[6];
    mbs_point2d_state st;
    const double q0[2] = {0.1, 0.2}, v0[2] = {0.3, 0.4};
    double bad[2] = {INFINITY, 0.0};
    int i;

    setup(&b, &l, &s);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &s, q0, v0, &st), MBS_OK);
    /* Consistent accelerations: q_tt = F/m + g = (1.5, -9.81), a = q_tt. */
    CHECK(st.q[0] == 0.1 && st.q_t[1] == 0.4);
    CHECK(fabs(st.q_tt[0] - 1.5) < 1e-15 && fabs(st.q_tt[1] + 9.81) < 1e-15);
    CHECK(st.a[0] == st.q_tt[0] && st.a[1] == st.q_tt[1]);

    POISON(st);
    CHECK_STATUS(mbs_mass_point_2d_init_state(NULL, &l, &s, q0, v0, &st), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, NULL, &s, q0, v0, &st), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, NULL, q0, v0, &st), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &s, NULL, v0, &st), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &s, q0, NULL, &st), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &s, q0, v0, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &s, bad, v0, &st), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &s, q0, bad, &st), MBS_ERR_NOT_FINITE);
    lb = l;
    lb.force[2] = NAN; /* even the ignored z component must be finite */
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &lb, &s, q0, v0, &st), MBS_ERR_NOT_FINITE);
    lb = l;
    lb.gravity[0] = INFINITY;
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &lb, &s, q0, v0, &st), MBS_ERR_NOT_FINITE);
    bb = b;
    bb.mass = 0.0;
    CHECK_STATUS(mbs_mass_point_2d_init_state(&bb, &l, &s, q0, v0, &st), MBS_ERR_INVALID_MASS);
    bad_settings(&s, bs, be);
    for (i = 0; i < 6; i++) CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &bs[i], q0, v0, &st), be[i]);
    {
        mbs_simulation_settings t = s;
        t.start_time = NAN;
        CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &t, q0, v0, &st), MBS_ERR_NOT_FINITE);
    }
    CHECK(UNTOUCHED(st));
}

#define CHECK_STEP_REFUSED(b, l, s, dt, expected)                                    \
    do {                                                                             \
        mbs_point2d_state x_ = st0;                                                  \
        mbs_alpha_step_info i_;                                                      \
        POISON(i_);                                                                  \
        CHECK_STATUS(mbs_mass_point_2d_step(b, l, s, &x_, dt, &i_), expected);       \
        CHECK(memcmp(&x_, &st0, sizeof x_) == 0 && UNTOUCHED(i_));                   \
    } while (0)

static void test_step(void) {
    mbs_mass_point_2d b, bb;
    mbs_mass_point_2d_loads l, lb;
    mbs_simulation_settings s, bs[6];
    mbs_status be[6];
    mbs_point2d_state st0, st;
    mbs_alpha_step_info info;
    const double q0[2] = {0.1, 0.2}, v0[2] = {0.3, 0.4};
    const double h = 0.01;
    double t, x, y, p[3];
    size_t n;
    int k;

    setup(&b, &l, &s);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &s, q0, v0, &st0), MBS_OK);
    st = st0;
    for (k = 0; k < 50; k++) {
        CHECK_STATUS(mbs_mass_point_2d_step(&b, &l, &s, &st, h, k == 0 ? &info : NULL), MBS_OK);
    }
    CHECK(info.newton_iterations <= 2);
    /* Constant acceleration (1.5, -9.81) m/s^2: x = r + q0 + v0 t + a t^2 / 2. */
    t = 50 * h;
    x = 1.0 + 0.1 + 0.3 * t + 0.5 * 1.5 * t * t;
    y = -2.0 + 0.2 + 0.4 * t - 0.5 * 9.81 * t * t;
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_POSITION, ZERO, p, 3, &n), MBS_OK);
    CHECK(n == 3 && fabs(p[0] - x) < 1e-12 && fabs(p[1] - y) < 1e-12 && p[2] == 0.0);
    CHECK(fabs(st.q_t[0] - (0.3 + 1.5 * t)) < 1e-12 && fabs(st.q_t[1] - (0.4 - 9.81 * t)) < 1e-12);

    CHECK_STEP_REFUSED(NULL, &l, &s, h, MBS_ERR_NULL_POINTER);
    CHECK_STEP_REFUSED(&b, NULL, &s, h, MBS_ERR_NULL_POINTER);
    CHECK_STEP_REFUSED(&b, &l, NULL, h, MBS_ERR_NULL_POINTER);
    {
        mbs_alpha_step_info i_;
        POISON(i_);
        CHECK_STATUS(mbs_mass_point_2d_step(&b, &l, &s, NULL, h, &i_), MBS_ERR_NULL_POINTER);
        CHECK(UNTOUCHED(i_));
    }
    CHECK_STEP_REFUSED(&b, &l, &s, 0.0, MBS_ERR_INVALID_TIME_STEP);
    CHECK_STEP_REFUSED(&b, &l, &s, -h, MBS_ERR_INVALID_TIME_STEP);
    CHECK_STEP_REFUSED(&b, &l, &s, NAN, MBS_ERR_NOT_FINITE);
    CHECK_STEP_REFUSED(&b, &l, &s, INFINITY, MBS_ERR_NOT_FINITE);
    bb = b;
    bb.mass = -2.0;
    CHECK_STEP_REFUSED(&bb, &l, &s, h, MBS_ERR_INVALID_MASS);
    bb = b;
    bb.reference_coordinates[1] = NAN;
    CHECK_STEP_REFUSED(&bb, &l, &s, h, MBS_ERR_NOT_FINITE);
    lb = l;
    lb.force[1] = -INFINITY;
    CHECK_STEP_REFUSED(&b, &lb, &s, h, MBS_ERR_NOT_FINITE);
    bad_settings(&s, bs, be);
    for (k = 0; k < 6; k++) CHECK_STEP_REFUSED(&b, &l, &bs[k], h, be[k]);
    {
        /* Times are not used by a step: a solve's end time before its start is fine here. */
        mbs_simulation_settings t2 = s;
        t2.end_time = -5.0;
        st = st0;
        CHECK_STATUS(mbs_mass_point_2d_step(&b, &l, &t2, &st, h, NULL), MBS_OK);
    }
    {
        mbs_point2d_state bad = st0, keep;
        bad.a[1] = NAN;
        keep = bad;
        CHECK_STATUS(mbs_mass_point_2d_step(&b, &l, &s, &bad, h, NULL), MBS_ERR_NOT_FINITE);
        CHECK(memcmp(&bad, &keep, sizeof bad) == 0);
        bad = st0;
        bad.q[0] = INFINITY;
        keep = bad;
        CHECK_STATUS(mbs_mass_point_2d_step(&b, &l, &s, &bad, h, NULL), MBS_ERR_NOT_FINITE);
        CHECK(memcmp(&bad, &keep, sizeof bad) == 0);
    }
    {
        /* A finite step whose result overflows: the Newton iteration fails, state untouched. */
        mbs_mass_point_2d_loads huge = l;
        huge.force[0] = 1e300;
        CHECK_STEP_REFUSED(&b, &huge, &s, 1e300, MBS_ERR_SOLVER_FAILED);
    }
}

static void test_output_and_jacobian(void) {
    mbs_mass_point_2d b, bb;
    mbs_mass_point_2d_loads l;
    mbs_simulation_settings s;
    mbs_point2d_state st, sb;
    const double q0[2] = {0.5, 0.0}, v0[2] = {3.0, -4.0}, loc[3] = {0.1, 0.2, 0.3};
    double bad_loc[3] = {0.0, 0.0, NAN};
    double out[9], j[6];
    size_t n;
    unsigned v;

    setup(&b, &l, &s);
    CHECK_STATUS(mbs_mass_point_2d_init_state(&b, &l, &s, q0, v0, &st), MBS_OK);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_POSITION, loc, out, 3, &n), MBS_OK);
    CHECK(n == 3 && fabs(out[0] - 1.6) < 1e-15 && fabs(out[1] + 1.8) < 1e-15 && out[2] == 0.3);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_KINETIC_ENERGY, ZERO, out, 1, &n), MBS_OK);
    CHECK(n == 1 && out[0] == 0.5 * 2.0 * 25.0); /* m |v|^2 / 2 */
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_DISPLACEMENT, loc, out, 3, &n), MBS_OK);
    CHECK(out[0] == 0.5 && out[1] == 0.0 && out[2] == 0.0);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_ROTATION_MATRIX, ZERO, out, 9, &n), MBS_OK);
    CHECK(n == 9 && out[0] == 1.0 && out[4] == 1.0 && out[8] == 1.0 && out[1] == 0.0);
    for (v = MBS_OUTPUT_POSITION; v <= MBS_OUTPUT_POTENTIAL_ENERGY; v++) {
        mbs_status r = mbs_mass_point_2d_output(&b, &st, v, ZERO, out, 9, &n);
        if (v == MBS_OUTPUT_ANGULAR_ACCELERATION) CHECK(r == MBS_ERR_NOT_AVAILABLE);
        else CHECK(r == MBS_OK && n == mbs_output_variable_len(v));
    }
    CHECK_STATUS(mbs_mass_point_2d_position_jacobian(&b, &st, loc, j), MBS_OK);
    CHECK(j[0] == 1 && j[1] == 0 && j[2] == 0 && j[3] == 1 && j[4] == 0 && j[5] == 0);

    POISON(out);
    POISON(n);
    POISON(j);
    CHECK_STATUS(mbs_mass_point_2d_output(NULL, &st, MBS_OUTPUT_POSITION, loc, out, 3, &n), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, NULL, MBS_OUTPUT_POSITION, loc, out, 3, &n), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_POSITION, NULL, out, 3, &n), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_POSITION, loc, NULL, 3, &n), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_POSITION, loc, out, 3, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, UNKNOWN_OUTPUT, loc, out, 9, &n), MBS_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_ANGULAR_ACCELERATION, ZERO, out, 9, &n),
                 MBS_ERR_NOT_AVAILABLE);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_KINETIC_ENERGY, loc, out, 9, &n),
                 MBS_ERR_INVALID_LOCAL_POSITION);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_POSITION, loc, out, 2, &n), MBS_ERR_STORAGE);
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &st, MBS_OUTPUT_POSITION, bad_loc, out, 3, &n), MBS_ERR_NOT_FINITE);
    sb = st;
    sb.q_tt[0] = NAN;
    CHECK_STATUS(mbs_mass_point_2d_output(&b, &sb, MBS_OUTPUT_POSITION, loc, out, 3, &n), MBS_ERR_NOT_FINITE);
    bb = b;
    bb.mass = 0.0;
    CHECK_STATUS(mbs_mass_point_2d_output(&bb, &st, MBS_OUTPUT_POSITION, loc, out, 3, &n), MBS_ERR_INVALID_MASS);

    CHECK_STATUS(mbs_mass_point_2d_position_jacobian(NULL, &st, loc, j), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_position_jacobian(&b, NULL, loc, j), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_position_jacobian(&b, &st, NULL, j), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_position_jacobian(&b, &st, loc, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_position_jacobian(&b, &st, bad_loc, j), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_mass_point_2d_position_jacobian(&b, &sb, loc, j), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_mass_point_2d_position_jacobian(&bb, &st, loc, j), MBS_ERR_INVALID_MASS);
    CHECK(UNTOUCHED(out) && UNTOUCHED(n) && UNTOUCHED(j));
}

static void test_solve_dynamic(void) {
    mbs_mass_point_2d b, bb;
    mbs_mass_point_2d_loads l, lb;
    mbs_simulation_settings s, bs[6], t;
    mbs_status be[6];
    mbs_point2d_state end;
    const double q0[2] = {0.0, 1.0}, v0[2] = {2.0, 0.0};
    double bad[2] = {NAN, 0.0};
    int i;

    setup(&b, &l, &s);
    s.end_time = 2.0;
    s.number_of_steps = 37;
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &s, q0, v0, &end), MBS_OK);
    /* q(2 s) = q0 + v0 t + a t^2 / 2 with a = (1.5, -9.81). */
    CHECK(fabs(end.q[0] - (0.0 + 2.0 * 2.0 + 0.75 * 4.0)) < 1e-11);
    CHECK(fabs(end.q[1] - (1.0 - 0.5 * 9.81 * 4.0)) < 1e-11);
    CHECK(fabs(end.q_t[1] + 9.81 * 2.0) < 1e-11 && fabs(end.q_tt[0] - 1.5) < 1e-12);

    POISON(end);
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(NULL, &l, &s, q0, v0, &end), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, NULL, &s, q0, v0, &end), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, NULL, q0, v0, &end), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &s, NULL, v0, &end), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &s, q0, NULL, &end), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &s, q0, v0, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &s, bad, v0, &end), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &s, q0, bad, &end), MBS_ERR_NOT_FINITE);
    lb = l;
    lb.force[0] = NAN;
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &lb, &s, q0, v0, &end), MBS_ERR_NOT_FINITE);
    bb = b;
    bb.mass = -1.0;
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&bb, &l, &s, q0, v0, &end), MBS_ERR_INVALID_MASS);
    bad_settings(&s, bs, be);
    for (i = 0; i < 6; i++) CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &bs[i], q0, v0, &end), be[i]);
    t = s;
    t.end_time = t.start_time;
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &t, q0, v0, &end), MBS_ERR_INVALID_SETTING);
    t = s;
    t.number_of_steps = 0;
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &t, q0, v0, &end), MBS_ERR_INVALID_SETTING);
    t = s;
    t.end_time = INFINITY;
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &t, q0, v0, &end), MBS_ERR_NOT_FINITE);
    t = s;
    t.start_time = NAN;
    CHECK_STATUS(mbs_mass_point_2d_solve_dynamic(&b, &l, &t, q0, v0, &end), MBS_ERR_NOT_FINITE);
    CHECK(UNTOUCHED(end));
}

/* The float API (mbs_mass_point_2d_*_f32): the constant-acceleration closed form to float
 * rounding (50 steps, a few ulps of |q| <= 1.5 m and |q_t| <= 5 m/s each: 1e-4), the mini example of Exudyn's `ObjectMassPoint2D`
 * x = 2 m (1e-5 m: 100 float additions of q_t h to q < 1 m), and the refusals of init, init
 * state and step with the caller's data untouched. */
#define CHECK_STEP_F32_REFUSED(b, l, s, dt, expected)                                \
    do {                                                                             \
        mbs_point2d_state_f32 x_ = st0;                                              \
        mbs_alpha_step_info i_;                                                      \
        POISON(i_);                                                                  \
        CHECK_STATUS(mbs_mass_point_2d_step_f32(b, l, s, &x_, dt, &i_), expected);   \
        CHECK(memcmp(&x_, &st0, sizeof x_) == 0 && UNTOUCHED(i_));                   \
    } while (0)

static void test_f32(void) {
    const float ref[2] = {1.0f, -2.0f}, q0[2] = {0.1f, 0.2f}, v0[2] = {0.3f, 0.4f};
    const float one[2] = {1.0f, 1.0f}, mq0[2] = {0.5f, 0.0f}, mv0[2] = {0.5f, 0.0f};
    float bad[2] = {0.0f, NAN};
    const float h = 0.01f;
    mbs_mass_point_2d_f32 b, bb, mini;
    mbs_mass_point_2d_loads_f32 l, lb, none;
    mbs_simulation_settings_f32 s, sb;
    mbs_point2d_state_f32 st0, st;
    double t;
    int k;

    CHECK_STATUS(mbs_simulation_settings_default_f32(&s), MBS_OK);
    CHECK(s.end_time == 1.0f && s.number_of_steps == 100 && s.spectral_radius == 0.9f);
    CHECK(s.newton_relative_tolerance == 1e-5f && s.newton_absolute_tolerance == 1e-6f && s.newton_max_iterations == 25);
    CHECK_STATUS(mbs_simulation_settings_default_f32(NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_f32(&b, 2.0f, ref), MBS_OK);
    memset(&l, 0, sizeof l);
    l.force[0] = 3.0f;
    l.gravity[1] = -9.81f;
    CHECK_STATUS(mbs_mass_point_2d_init_state_f32(&b, &l, &s, q0, v0, &st0), MBS_OK);
    CHECK(fabs(st0.q_tt[0] - 1.5) < 1e-6 && fabs(st0.q_tt[1] + 9.81) < 1e-5);
    st = st0;
    for (k = 0; k < 50; k++) CHECK_STATUS(mbs_mass_point_2d_step_f32(&b, &l, &s, &st, h, NULL), MBS_OK);
    t = 50 * 0.01;
    CHECK(fabs(st.q[0] - (0.1 + 0.3 * t + 0.75 * t * t)) < 1e-4);
    CHECK(fabs(st.q[1] - (0.2 + 0.4 * t - 0.5 * 9.81 * t * t)) < 1e-4);
    CHECK(fabs(st.q_t[1] - (0.4 - 9.81 * t)) < 1e-4);

    /* The mini example in float. */
    memset(&none, 0, sizeof none);
    CHECK_STATUS(mbs_mass_point_2d_init_f32(&mini, 1.0f, one), MBS_OK);
    CHECK_STATUS(mbs_mass_point_2d_init_state_f32(&mini, &none, &s, mq0, mv0, &st), MBS_OK);
    for (k = 0; k < 100; k++) CHECK_STATUS(mbs_mass_point_2d_step_f32(&mini, &none, &s, &st, h, NULL), MBS_OK);
    CHECK(fabs((double)(1.0f + st.q[0]) - 2.0) <= 1e-5 && 1.0f + st.q[1] == 1.0f);

    /* Refusals. */
    POISON(bb);
    CHECK_STATUS(mbs_mass_point_2d_init_f32(NULL, 1.0f, ref), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_f32(&bb, 1.0f, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_f32(&bb, NAN, ref), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_mass_point_2d_init_f32(&bb, 1.0f, bad), MBS_ERR_NOT_FINITE);
    CHECK_STATUS(mbs_mass_point_2d_init_f32(&bb, 0.0f, ref), MBS_ERR_INVALID_MASS);
    CHECK(UNTOUCHED(bb));
    POISON(st);
    CHECK_STATUS(mbs_mass_point_2d_init_state_f32(NULL, &l, &s, q0, v0, &st), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_state_f32(&b, &l, &s, q0, v0, NULL), MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_mass_point_2d_init_state_f32(&b, &l, &s, bad, v0, &st), MBS_ERR_NOT_FINITE);
    sb = s;
    sb.spectral_radius = 1.5f;
    CHECK_STATUS(mbs_mass_point_2d_init_state_f32(&b, &l, &sb, q0, v0, &st), MBS_ERR_INVALID_SETTING);
    CHECK(UNTOUCHED(st));
    CHECK_STEP_F32_REFUSED(NULL, &l, &s, h, MBS_ERR_NULL_POINTER);
    CHECK_STEP_F32_REFUSED(&b, &l, NULL, h, MBS_ERR_NULL_POINTER);
    CHECK_STEP_F32_REFUSED(&b, &l, &s, 0.0f, MBS_ERR_INVALID_TIME_STEP);
    CHECK_STEP_F32_REFUSED(&b, &l, &s, NAN, MBS_ERR_NOT_FINITE);
    bb = b;
    bb.mass = -2.0f;
    CHECK_STEP_F32_REFUSED(&bb, &l, &s, h, MBS_ERR_INVALID_MASS);
    lb = l;
    lb.force[1] = -INFINITY;
    CHECK_STEP_F32_REFUSED(&b, &lb, &s, h, MBS_ERR_NOT_FINITE);
    sb = s;
    sb.solver_type = 1;
    CHECK_STEP_F32_REFUSED(&b, &l, &sb, h, MBS_ERR_INVALID_ARGUMENT);
    sb = s;
    sb.newton_max_iterations = 0;
    CHECK_STEP_F32_REFUSED(&b, &l, &sb, h, MBS_ERR_INVALID_SETTING);
    {
        mbs_point2d_state_f32 x = st0, keep;
        x.a[1] = NAN;
        keep = x;
        CHECK_STATUS(mbs_mass_point_2d_step_f32(&b, &l, &s, &x, h, NULL), MBS_ERR_NOT_FINITE);
        CHECK(memcmp(&x, &keep, sizeof x) == 0);
    }
}

int main(void) {
    test_settings_default();
    test_init();
    test_init_state();
    test_step();
    test_output_and_jacobian();
    test_solve_dynamic();
    test_f32();
    printf("test_mass_point_2d: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
