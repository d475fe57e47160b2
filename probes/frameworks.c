/* The frameworks workload (frameworks.h): finding the interpreters and their frameworks, running
 * each framework's script under limits, and turning what it answers into result rows. The
 * engine's half (the reference models, their files and rows) is in fw_engine.c. */
#include "probes/frameworks.h"
#include "common/file.h"
#include "common/json_doc.h"
#include "probes/child.h"
#include "probes/fw_internal.h"
#include "probes/quick.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct fw_kind {
    const char *id, *name, *script;
} fw_kinds[] = {
    {"pytorch", "PyTorch", "fw_pytorch.py"},  {"jax", "JAX", "fw_jax.py"},
    {"tensorflow", "TensorFlow", "fw_tensorflow.py"}, {"keras", "Keras", "fw_keras.py"},
    {"mlx", "MLX", "fw_mlx.py"},              {"paddlepaddle", "PaddlePaddle", "fw_paddle.py"},
    {"mindspore", "MindSpore", "fw_mindspore.py"},
};
#define NKINDS (sizeof fw_kinds / sizeof fw_kinds[0])

static const struct fw_kind *kind_of(const char *id)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (strcmp(fw_kinds[i].id, id) == 0) return &fw_kinds[i];
    return NULL;
}

const char *probe_fw_name(const char *id)
{
    const struct fw_kind *k = kind_of(id);
    return k ? k->name : id;
}

int probe_fw_loss_agrees(double loss, double engine_loss)
{
    return isfinite(loss) && isfinite(engine_loss) && fabs(loss - engine_loss) <= PROBE_FW_LOSS_RTOL * fabs(engine_loss);
}

uint64_t probe_fw_memory_limit(uint64_t total, uint64_t available)
{
    uint64_t limit = total ? total / 2 : PROBE_FW_MEMORY_UNKNOWN;
    if (limit < PROBE_FW_MEMORY_FLOOR) limit = PROBE_FW_MEMORY_FLOOR;
    uint64_t room = total && available ? (total < available ? total : available) : total ? total : available;
    if (room && limit > room / 4 * 3) limit = room / 4 * 3;
    return limit;
}

/* Planned seconds: a rough allowance (imports and compilation dominate, and how many frameworks
 * are installed is not known before they are found); the time left then follows what ran. */
double probe_fw_plan_seconds(const struct probe_options *opt) { return opt->smoke ? 20 : opt->full ? 300 : 50; }

int fw_stopped(const struct fw_state *s) { return s->opt->stop && *s->opt->stop; }

void fw_progress(struct fw_state *s, double share, const char *what)
{
    double planned = share * probe_fw_plan_seconds(s->opt);
    if (planned > s->plan_left) planned = s->plan_left;
    s->plan_left -= planned;
    if (s->progress) s->progress(s->progress_ctx, planned, what);
}

/* --- interpreters --------------------------------------------------------------------------- */

/* Every interpreter's options, one word (a wrapper script sees the script's path second): no
 * user site-packages (-s), no bytecode files written (-B). */
#define PYTHON_FLAGS "-sB"

/* name in the first folder of PATH that has it. Only absolute folders: an empty or relative
 * entry means wherever the caller happens to be, not a place an interpreter was installed. */
static int find_on_path(const char *name, char *out, size_t outsz)
{
    const char *path = getenv("PATH");
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", path ? path : "/usr/bin:/bin");
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        if (dir[0] != '/') continue;
        snprintf(out, outsz, "%s/%s", dir, name);
        if (access(out, X_OK) == 0) return 0;
    }
    return -1;
}

static void add_candidate(struct fw_state *s, const char *path, const char *error)
{
    struct probe_fw_info *info = &s->run->frameworks;
    for (int i = 0; i < info->npythons; i++)
        if (strcmp(info->python[i].path, path) == 0) return;
    if (info->npythons == PROBE_FW_MAX_PYTHONS) return;
    struct probe_fw_python *p = &info->python[info->npythons++];
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    if (error) snprintf(p->error, sizeof p->error, "%s", error);
}

/* --python PATH (a name without a slash is looked up on PATH), else the active virtual and
 * conda environments (an absolute prefix) and python3 on PATH. */
