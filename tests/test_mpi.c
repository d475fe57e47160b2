/* Probes across MPI ranks, run as users run them: `mpirun -np 2 fwadvisor probe` on this machine
 * over loopback. Allreduce results are checked element by element inside the workload; train-dp
 * checks that every rank holds the same weights and that they match one process over the same
 * global batch (a failed check turns the row into "result check failed"). Skipped where mpirun or
 * the MPI plug-in is missing. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/cuda/plugin.h"
#include "probes/dist.h"
#include "tests/support.h"

static char *dir, *db, *dbenv;
static char mpirun[256];

static void setup(void)
{
    dir = ts_tmpdir();
    db = ts_path(dir, "kb.sqlite3");
    dbenv = malloc(strlen(db) + 16);
    sprintf(dbenv, "FWADVISOR_DB=%s", db);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
    free(db);
    free(dbenv);
}

TestSuite(mpi, .init = setup, .fini = teardown, .timeout = 240);

static void need_mpi(void)
{
    const char *plugin = getenv("FWADVISOR_MPI_PLUGIN");
    if (!plugin || access(plugin, F_OK) != 0) cr_skip_test("the MPI plug-in is not built here (no mpicc, or MPI=0)");
    static const char *const where[] = {"/usr/bin/mpirun", "/usr/local/bin/mpirun", NULL};
    for (int i = 0; where[i]; i++)
        if (access(where[i], X_OK) == 0) {
            snprintf(mpirun, sizeof mpirun, "%s", where[i]);
            return;
        }
    cr_skip_test("no mpirun");
}

/* mpirun as root, more ranks than cores, and a short watchdog. Under the sanitizers, Open MPI's
 * own allocations that live until exit are suppressed (tests/fixtures/lsan-mpi.supp); its
 * components stay loaded so that their frames have names to match. */
static const char *const *mpi_env(void)
{
    static const char *env[10];
    static char lsan[600];
    const char *fx = getenv("FWADVISOR_FIXTURES");
    snprintf(lsan, sizeof lsan, "LSAN_OPTIONS=suppressions=%s/lsan-mpi.supp:print_suppressions=0:fast_unwind_on_malloc=0",
             fx ? fx : "tests/fixtures");
    env[0] = "NO_COLOR=1";
    env[1] = "OMPI_ALLOW_RUN_AS_ROOT=1";
    env[2] = "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
    env[3] = "OMPI_MCA_rmaps_base_oversubscribe=1";
    env[4] = dbenv;
    env[5] = "FWADVISOR_MPI_TIMEOUT=30";
    env[6] = "OMPI_MCA_mca_base_component_disable_dlclose=1";
    env[7] = lsan;
    env[8] = NULL;
    return env;
}

static int run_mpi(struct ts_run *r, const char *const *args)
{
    return ts_exec(r, mpirun, mpi_env(), NULL, args);
}

static const cJSON *find(const cJSON *doc, const char *workload, const char *metric, int nth)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results"))
        if (!strcmp(cJSON_GetObjectItem(r, "workload")->valuestring, workload) &&
            !strcmp(cJSON_GetObjectItem(r, "metric")->valuestring, metric) && nth-- == 0)
            return r;
    return NULL;
}

Test(mpi, busbw_factor_is_nccl_tests)
{
    cr_expect_float_eq(dist_busbw_factor(2), 1.0, 1e-12);
    cr_expect_float_eq(dist_busbw_factor(8), 1.75, 1e-12);
    cr_expect_float_eq(dist_busbw_factor(1), 0.0, 1e-12);
}

Test(mpi, single_process_says_how_to_run_them)
{
    struct ts_run r;
    cr_assert_eq(ts_run(&r, (const char *const[]){"NO_COLOR=1", NULL}, NULL,
                        (const char *const[]){"probe", "--workload", "allreduce,train-dp", "--no-save", "--json", NULL}),
                 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "skipped: single process (run under mpirun -np N)") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "\"train-dp\"") != NULL);
    ts_run_free(&r);
}

