/* C tests of a solve's step callback (mbs_system_solve_dynamic_observed): with no callback,
 * and with one that always continues, the run is bit for bit mbs_system_solve_dynamic's; a
 * callback that stops at step k leaves exactly the state of a run of k steps; the callback
 * sees every step, reads the system (time, scene, sensor rows) and is refused every change
 * (MBS_ERR_BUSY, nothing changed); a step that fails after the callback saw earlier steps puts
 * back every byte of the storage. */
#include <stdint.h>
#include "mbs.h"
#include "check.h"
#include "system_snapshot.h"

static mbs_system sys, other, during;

#define STEPS 64
static const double H = 1.0 / 256; /* k H and (k H) / k are exact */
static double rows[2][(STEPS + 1) * 4];

/* A user force f_x = 1 N that turns NaN after `nan_after` s (none if negative). */
static double nan_after = -1.0;
static void force(void *ctx, double t, double *out) {
    (void)ctx;
    out[0] = (nan_after >= 0.0 && t > nan_after) ? NAN : 1.0;
}

/* A mass point on a spring to the ground, a rigid body under gravity, a user force on the
 * point, a position sensor on each body into rows[k]. */
static void build(mbs_system *s, double *sensor_rows) {
    const double Z3[3] = {0, 0, 0}, Z2[2] = {0, 0}, Q1[4] = {1, 0, 0, 0};
    const double ref[2] = {1.0, 0.0}, g[3] = {0, 0, -9.81}, w[3] = {0.3, 2.0, -1.0};
    mbs_mass_properties mp;
    mbs_created_body point, body;
    mbs_sensor_spec spec;
    uint32_t ground, m_ground, m_point, spring, load, sensor;
    memset(&mp, 0, sizeof mp);
    mp.mass = 2.0, mp.inertia[0] = 0.1, mp.inertia[4] = 0.2, mp.inertia[8] = 0.3;
    CHECK_STATUS(mbs_system_init(s), MBS_OK);
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
    CHECK_STATUS(mbs_system_add_sensor(s, &spec, sensor_rows, STEPS + 1, &sensor), MBS_OK);
    CHECK_STATUS(mbs_system_assemble(s, NULL), MBS_OK);
}

static mbs_simulation_settings settings(uint32_t steps) {
    mbs_simulation_settings sim;
    CHECK_STATUS(mbs_simulation_settings_default(&sim), MBS_OK);
    sim.end_time = steps * H, sim.number_of_steps = steps;
    return sim;
}

/* What the callback saw and does. */
typedef struct {
    uint32_t stop_at; /* MBS_RUN_STOP after this step (0: at the start) */
    uint32_t calls;
    int in_order;     /* steps 1, 2, ... with time = step H, the system's time equal */
    int reads_ok;     /* time, scene export and sensor rows readable */
    int refused;      /* every change refused with MBS_ERR_BUSY, the storage unchanged */
} watch_t;

static void count_primitive(void *ctx, const mbs_draw_primitive *p) {
    (void)p;
    ++*(uint32_t *)ctx;
}

static int on_step(void *ctx, const mbs_system *s, const mbs_solve_progress *p) {
    watch_t *w = (watch_t *)ctx;
    mbs_system *m = (mbs_system *)s; /* to try the calls that change it */
    mbs_visualization_settings vis;
    mbs_scene_summary summary;
    mbs_simulation_settings sim = settings(STEPS);
    const double origin[3] = {0, 0, 0};
    double t = -1;
    size_t n = 0;
    uint32_t prims = 0, idx;
    w->calls++; /* the start (step 0), then every step */
    w->in_order &= p->step + 1 == w->calls && p->steps == STEPS && p->time == p->step * H;
    w->reads_ok &= mbs_system_time(s, &t) == MBS_OK && t == p->time;
    w->reads_ok &= mbs_system_sensor_rows(s, 0, &n) == MBS_OK && n == p->step + 1;
    w->reads_ok &= mbs_visualization_settings_default(&vis) == MBS_OK &&
                   mbs_system_export_scene(s, &vis, count_primitive, &prims, &summary) == MBS_OK &&
                   prims > 0;
    if (p->step == 3) {
        STORAGE_COPY(during, *s);
        w->refused &= mbs_system_step(m, H, NULL, NULL) == MBS_ERR_BUSY;
        w->refused &= mbs_system_reset(m) == MBS_ERR_BUSY;
        w->refused &= mbs_system_solve_dynamic(m, &sim, NULL, NULL) == MBS_ERR_BUSY;
        w->refused &= mbs_system_create_ground(m, origin, &idx) == MBS_ERR_BUSY;
        w->refused &= mbs_system_deinit(m) == MBS_ERR_BUSY;
        w->refused &= mbs_system_init(m) == MBS_ERR_BUSY;
        w->refused &= STORAGE_SAME(during, *s);
    }
    return p->step == w->stop_at ? MBS_RUN_STOP : MBS_RUN_CONTINUE;
}