static void find_interpreters(struct fw_state *s)
{
    char path[PATH_MAX + 16], cwd[PATH_MAX];
    const struct probe_options *o = s->opt;
    for (int i = 0; i < o->npythons; i++) {
        const char *given = o->pythons[i];
        if (!strchr(given, '/')) {
            if (find_on_path(given, path, sizeof path) == 0) add_candidate(s, path, NULL);
            else add_candidate(s, given, "not found on PATH");
        } else if (given[0] != '/' && getcwd(cwd, sizeof cwd)) {
            snprintf(path, sizeof path, "%s/%s", cwd, given);
            add_candidate(s, path, NULL);
        } else {
            add_candidate(s, given, NULL);
        }
    }
    if (o->npythons) return;
    static const char *const envs[] = {"VIRTUAL_ENV", "CONDA_PREFIX"};
    for (int i = 0; i < 2; i++) {
        const char *prefix = getenv(envs[i]);
        if (!prefix || prefix[0] != '/') continue;
        snprintf(path, sizeof path, "%s/bin/python", prefix);
        if (access(path, X_OK) == 0) add_candidate(s, path, NULL);
    }
    if (find_on_path("python3", path, sizeof path) == 0) add_candidate(s, path, NULL);
}

/* A member as a string, NULL when absent or empty: what a script left out reads as unknown. */
static const char *json_string(const cJSON *o, const char *key)
{
    const char *v = json_str(o, key);
    return *v ? v : NULL;
}

struct detect_ctx {
    struct probe_fw_python *p;
    char exe[PATH_MAX]; /* the interpreter's own sys.executable: a wrapper and what it starts share it */
    unsigned keras_backends; /* bit per KERAS_BACKENDS entry */
    int answered;
};

static const char *const keras_backends[] = {"jax", "tensorflow", "torch"};

static int on_detect_line(void *ctx, const char *line)
{
    struct detect_ctx *d = ctx;
    cJSON *o = cJSON_Parse(line);
    const char *event = json_string(o, "event");
    if (!event || strcmp(event, "python") != 0 || d->answered) {
        snprintf(d->p->error, sizeof d->p->error, "its answer was not the expected JSON line: %.80s", line);
        cJSON_Delete(o);
        return 1;
    }
    d->answered = 1;
    snprintf(d->p->version, sizeof d->p->version, "%s", json_string(o, "version") ? json_string(o, "version") : "?");
    snprintf(d->p->prefix, sizeof d->p->prefix, "%s", json_string(o, "prefix") ? json_string(o, "prefix") : "");
    const char *exe = json_string(o, "executable");
    snprintf(d->exe, sizeof d->exe, "%s", exe ? exe : "");
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(o, "frameworks")) {
        const char *id = json_string(f, "id");
        if (!id || !kind_of(id) || d->p->nfound == PROBE_FW_MAX_FOUND) continue;
        struct probe_fw_found *e = &d->p->found[d->p->nfound++];
        memset(e, 0, sizeof *e);
        snprintf(e->id, sizeof e->id, "%s", id);
        snprintf(e->version, sizeof e->version, "%s", json_string(f, "version") ? json_string(f, "version") : "?");
        const char *note = json_string(f, "note");
        if (note) snprintf(e->note, sizeof e->note, "%s", note);
        if (strcmp(id, "keras") != 0 || note) continue;
        size_t used = (size_t)snprintf(e->note, sizeof e->note, "backends:");
        const cJSON *b;
        cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(f, "backends"))
            for (int k = 0; k < 3; k++)
                if (cJSON_IsString(b) && strcmp(b->valuestring, keras_backends[k]) == 0 && used < sizeof e->note) {
                    d->keras_backends |= 1u << k;
                    used += (size_t)snprintf(e->note + used, sizeof e->note - used, " %s", keras_backends[k]);
                }
        if (!d->keras_backends) snprintf(e->note, sizeof e->note, "no backend (jax, tensorflow, torch) importable");
    }
    cJSON_Delete(o);
    return 0;
}

/* Asks interpreter i what it has; drops it when an earlier one is the same installation. */
static void detect(struct fw_state *s, int i)
{
    struct probe_fw_python *p = &s->run->frameworks.python[i];
    if (p->error[0]) return;
    char script[PATH_MAX + 32];
    snprintf(script, sizeof script, "%s/fwdetect.py", s->dir);
    const char *argv[] = {p->path, PYTHON_FLAGS, script, NULL};
    struct probe_child_limits lim = {s->timeout < 30 ? s->timeout : 30, s->memory_limit, s->opt->stop};
    struct detect_ctx d = {p, "", 0, 0};
    struct probe_child_result res;
    if (probe_child_run_in(s->dir, argv, (const char *const *)s->env, &lim, on_detect_line, &d, &res) != 0) {
        snprintf(p->error, sizeof p->error, "%.250s", res.err_tail);
        return;
    }
    if (!d.answered) {
        char why[300];
        probe_child_describe(&res, &lim, why, sizeof why);
        if (!p->error[0]) snprintf(p->error, sizeof p->error, "%.250s", why);
        p->nfound = 0;
        return;
    }
    snprintf(s->exe[i], sizeof s->exe[i], "%s", d.exe);
    s->keras[i] = d.keras_backends;
}

