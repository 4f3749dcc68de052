/* The main demo: a mechanism to look at, through the system C API.
 *
 * Two steel rods (Modelica BodyCylinder, lengths 0.6 m and 0.4 m, diameter 0.06 m) hang as a
 * double pendulum on revolute joints: rod 1's frame_a pinned to the ground at the origin, rod
 * 2's frame_a pinned to rod 1's frame_b, both joints about the world z axis, gravity
 * g = (0, -9.81, 0). Released from rest at 0.8 rad and -0.4 rad from the vertical, 2 s at
 * 1 kHz (mbs_system_solve_dynamic: generalized-alpha, the rods in Euler parameters, the joints
 * with Lagrange multipliers), sensors into C buffers.
 *
 * Checked against references it computes itself: the rods' angles against the double
 * pendulum's equations in minimal coordinates (two angles, Lagrange's equations with each
 * rod's mass, centre of mass and inertia from the same BodyCylinder, RK4 at a step 20 times
 * finer); the energy (kinetic + m g y of both rods, conserved by the motion); the joints'
 * residuals. Exits non-zero if off.
 *
 * With MBS_RUN_DIR set (the Makefile's `run` sets target/mbs-run), it streams there:
 *   run.txt      the run recording ("mbs-run 1", core's graphics::record): the start and a
 *                frame every 4 steps, written by mbs_system_record_frame from the solve's
 *                step callback (called at step 0 and after each step),
 *                then the sensors as time plots; `mbs-view page run.txt` makes the page that
 *                plays it in a browser,
 *   scene.txt    the final scene, one line per draw primitive (mbs_system_export_scene's
 *                callback; the "mbs-scene 1" format of view/src/stream.rs),
 *   sensors.csv  time, rod 1 COM x, y, rod 2 COM x, y (every 10 ms);
 * `mbs-view render scene.txt --csv sensors.csv` draws the picture and the time plot. The step
 * callback also prints a progress line when the run takes longer than a second. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mbs.h"

#define DT 1e-3
#define STEPS 2000
#define EVERY 10
#define FRAME_EVERY 4

static mbs_system sys;
static double com1[(STEPS + 1) * 4], com2[(STEPS + 1) * 4];
static double kin1[(STEPS + 1) * 2], kin2[(STEPS + 1) * 2];
static const double G = 9.81;

/* One rod of the minimal-coordinate reference: mass m (kg), length l (m), centre of mass c (m
 * from frame_a), inertia about the centre of mass for the joint axis i (kg m^2). */
typedef struct {
    double m, l, c, i;
} rod_t;

/* Angular accelerations of the double pendulum at absolute angles th (rad, from the downward
 * vertical) and rates w (rad/s): Lagrange's equations M th'' = f with
 * M = [I1 + m1 c1^2 + m2 l1^2, m2 l1 c2 cos(d); m2 l1 c2 cos(d), I2 + m2 c2^2], d = th1 - th2,
 * f = [-m2 l1 c2 sin(d) w2^2 - (m1 c1 + m2 l1) g sin(th1); m2 l1 c2 sin(d) w1^2 - m2 c2 g sin(th2)]. */
static void pendulum_rhs(const rod_t r[2], const double th[2], const double w[2], double acc[2]) {
    double d = th[0] - th[1], k = r[1].m * r[0].l * r[1].c;
    double a = r[0].i + r[0].m * r[0].c * r[0].c + r[1].m * r[0].l * r[0].l;
    double b = k * cos(d), e = r[1].i + r[1].m * r[1].c * r[1].c;
    double f1 = -k * sin(d) * w[1] * w[1] - (r[0].m * r[0].c + r[1].m * r[0].l) * G * sin(th[0]);
    double f2 = k * sin(d) * w[0] * w[0] - r[1].m * r[1].c * G * sin(th[1]);
    double det = a * e - b * b;
    acc[0] = (e * f1 - b * f2) / det;
    acc[1] = (a * f2 - b * f1) / det;
}