/* The two systems' API-visible states and sensor rows are the same bits. */
static int same_run(const mbs_system *a, const mbs_system *b) {
    snapshot(a, &before_);
    snapshot(b, &after_);
    return memcmp(&before_, &after_, sizeof before_) == 0 &&
           memcmp(rows[0], rows[1], sizeof rows[0]) == 0;
}

static void test_no_callback_and_continue_are_the_plain_solve(void) {
    mbs_simulation_settings sim = settings(STEPS);
    mbs_system_solve_report a, b;
    watch_t w = {STEPS + 1, 0, 1, 1, 1};
    POISON(a), POISON(b);
    build(&sys, rows[0]);
    build(&other, rows[1]);
    CHECK_STATUS(mbs_system_solve_dynamic(&sys, &sim, &a, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_solve_dynamic_observed(&other, &sim, NULL, NULL, &b, NULL), MBS_OK);
    CHECK(same_run(&sys, &other) && memcmp(&a, &b, sizeof a) == 0);
    CHECK(a.steps == STEPS && a.stopped == 0);
    POISON(b);
    CHECK_STATUS(mbs_system_solve_dynamic_observed(&other, &sim, on_step, &w, &b, NULL), MBS_OK);
    CHECK(same_run(&sys, &other) && memcmp(&a, &b, sizeof a) == 0);
    CHECK(w.calls == STEPS + 1 && w.in_order && w.reads_ok && w.refused);
    /* after the run the system takes changes again */
    CHECK_STATUS(mbs_system_reset(&other), MBS_OK);
}

static void test_stop_at_step_k_is_a_run_of_k_steps(void) {
    const uint32_t ks[3] = {1, 17, STEPS - 1};
    int i;
    for (i = 0; i < 3; i++) {
        mbs_simulation_settings full = settings(STEPS), shorter = settings(ks[i]);
        mbs_system_solve_report r, rs;
        watch_t w = {0, 0, 1, 1, 1};
        double t;
        w.stop_at = ks[i];
        memset(rows, 0, sizeof rows);
        build(&sys, rows[0]);
        build(&other, rows[1]);
        CHECK_STATUS(mbs_system_solve_dynamic_observed(&sys, &full, on_step, &w, &r, NULL), MBS_OK);
        CHECK(r.steps == ks[i] && r.stopped == 1 && w.calls == ks[i] + 1 && w.in_order);
        CHECK_STATUS(mbs_system_solve_dynamic(&other, &shorter, &rs, NULL), MBS_OK);
        CHECK(same_run(&sys, &other));
        CHECK(r.newton_iterations == rs.newton_iterations && rs.stopped == 0);
        CHECK_STATUS(mbs_system_time(&sys, &t), MBS_OK);
        CHECK(t == ks[i] * H);
    }
}

static void test_a_failing_step_puts_every_byte_back(void) {
    mbs_simulation_settings sim = settings(STEPS);
    mbs_system_solve_report r;
    mbs_item_ref item;
    watch_t w = {STEPS + 1, 0, 1, 1, 1};
    build(&sys, rows[0]);
    CHECK_STATUS(mbs_system_solve_dynamic(&sys, &sim, NULL, NULL), MBS_OK);
    nan_after = 10 * H; /* step 11 fails (the user force is load 1, after the body's gravity) */
    POISON(r), POISON(item);
    REFUSE(mbs_system_solve_dynamic_observed(&sys, &sim, on_step, &w, &r, &item),
           MBS_ERR_NOT_FINITE);
    CHECK(w.calls == 11 && UNTOUCHED(r) && item.kind == MBS_ITEM_LOAD && item.index == 1);
    nan_after = -1.0;
    /* the refusals of the plain solve, through the observed one */
    sim.number_of_steps = 0;
    REFUSE(mbs_system_solve_dynamic_observed(&sys, &sim, on_step, &w, &r, NULL),
           MBS_ERR_INVALID_SETTING);
    REFUSE(mbs_system_solve_dynamic_observed(&sys, NULL, on_step, &w, &r, NULL),
           MBS_ERR_NULL_POINTER);
    CHECK_STATUS(mbs_system_solve_dynamic_observed(NULL, &sim, on_step, &w, &r, NULL),
                 MBS_ERR_NULL_POINTER);
    CHECK(w.calls == 11 && UNTOUCHED(r));
}

/* A load callback that calls the system it loads: every call is refused while the library
 * works on the system (assemble, step, a solve's start and steps); while a reading call runs
 * it (the load's value), reads are answered and changes refused. */
typedef struct {
    mbs_system *sys;
    uint32_t calls;
    mbs_status read;  /* what a read from the callback must return */
    int refused;      /* the read as expected, every change MBS_ERR_BUSY */
} reentry_t;

static void reentrant_force(void *ctx, double t, double *out) {
    reentry_t *r = (reentry_t *)ctx;
    const double origin[3] = {0, 0, 0};
    double now, value[3];
    uint32_t idx;
    (void)t;
    r->calls++;
    r->refused &= mbs_system_time(r->sys, &now) == r->read;
    r->refused &= mbs_system_reset(r->sys) == MBS_ERR_BUSY;
    r->refused &= mbs_system_step(r->sys, H, NULL, NULL) == MBS_ERR_BUSY;
    r->refused &= mbs_system_create_ground(r->sys, origin, &idx) == MBS_ERR_BUSY;
    r->refused &= mbs_system_deinit(r->sys) == MBS_ERR_BUSY;
    if (r->read == MBS_OK && r->calls == 1) {
        /* A reading call nested in a reading call's callback: answered, and still reading. */
        r->refused &= mbs_system_load_value(r->sys, 0, value) == MBS_OK;
        r->refused &= mbs_system_reset(r->sys) == MBS_ERR_BUSY;
    }
    out[0] = 1.0;
}

static void test_a_load_callback_cannot_reenter(void) {
    static mbs_system s;
    const double Z2[2] = {0, 0}, ref[2] = {0, 0};
    mbs_created_body point;
    mbs_simulation_settings sim = settings(4);
    reentry_t r = {&s, 0, MBS_ERR_BUSY, 1};
    uint32_t marker, load;
    double t, value[3];
    CHECK_STATUS(mbs_system_init(&s), MBS_OK);
    CHECK_STATUS(mbs_system_create_mass_point(&s, 1.0, ref, Z2, Z2, NULL, &point), MBS_OK);
    CHECK_STATUS(mbs_system_add_marker_node_position(&s, point.node, &marker), MBS_OK);
    CHECK_STATUS(mbs_system_add_load_user(&s, marker, MBS_USER_LOAD_FORCE, reentrant_force, &r, &load),
                 MBS_OK);
    CHECK_STATUS(mbs_system_assemble(&s, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_step(&s, H, NULL, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_solve_dynamic(&s, &sim, NULL, NULL), MBS_OK);
    CHECK(r.calls > 0 && r.refused);
    r.calls = 0, r.read = MBS_OK;
    CHECK_STATUS(mbs_system_load_value(&s, load, value), MBS_OK);
    CHECK(r.calls > 0 && r.refused && value[0] == 1.0);
    /* After the calls the system is free again. */
    CHECK_STATUS(mbs_system_time(&s, &t), MBS_OK);
    CHECK_STATUS(mbs_system_reset(&s), MBS_OK);
    CHECK_STATUS(mbs_system_step(&s, H, NULL, NULL), MBS_OK);
}

/* A copy of the storage taken inside a step callback is a system of its own, not busy. */
static void test_a_copy_taken_in_a_callback_is_free(void) {
    mbs_simulation_settings sim = settings(STEPS);
    watch_t w = {STEPS + 1, 0, 1, 1, 1};
    build(&sys, rows[0]);
    CHECK_STATUS(mbs_system_solve_dynamic_observed(&sys, &sim, on_step, &w, NULL, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_reset(&during), MBS_OK);
    CHECK_STATUS(mbs_system_step(&during, H, NULL, NULL), MBS_OK);
    CHECK_STATUS(mbs_system_init(&during), MBS_OK);
}

int main(void) {
    test_a_load_callback_cannot_reenter();
    test_a_copy_taken_in_a_callback_is_free();
    test_no_callback_and_continue_are_the_plain_solve();
    test_stop_at_step_k_is_a_run_of_k_steps();
    test_a_failing_step_puts_every_byte_back();
    printf("test_progress: %d failures\n", failures);
    return failures != 0;
}