/* Interpreters found (not given) that are one installation (python3 on PATH is the active
 * virtual environment's): the first stays. Each is started by the path it was found or given
 * as, so a wrapper script's settings hold. */
static void drop_duplicates(struct fw_state *s)
{
    struct probe_fw_info *info = &s->run->frameworks;
    if (s->opt->npythons) return;
    for (int i = 1; i < info->npythons; i++) {
        int same = 0;
        for (int j = 0; j < i && !same; j++)
            same = !info->python[i].error[0] && !info->python[j].error[0] && strcmp(s->exe[i], s->exe[j]) == 0 &&
                   strcmp(info->python[i].prefix, info->python[j].prefix) == 0;
        if (!same) continue;
        memmove(&info->python[i], &info->python[i + 1], (size_t)(info->npythons - i - 1) * sizeof info->python[0]);
        memmove(s->exe[i], s->exe[i + 1], (size_t)(info->npythons - i - 1) * sizeof s->exe[0]);
        memmove(&s->keras[i], &s->keras[i + 1], (size_t)(info->npythons - i - 1) * sizeof s->keras[0]);
        info->npythons--;
        i--;
    }
}

/* --- one framework's process ------------------------------------------------------------------ */

struct job {
    int py, found;
    const char *backend; /* Keras: the backend, else NULL */
};

struct job_ctx {
    struct fw_state *s;
    const struct job *job;
    const char *id;
    int done, rows, measuring;
    char mode[32], model[8], device[16], kind[16];
    char bad[256];
};

/* A row from the script's answer: its figures, or why there are none. */
static void add_row(struct job_ctx *c, const cJSON *o)
{
    struct fw_state *s = c->s;
    const char *device = json_string(o, "device"), *error = json_string(o, "error");
    const char *mode = json_string(o, "mode"), *model = json_string(o, "model"), *kind = json_string(o, "kind");
    struct probe_result *res = probe_result_add(s->run, PROBE_WL_FRAMEWORKS, device ? device : "cpu", PROBE_M_STEP_MS, "ms");
    if (!res) return;
    int m = model && strcmp(model, "gpt") == 0 ? 1 : model && strcmp(model, "mlp") == 0 ? 0 : -1;
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(o, "first_loss");
    const cJSON *first_s = cJSON_GetObjectItemCaseSensitive(o, "first_step_s");
    fw_row_params(s, res, c->id, s->run->frameworks.python[c->job->py].found[c->job->found].version, mode ? mode : "-",
                  m, kind ? kind : "", c->job->py, cJSON_IsNumber(first) ? first->valuedouble : NAN,
                  cJSON_IsNumber(first_s) ? first_s->valuedouble : NAN);
    if (error) {
        res->skipped = 1;
        snprintf(res->reason, sizeof res->reason, "%s", error);
        return;
    }
    double samples[1024];
    int n = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(o, "step_s")) {
        if (n == 1024 || !cJSON_IsNumber(t) || !(t->valuedouble > 0) || !isfinite(t->valuedouble)) {
            n = -1;
            break;
        }
        samples[n++] = t->valuedouble * 1e3;
    }
    res->skipped = 1;
    if (m < 0 || !cJSON_IsNumber(first) || n <= 0) {
        snprintf(res->reason, sizeof res->reason, "its answer lacks the model, the first loss or the step times");
    } else if (!isfinite(s->engine_loss[m])) {
        snprintf(res->reason, sizeof res->reason, "no engine reference to check it against (%.200s)", s->engine_why);
    } else if (!probe_fw_loss_agrees(first->valuedouble, s->engine_loss[m])) {
        snprintf(res->reason, sizeof res->reason,
                 "trains something else: first-step loss %.7g against the engine's %.7g (relative difference %.2g, more "
                 "than %.0e)", first->valuedouble, s->engine_loss[m],
                 fabs(first->valuedouble - s->engine_loss[m]) / fabs(s->engine_loss[m]), PROBE_FW_LOSS_RTOL);
    } else {
        res->skipped = 0;
        probe_result_finish(res, samples, n);
    }
}

static void copy_field(char *out, size_t outsz, const cJSON *o, const char *key)
{
    const char *v = json_string(o, key);
    snprintf(out, outsz, "%s", v ? v : "-");
}