/* The reference: RK4 from th0 at rest over `steps` steps of h; the angles into th. */
static void pendulum_reference(const rod_t r[2], const double th0[2], double h, int steps,
                               double th[2]) {
    double w[2] = {0, 0}, k[4][4], y[4], t[2], v[2];
    int n, j, s;
    th[0] = th0[0], th[1] = th0[1];
    for (n = 0; n < steps; n++) {
        for (s = 0; s < 4; s++) {
            double f = s == 0 ? 0 : (s == 3 ? 1 : 0.5);
            for (j = 0; j < 2; j++) {
                t[j] = th[j] + (s ? f * h * k[s - 1][j] : 0);
                v[j] = w[j] + (s ? f * h * k[s - 1][2 + j] : 0);
            }
            k[s][0] = v[0], k[s][1] = v[1];
            pendulum_rhs(r, t, v, &k[s][2]);
        }
        for (j = 0; j < 4; j++) y[j] = (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]) * h / 6;
        th[0] += y[0], th[1] += y[1], w[0] += y[2], w[1] += y[3];
    }
}

static int fail(mbs_status s, const char *what) {
    printf("%s failed: %s\n", what, mbs_status_str(s));
    return 1;
}
#define TRY(call, what)                                   \
    do {                                                  \
        mbs_status s_ = (call);                           \
        if (!mbs_status_is_ok(s_)) return fail(s_, what); \
    } while (0)

/* The export callback: one "mbs-scene 1" record per primitive into the FILE in ctx. */
static void write_primitive(void *ctx, const mbs_draw_primitive *p) {
    FILE *f = (FILE *)ctx;
    int i;
    switch (p->shape) {
    case MBS_SHAPE_CYLINDER:
        fprintf(f, "cylinder %u %u %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", p->body,
                p->index, p->p0[0], p->p0[1], p->p0[2], p->p1[0], p->p1[1], p->p1[2],
                p->size[0], p->size[1]);
        break;
    case MBS_SHAPE_BOX:
        fprintf(f, "box %u %u %.17g %.17g %.17g", p->body, p->index, p->p0[0], p->p0[1],
                p->p0[2]);
        for (i = 0; i < 9; i++) fprintf(f, " %.17g", p->axes[i]);
        fprintf(f, " %.17g %.17g %.17g", p->size[0], p->size[1], p->size[2]);
        break;
    case MBS_SHAPE_SPHERE:
        fprintf(f, "sphere %u %u %.17g %.17g %.17g %.17g", p->body, p->index, p->p0[0],
                p->p0[1], p->p0[2], p->size[0]);
        break;
    default:
        fprintf(f, "line %u %u %.17g %.17g %.17g %.17g %.17g %.17g", p->body, p->index,
                p->p0[0], p->p0[1], p->p0[2], p->p1[0], p->p1[1], p->p1[2]);
        break;
    }
    fprintf(f, " %.9g %.9g %.9g %.9g %.9g", p->color[0], p->color[1], p->color[2], p->color[3],
            p->specular);
    if (p->has_contour_value) fprintf(f, " %.17g", p->contour_value);
    else fprintf(f, " -");
    if (p->has_label)
        fprintf(f, " %u %.17g %.17g %.17g\n", p->label_number, p->label_position[0],
                p->label_position[1], p->label_position[2]);
    else fprintf(f, " -\n");
}

/* The recording's text callback: the pieces into the FILE in ctx. */
static void write_text(void *ctx, const char *text, size_t len) {
    fwrite(text, 1, len, (FILE *)ctx);
}

/* What the solve's step callback does: a frame every FRAME_EVERY steps into `run` (if open),
 * and a progress line once the run has taken longer than a second. */
typedef struct {
    FILE *run;
    const mbs_visualization_settings *vis;
    clock_t start;
    int progress_shown;
} watch_t;