Test(mpi, two_ranks_allreduce_and_train_dp_are_checked_and_stored)
{
    need_mpi();
    const char *bin = getenv("FWADVISOR_BIN");
    struct ts_run r;
    char *path = ts_path(dir, "run.json"), err[512];
    cr_assert_eq(run_mpi(&r, (const char *const[]){"-np", "2", bin, "probe", "-o", path, NULL}), 0);
    cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
    cr_expect(strstr(r.out, "saved as probe run") != NULL, "%s", r.out);
    ts_run_free(&r);

    /* one run stored, by rank 0, with the ranks and the hosts */
    cr_assert_eq(ts_run(&r, (const char *const[]){dbenv, NULL}, NULL, (const char *const[]){"probe", "list", "--json", NULL}), 0);
    cJSON *list = cJSON_Parse(r.out);
    cr_assert_not_null(list, "%s", r.out);
    cr_expect_eq(cJSON_GetArraySize(list), 1, "%s", r.out);
    cJSON_Delete(list);
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, (const char *const[]){dbenv, NULL}, NULL,
                        (const char *const[]){"probe", "show", "latest", "--json", NULL}),
                 0);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "%s", r.out);
    ts_run_free(&r);
    const cJSON *ranks = cJSON_GetObjectItem(doc, "ranks");
    cr_assert_not_null(ranks);
    cr_expect_eq(cJSON_GetObjectItem(ranks, "count")->valueint, 2);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(ranks, "hosts")), 1);
    const cJSON *per = cJSON_GetObjectItem(ranks, "per_rank");
    cr_assert_eq(cJSON_GetArraySize(per), 2);
    for (int i = 0; i < 2; i++) {
        const cJSON *p = cJSON_GetArrayItem(per, i);
        cr_expect_eq(cJSON_GetObjectItem(p, "rank")->valueint, i);
        cr_expect_gt(cJSON_GetObjectItem(p, "compute_ms")->valuedouble, 0);
        cr_expect_gt(cJSON_GetObjectItem(p, "comm_ms")->valuedouble, 0);
    }

    /* allreduce: every size ran, every element right, a bus bandwidth */
    int sizes = 0;
    for (const cJSON *a; (a = find(doc, "allreduce", "busbw_gbs", sizes)); sizes++) {
        cr_expect_str_eq(cJSON_GetObjectItem(a, "status")->valuestring, "ok", "%s", cJSON_PrintUnformatted(a));
        cr_expect_gt(cJSON_GetObjectItem(a, "median")->valuedouble, 0);
        const cJSON *params = cJSON_GetObjectItem(a, "params");
        cr_expect_eq(cJSON_GetObjectItem(params, "wrong")->valueint, 0);
        cr_expect_eq(cJSON_GetObjectItem(params, "ranks")->valueint, 2);
        /* busbw = algbw x 2 (n - 1) / n = algbw at two ranks */
        cr_expect_gt(cJSON_GetObjectItem(params, "algbw_gbs")->valuedouble, 0);
    }
    cr_expect_eq(sizes, 6, "the quick sizes: 8 B to 64 MiB");
    const cJSON *big = find(doc, "allreduce", "busbw_gbs", 5);
    cr_expect_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(big, "params"), "bytes")->valuedouble, 67108864);

    /* train-dp: the weight checks passed (the rows are "ok"), an efficiency in (0, 1.5] */
    static const char *const metrics[] = {"scaling_efficiency", "samples_per_s", "samples_per_s_single", "compute_ms",
                                          "comm_ms"};
    for (int i = 0; i < 5; i++) {
        const cJSON *t = find(doc, "train-dp", metrics[i], 0);
        cr_assert_not_null(t, "%s", metrics[i]);
        cr_expect_str_eq(cJSON_GetObjectItem(t, "status")->valuestring, "ok", "%s", cJSON_PrintUnformatted(t));
    }
    double eff = cJSON_GetObjectItem(find(doc, "train-dp", "scaling_efficiency", 0), "median")->valuedouble;
    cr_expect(eff > 0 && eff <= 1.5, "%g", eff);
    cJSON_Delete(doc);

    /* The efficiency measured on CPU ranks is not applied to a GPU plan (the report says why),
     * and is applied to a multi-device CPU plan, even after a newer single-process run, with the
     * seed's anecdote beside it. */
    cr_assert_eq(ts_run(&r, (const char *const[]){dbenv, NULL}, NULL,
                        (const char *const[]){"probe", "--workload", "train-tiny", NULL}),
                 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, (const char *const[]){dbenv, NULL}, NULL,
                        (const char *const[]){"recommend", "--preset", "academic-research", "--json", NULL}),
                 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cJSON *rep = cJSON_Parse(r.out);
    cr_assert_not_null(rep, "%s", r.out);
    const cJSON *time = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "plan"), "time");
    cr_expect(strstr(cJSON_GetObjectItem(time, "scaling_source")->valuestring, "measured:") == NULL, "%s",
              cJSON_GetObjectItem(time, "scaling_source")->valuestring);
    char *skipped = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "plan"), "measured"));
    cr_expect(strstr(skipped, "CPU communication; your answers name nvidia") != NULL, "%s", skipped);
    free(skipped);
    cJSON_Delete(rep);
    ts_run_free(&r);
    cr_assert_eq(ts_run(&r, (const char *const[]){dbenv, NULL}, NULL,
                        (const char *const[]){"recommend", "--set", "hardware=cpu", "--set", "devices=2", "--set",
                                              "model_kind=vision", "--set", "tokens=1e10", "--json", NULL}),
                 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    rep = cJSON_Parse(r.out);
    cr_assert_not_null(rep, "%s", r.out);
    time = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "plan"), "time");
    cr_expect_float_eq(cJSON_GetObjectItem(time, "scaling_efficiency")->valuedouble, eff, 1e-3);
    cr_expect(strstr(cJSON_GetObjectItem(time, "scaling_source")->valuestring, "measured") != NULL);
    cr_expect(strstr(cJSON_GetObjectItem(time, "scaling_seed")->valuestring, "DDP") != NULL);
    cJSON_Delete(rep);
    ts_run_free(&r);

    char *schema = ts_path(getenv("FWADVISOR_SCHEMA_DIR"), "probe.schema.json");
    int v = ts_validate_json(path, schema, err, sizeof err);
    if (v >= 0) cr_expect_eq(v, 0, "%s", err);
    free(path);
    free(schema);
}