static int on_job_line(void *ctx, const char *line)
{
    struct job_ctx *c = ctx;
    cJSON *o = cJSON_Parse(line);
    const char *event = json_string(o, "event");
    struct probe_fw_found *found = &c->s->run->frameworks.python[c->job->py].found[c->job->found];
    int refuse = 0;
    if (!event) {
        snprintf(c->bad, sizeof c->bad, "its answer was not JSON lines: %.80s", line);
        refuse = 1;
    } else if (strcmp(event, "framework") == 0) {
        const char *v = json_string(o, "version");
        if (v) snprintf(found->version, sizeof found->version, "%s", v);
        size_t used = strlen(found->devices);
        const cJSON *d;
        cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(o, "devices")) {
            const char *name = json_string(d, "name"), *label = json_string(d, "label");
            char key[300];
            snprintf(key, sizeof key, "%d/%d/%s", c->job->py, c->job->found, name ? name : "");
            if (!name || used >= sizeof found->devices || strset_add(&c->s->devices, key) == 0) continue;
            used += (size_t)snprintf(found->devices + used, sizeof found->devices - used, "%s%s%s%s%s", used ? ", " : "",
                                     name, label && strcmp(name, "cpu") ? " (" : "", label && strcmp(name, "cpu") ? label : "",
                                     label && strcmp(name, "cpu") ? ")" : "");
        }
    } else if (strcmp(event, "start") == 0) {
        copy_field(c->mode, sizeof c->mode, o, "mode");
        copy_field(c->model, sizeof c->model, o, "model");
        copy_field(c->device, sizeof c->device, o, "device");
        copy_field(c->kind, sizeof c->kind, o, "kind");
        c->measuring = 1;
    } else if (strcmp(event, "row") == 0) {
        add_row(c, o);
        c->rows++;
        c->measuring = 0;
    } else if (strcmp(event, "error") == 0) {
        cJSON *row = cJSON_CreateObject();
        char why[300];
        snprintf(why, sizeof why, "cannot import: %s", json_string(o, "error") ? json_string(o, "error") : "?");
        cJSON_AddStringToObject(row, "error", why);
        cJSON_AddStringToObject(row, "mode", c->job->backend ? c->job->backend : "-");
        add_row(c, row);
        cJSON_Delete(row);
        c->rows++;
    } else if (strcmp(event, "done") == 0) {
        c->done = 1;
    } else {
        snprintf(c->bad, sizeof c->bad, "its answer has an unknown event: %.60s", event);
        refuse = 1;
    }
    cJSON_Delete(o);
    return refuse;
}

static void run_job(struct fw_state *s, const struct job *job)
{
    const struct probe_fw_found *found = &s->run->frameworks.python[job->py].found[job->found];
    const struct fw_kind *k = kind_of(found->id);
    char script[PATH_MAX + 32], spec[PATH_MAX + 32];
    snprintf(script, sizeof script, "%s/%s", s->dir, k->script);
    snprintf(spec, sizeof spec, "%s/spec.json", s->dir);
    const char *argv[] = {s->run->frameworks.python[job->py].path, PYTHON_FLAGS, script, spec, job->backend, NULL};
    struct probe_child_limits lim = {s->timeout, s->memory_limit, s->opt->stop};
    struct job_ctx c = {.s = s, .job = job, .id = found->id};
    struct probe_child_result res;
    int started = probe_child_run_in(s->dir, argv, (const char *const *)s->env, &lim, on_job_line, &c, &res) == 0;
    if (c.done) return;
    /* Ended before it said it was done: the measurement it was in (or the framework) says why. */
    char why[400];
    if (!started) snprintf(why, sizeof why, "%.390s", res.err_tail);
    else if (res.end == PROBE_CHILD_REFUSED && c.bad[0]) snprintf(why, sizeof why, "%s", c.bad);
    else probe_child_describe(&res, &lim, why, sizeof why);
    if (!c.measuring && c.rows > 0) return; /* it ended between measurements: nothing was lost */
    cJSON *row = cJSON_CreateObject();
    cJSON_AddStringToObject(row, "error", why);
    cJSON_AddStringToObject(row, "mode", c.measuring ? c.mode : job->backend ? job->backend : "-");
    if (c.measuring) {
        cJSON_AddStringToObject(row, "model", c.model);
        cJSON_AddStringToObject(row, "device", c.device);
        cJSON_AddStringToObject(row, "kind", c.kind);
    }
    add_row(&c, row);
    cJSON_Delete(row);
}

/* --- the workload ------------------------------------------------------------------------------ */