static int on_step(void *ctx, const mbs_system *s, const mbs_solve_progress *p) {
    watch_t *w = (watch_t *)ctx;
    double wall = (double)(clock() - w->start) / CLOCKS_PER_SEC;
    if (w->run && p->step % FRAME_EVERY == 0 &&
        mbs_system_record_frame(s, w->vis, write_text, w->run, NULL) != MBS_OK)
        return MBS_RUN_STOP;
    if (wall > 1.0 && (p->step % 100 == 0 || p->step == p->steps)) {
        printf("\rsolve: step %u / %u, t = %.3f s, %.1f s", p->step, p->steps, p->time, wall);
        fflush(stdout);
        w->progress_shown = 1;
    }
    return MBS_RUN_CONTINUE;
}

static FILE *open_out(const char *dir, const char *name) {
    char path[1024];
    FILE *f;
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return NULL;
    f = fopen(path, "w");
    if (!f) printf("cannot write %s\n", path);
    return f;
}

int main(void) {
    const double r1[3] = {0.6, 0, 0}, r2[3] = {0.4, 0, 0}, origin[3] = {0, 0, 0};
    const double g[3] = {0, -G, 0}, th0[2] = {0.8, -0.4}, pi_2 = 2.0 * atan(1.0);
    const char *dir = getenv("MBS_RUN_DIR");
    mbs_cylinder cyl[2];
    mbs_mass_properties mp[2];
    mbs_body_start start;
    mbs_created_body rod[2];
    mbs_sensor_spec spec;
    mbs_simulation_settings sim;
    mbs_system_settings settings;
    mbs_item_ref failed;
    mbs_visualization_settings vis;
    mbs_scene_summary summary;
    mbs_system_solve_report report;
    watch_t watch = {NULL, NULL, 0, 0};
    rod_t ref[2];
    uint32_t ground, m_ground, frames[2][2], joint[2], s_c1, s_c2, s_k1, s_k2;
    size_t n, i, len;
    double t, th_ref[2], th[2], err[2], e0 = 0, max_de = 0, res[3], max_res = 0;
    int k;

    for (k = 0; k < 2; k++) {
        TRY(mbs_cylinder_default(&cyl[k], k == 0 ? r1 : r2), "cylinder");
        cyl[k].has_diameter = true;
        cyl[k].diameter = 0.06;
        TRY(mbs_cylinder_mass_properties(&cyl[k], &mp[k]), "mass properties");
        ref[k].m = mp[k].mass, ref[k].l = k == 0 ? r1[0] : r2[0], ref[k].c = mp[k].com[0];
        ref[k].i = mp[k].inertia[8]; /* about the COM, for the z axis (the joints') */
        printf("rod %d: mass %.9g kg, length %g m, COM %.6g m from frame_a, I_zz %.9g kg m^2\n",
               k + 1, ref[k].m, ref[k].l, ref[k].c, ref[k].i);
    }

    TRY(mbs_system_init(&sys), "init");
    TRY(mbs_system_get_settings(&sys, &settings), "settings");
    settings.scheme = MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA;
    TRY(mbs_system_set_settings(&sys, &settings), "settings");
    /* Rod 1 from the origin at th0[0] from the downward vertical (its axis, x, turned about z
     * by th - pi/2); rod 2 from rod 1's frame_b at th0[1]. */
    TRY(mbs_body_start_default(&start), "start");
    start.angles_start[2] = th0[0] - pi_2;
    TRY(mbs_system_create_body_cylinder(&sys, &cyl[0], &start, g, &rod[0]), "rod 1");
    start.r_0_start[0] = r1[0] * sin(th0[0]), start.r_0_start[1] = -r1[0] * cos(th0[0]);
    start.angles_start[2] = th0[1] - pi_2;
    TRY(mbs_system_create_body_cylinder(&sys, &cyl[1], &start, g, &rod[1]), "rod 2");
    /* Revolute joints about z (the body frames' z is the world's: the rods turn about z). */
    TRY(mbs_system_create_ground(&sys, origin, &ground), "ground");
    TRY(mbs_system_add_marker_body_rigid(&sys, ground, origin, &m_ground), "marker");
    TRY(mbs_system_add_frame_markers(&sys, rod[0].object, frames[0]), "frames of rod 1");
    TRY(mbs_system_add_frame_markers(&sys, rod[1].object, frames[1]), "frames of rod 2");
    /* ground - rod 1's frame_a, rod 1's frame_b - rod 2's frame_a */
    TRY(mbs_system_add_revolute_joint(&sys, m_ground, frames[0][0], &joint[0]), "joint 1");
    TRY(mbs_system_add_revolute_joint(&sys, frames[0][1], frames[1][0], &joint[1]), "joint 2");

    memset(&spec, 0, sizeof spec);
    spec.kind = MBS_SENSOR_BODY, spec.variable = MBS_OUTPUT_POSITION;
    spec.index = rod[0].object, spec.local_position[0] = ref[0].c;
    TRY(mbs_system_add_sensor(&sys, &spec, com1, STEPS + 1, &s_c1), "sensor COM 1");
    spec.index = rod[1].object, spec.local_position[0] = ref[1].c;
    TRY(mbs_system_add_sensor(&sys, &spec, com2, STEPS + 1, &s_c2), "sensor COM 2");
    spec.variable = MBS_OUTPUT_KINETIC_ENERGY, spec.local_position[0] = 0.0;
    TRY(mbs_system_add_sensor(&sys, &spec, kin2, STEPS + 1, &s_k2), "sensor energy 2");
    spec.index = rod[0].object;
    TRY(mbs_system_add_sensor(&sys, &spec, kin1, STEPS + 1, &s_k1), "sensor energy 1");
    if (mbs_system_assemble(&sys, &failed) != MBS_OK) return fail(MBS_ERR_INVALID_ARGUMENT, "assemble");

    /* What is drawn: body numbers, colours by the speed of each rod's reference point. */
    TRY(mbs_visualization_settings_default(&vis), "visualization settings");
    vis.bodies_show_numbers = true;
    vis.contour_output_variable = MBS_OUTPUT_VELOCITY;
    vis.contour_output_variable_component = -1; /* the norm */
    if (dir) {
        watch.run = open_out(dir, "run.txt");
        if (!watch.run) return 1;
        TRY(mbs_record_header("scene_run.c: double pendulum of two steel BodyCylinder rods on "
                              "revolute joints", write_text, watch.run), "record");
    }

    TRY(mbs_simulation_settings_default(&sim), "settings");
    sim.end_time = STEPS * DT, sim.number_of_steps = STEPS; /* generalized-alpha, rho 0.9 */
    watch.vis = &vis, watch.start = clock();
    TRY(mbs_system_solve_dynamic_observed(&sys, &sim, on_step, &watch, &report, &failed), "solve");
    if (watch.progress_shown) printf("\n");
    TRY(mbs_system_time(&sys, &t), "time");
    TRY(mbs_system_sensor_rows(&sys, s_k1, &n), "rows");
    for (i = 0; i < n; i++) {
        double e = kin1[2 * i + 1] + kin2[2 * i + 1] +
                   G * (ref[0].m * com1[4 * i + 2] + ref[1].m * com2[4 * i + 2]);
        if (i == 0) e0 = e;
        if (fabs(e - e0) > max_de) max_de = fabs(e - e0);
    }
    for (k = 0; k < 2; k++) {
        TRY(mbs_system_constraint_output(&sys, joint[k], MBS_OUTPUT_CONSTRAINT_RESIDUAL, res, 3, &len),
            "residual");
        max_res = fmax(max_res, fmax(res[0], res[1]));
    }
    {
        /* The angles from the COMs: rod 1's frame_b is twice its COM (uniform rod). */
        const double *p1 = &com1[4 * (n - 1)], *p2 = &com2[4 * (n - 1)];
        th[0] = atan2(p1[1], -p1[2]);
        th[1] = atan2(p2[1] - 2 * p1[1], -(p2[2] - 2 * p1[2]));
    }
    pendulum_reference(ref, th0, DT / 20, STEPS * 20, th_ref);
    err[0] = fabs(th[0] - th_ref[0]), err[1] = fabs(th[1] - th_ref[1]);
    printf("t = %g s (%d steps of %g s, generalized-alpha), %u sensor rows\n", t, STEPS, DT,
           (unsigned)n);
    printf("rod 1 angle = %.9f rad, minimal-coordinate reference %.9f rad, error = %.3e rad\n",
           th[0], th_ref[0], err[0]);
    printf("rod 2 angle = %.9f rad, minimal-coordinate reference %.9f rad, error = %.3e rad\n",
           th[1], th_ref[1], err[1]);
    printf("energy E0 = %.9g J, max |E - E0| / (m1 + m2) g L1 = %.3e\n", e0,
           max_de / ((ref[0].m + ref[1].m) * G * ref[0].l));
    printf("joint residual at the end = %.3e (m, and rad)\n", max_res);

    /* The scene, streamed by the export callback. */
    if (dir) {
        FILE *f = open_out(dir, "scene.txt"), *csv;
        if (!f) return 1;
        fprintf(f, "mbs-scene 1\ntitle scene_run.c, t = %g s: double pendulum of two rods (0, 1)\n", t);
        TRY(mbs_system_export_scene(&sys, &vis, write_primitive, f, &summary), "export scene");
        if (summary.has_contour_range)
            fprintf(f, "contour %.17g %.17g |velocity| (m/s)\n", summary.contour_min,
                    summary.contour_max);
        fclose(f);
        csv = open_out(dir, "sensors.csv");
        if (!csv) return 1;
        fprintf(csv, "time,rod 1 COM x (m),rod 1 COM y (m),rod 2 COM x (m),rod 2 COM y (m)\n");
        for (i = 0; i < n; i += EVERY)
            fprintf(csv, "%.17g,%.17g,%.17g,%.17g,%.17g\n", com1[4 * i], com1[4 * i + 1],
                    com1[4 * i + 2], com2[4 * i + 1], com2[4 * i + 2]);
        fclose(csv);
        /* The recording's time plots: the sensors' rows, every 4th. */
        fprintf(watch.run, "signal rod 1 COM x (m)\nsignal rod 1 COM y (m)\nsignal rod 2 COM x (m)\n"
                           "signal rod 2 COM y (m)\nsignal E - E0 (J)\n");
        for (i = 0; i < n; i += FRAME_EVERY) {
            double e = kin1[2 * i + 1] + kin2[2 * i + 1] +
                       G * (ref[0].m * com1[4 * i + 2] + ref[1].m * com2[4 * i + 2]);
            fprintf(watch.run, "sample %.17g %.17g %.17g %.17g %.17g %.17g\n", com1[4 * i],
                    com1[4 * i + 1], com1[4 * i + 2], com2[4 * i + 1], com2[4 * i + 2], e - e0);
        }
        fclose(watch.run);
        printf("run: %u steps, %u frames recorded to %s/run.txt\n", report.steps,
               report.steps / FRAME_EVERY + 1, dir);
        printf("scene: %u bodies drawn, %u primitives, streamed to %s/scene.txt; sensors to "
               "%s/sensors.csv\n",
               summary.bodies_drawn, summary.primitives, dir, dir);
    } else {
        TRY(mbs_system_export_scene(&sys, &vis, write_primitive, stdout, &summary),
            "export scene");
        printf("scene: %u bodies drawn, %u primitives\n", summary.bodies_drawn,
               summary.primitives);
    }

    if (!(err[0] < 1e-3) || !(err[1] < 1e-3) || !(max_de / ((ref[0].m + ref[1].m) * G * ref[0].l) < 1e-3) ||
        !(max_res < 1e-9)) {
        printf("WRONG: off the references\n");
        return 1;
    }
    return 0;
}