Test(mpi, mismatched_versions_stop_at_start)
{
    need_mpi();
    const char *bin = getenv("FWADVISOR_BIN");
    struct ts_run r;
    cr_assert_eq(run_mpi(&r, (const char *const[]){"-np", "1", "-x", "FWADVISOR_TEST_VERSION=9.9.9", bin, "probe", ":",
                                                   "-np", "1", bin, "probe", NULL}),
                 0);
    cr_expect_neq(r.status, 0);
    cr_expect(strstr(r.err, "runs fwadvisor 9.9.9") != NULL || strstr(r.err, "rank 0 runs") != NULL, "%s", r.err);
    ts_run_free(&r);
    cr_expect_eq(access(db, F_OK) == 0 ? 1 : 0, 0, "no knowledge base was even created");
}

/* Kills one rank in the middle of train-dp: mpirun and the other rank end, with an error, in
 * bounded time, and nothing is stored. */
Test(mpi, a_killed_rank_ends_the_run_without_saving)
{
    need_mpi();
    const char *bin = getenv("FWADVISOR_BIN");
    char *held = ts_path(dir, "held");
    char hold_file[4300];
    snprintf(hold_file, sizeof hold_file, "FWADVISOR_TEST_HOLD_FILE=%s", held);
    int errpipe[2];
    cr_assert_eq(pipe(errpipe), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        for (const char *const *e = mpi_env(); *e; e++) putenv((char *)*e);
        putenv("FWADVISOR_TEST_HOLD_RANK=1"); /* rank 1 stops mid-train-dp and says so */
        putenv(hold_file);
        dup2(errpipe[1], 2);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) dup2(devnull, 1);
        close(errpipe[0]);
        execl(mpirun, mpirun, "-np", "2", "-x", "FWADVISOR_TEST_HOLD_RANK", "-x", "FWADVISOR_TEST_HOLD_FILE", bin,
              "probe", "--workload", "train-dp", (char *)NULL);
        _exit(127);
    }
    close(errpipe[1]);
    /* Rank 1 writes its process id when every rank has started train-dp and it holds: the kill
     * lands mid-run however fast the machine is. */
    int victim = 0;
    for (int i = 0; i < 600 && !victim; i++) {
        usleep(100000);
        char *text = ts_read(held, NULL);
        if (text) victim = atoi(text);
        free(text);
    }
    free(held);
    if (!victim) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
    cr_assert_gt(victim, 0, "rank 1 never reached train-dp");
    cr_assert_eq(kill(victim, SIGKILL), 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 600 && done == 0; i++) {
        done = waitpid(pid, &status, WNOHANG);
        if (!done) usleep(100000);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        cr_assert_fail("mpirun still ran 60 s after a rank was killed");
    }
    char buf[4096] = "";
    ssize_t n = read(errpipe[0], buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = 0;
    close(errpipe[0]);
    cr_expect(!WIFEXITED(status) || WEXITSTATUS(status) != 0, "mpirun exited 0 after a rank was killed");
    cr_expect(strstr(buf, "signal 9") || strstr(buf, "Killed") || strstr(buf, "no answer") || strstr(buf, "rank"),
              "%s", buf);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    cr_expect_lt(secs, 45, "%.1f s to stop", secs);
    /* nothing half-written: the database has no probe run (or does not exist) */
    struct ts_run r;
    if (access(db, F_OK) == 0) {
        cr_assert_eq(ts_run(&r, (const char *const[]){dbenv, NULL}, NULL, (const char *const[]){"probe", "list", "--json", NULL}), 0);
        cJSON *list = cJSON_Parse(r.out);
        cr_expect(cJSON_IsArray(list) && cJSON_GetArraySize(list) == 0, "%s", r.out);
        cJSON_Delete(list);
        ts_run_free(&r);
    }
}

/* --device cuda under MPI: allreduce goes through NCCL on each rank's GPU; without GPUs the row
 * says why, and the run still ends cleanly. */
Test(mpi, gpu_allreduce_without_gpus_says_why)
{
    need_mpi();
    char err[256];
    const struct eng_cuda_plugin *p = eng_cuda_load(err, sizeof err);
    if (p && p->device_count(err, sizeof err) > 0) cr_skip_test("this machine has a GPU");
    const char *bin = getenv("FWADVISOR_BIN");
    struct ts_run r;
    cr_assert_eq(run_mpi(&r, (const char *const[]){"-np", "2", bin, "probe", "--device", "cuda", "--no-save", "--json", NULL}), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    /* rank 0 records the row with its own reason; with no GPU to count, the device is "cuda" */
    cr_expect(strstr(r.out, "no usable GPU on rank 0: ") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "\"device\":\t\"cuda\"") != NULL, "%s", r.out);
    ts_run_free(&r);
}