static int list_jobs(struct fw_state *s, struct job *jobs, int max)
{
    int n = 0;
    const struct probe_fw_info *info = &s->run->frameworks;
    /* the most common first, so that a cancelled run has them */
    for (size_t k = 0; k < NKINDS; k++)
        for (int p = 0; p < info->npythons; p++)
            for (int f = 0; f < info->python[p].nfound; f++) {
                if (strcmp(info->python[p].found[f].id, fw_kinds[k].id) != 0) continue;
                if (strcmp(fw_kinds[k].id, "keras") != 0) {
                    if (n < max) jobs[n++] = (struct job){p, f, NULL};
                    continue;
                }
                for (int b = 0; b < 3; b++)
                    if ((s->keras[p] & (1u << b)) && n < max) jobs[n++] = (struct job){p, f, keras_backends[b]};
            }
    return n;
}

static void nothing_found(struct fw_state *s)
{
    struct probe_result *res = probe_result_add(s->run, PROBE_WL_FRAMEWORKS, "cpu", PROBE_M_STEP_MS, "ms");
    if (!res) return;
    res->skipped = 1;
    const struct probe_fw_info *info = &s->run->frameworks;
    size_t used = (size_t)snprintf(res->reason, sizeof res->reason, "no framework found");
    if (!info->npythons) snprintf(res->reason + used, sizeof res->reason - used, ": no python3 on PATH (--python PATH)");
    for (int i = 0; i < info->npythons && used < sizeof res->reason; i++)
        used += (size_t)snprintf(res->reason + used, sizeof res->reason - used, "%s %s%s%s", i ? ";" : ":",
                                 info->python[i].path, info->python[i].error[0] ? ": " : "", info->python[i].error);
}

void probe_fw_run(struct probe_run *run, const struct probe_options *opt, int threads,
                  void (*progress)(void *ctx, double planned_seconds, const char *what), void *ctx)
{
    struct fw_state *s = calloc(1, sizeof *s);
    if (!s) return;
    s->run = run;
    s->opt = opt;
    s->threads = threads;
    s->progress = progress;
    s->progress_ctx = ctx;
    s->plan_left = probe_fw_plan_seconds(opt);
    s->engine_loss[0] = s->engine_loss[1] = NAN;
    s->timeout = opt->framework_timeout_s > 0 ? opt->framework_timeout_s : opt->full ? 600 : 120;
    s->memory_limit = probe_fw_memory_limit(run->hw.cpu.memory_bytes, (uint64_t)quick_memory_available_bytes());
    s->dir_fd = -1;
    memset(&run->frameworks, 0, sizeof run->frameworks);
    run->frameworks.ran = 1;
    fw_shape(opt, &run->frameworks.models);
    char why[512] = "";
    struct job jobs[PROBE_FW_MAX_PYTHONS * (PROBE_FW_MAX_FOUND + 2)];
    int njobs = 0;
    if (fw_folder_make(s, why, sizeof why) != 0 || fw_env_make(s) != 0) {
        struct probe_result *res = probe_result_add(run, PROBE_WL_FRAMEWORKS, "cpu", PROBE_M_STEP_MS, "ms");
        if (res) res->skipped = 1, snprintf(res->reason, sizeof res->reason, "%.250s", why[0] ? why : "out of memory");
        goto done;
    }
    find_interpreters(s);
    for (int i = 0; i < run->frameworks.npythons && !fw_stopped(s); i++) detect(s, i);
    drop_duplicates(s);
    fw_progress(s, 0.04, "frameworks: looking");
    njobs = list_jobs(s, jobs, (int)(sizeof jobs / sizeof jobs[0]));
    if (fw_stopped(s)) goto done;
    if (njobs == 0) {
        nothing_found(s);
        goto done;
    }
    if (fw_engine(s, why, sizeof why) != 0) { /* no reference: no framework can be checked */
        struct probe_result *res = probe_result_add(run, PROBE_WL_FRAMEWORKS, "cpu", PROBE_M_STEP_MS, "ms");
        if (res) res->skipped = 1, snprintf(res->reason, sizeof res->reason, "the engine's reference: %.200s", why);
        goto done;
    }
    fw_progress(s, 0.1, "frameworks: engine");
    for (int j = 0; j < njobs && !fw_stopped(s); j++) {
        run_job(s, &jobs[j]);
        char what[32];
        const char *id = run->frameworks.python[jobs[j].py].found[jobs[j].found].id;
        snprintf(what, sizeof what, "frameworks: %s%s%s", id, jobs[j].backend ? "/" : "", jobs[j].backend ? jobs[j].backend : "");
        fw_progress(s, 0.86 / njobs, what);
    }
done:
    fw_folder_remove(s);
    fw_progress(s, 1, "frameworks");
    fw_env_free(s->env);
    strset_free(&s->devices);
    free(s);
}
