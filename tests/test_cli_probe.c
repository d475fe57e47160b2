/* fwadvisor probe as users run it: storing, listing, showing, deleting, comparing, Ctrl-C, and
 * the advisor picking up the measured peak. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "knowledge/kb.h"
#include "knowledge/probe_store.h"
#include "tests/support.h"

static char *dir;
static char dbarg[4200];
static const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", "TPU_ACCELERATOR_TYPE", NULL};

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(probe_cli, .init = setup, .fini = teardown, .timeout = 120);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static char *quick_run(void)
{
    struct ts_run r;
    RUN(r, dbarg, "probe", "--workload", "train-tiny,allreduce", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "%s", r.out);
    char *id = strdup(cJSON_GetObjectItem(doc, "id")->valuestring);
    cJSON_Delete(doc);
    ts_run_free(&r);
    return id;
}

Test(probe_cli, runs_are_stored_listed_shown_and_deleted)
{
    char *first = quick_run();
    sleep(1); /* ids are timestamps; a second run within the second would get a suffix */
    char *second = quick_run();
    cr_expect_str_neq(first, second);
    struct ts_run r;
    RUN(r, dbarg, "probe", "list");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, first) && strstr(r.out, second), "%s", r.out);
    cr_expect(strstr(r.out, second) < strstr(r.out, first), "newest first");
    cr_expect(strstr(r.out, "...") == NULL, "nothing cut in a pipe:\n%s", r.out);
    cr_expect(strstr(r.out, "2 runs.") != NULL, "%s", r.out);
    ts_run_free(&r);
    RUN(r, dbarg, "probe", "show", "latest", "--json");
    cJSON *doc = cJSON_Parse(r.out);
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "id")->valuestring, second);
    cJSON_Delete(doc);
    ts_run_free(&r);
    RUN(r, dbarg, "probe", "show", first);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "train-tiny") && strstr(r.out, "skipped: single process"), "%s", r.out);
    cr_expect(strstr(r.out, "...") == NULL, "a table in a pipe is whole (a terminal gets its width):\n%s", r.out);
    ts_run_free(&r);
    RUN(r, dbarg, "probe", "delete", first);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "probe", "show", first);
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "no probe run") != NULL);
    ts_run_free(&r);
    RUN(r, dbarg, "probe", "delete", first);
    cr_expect_eq(r.status, 3);
    ts_run_free(&r);
    free(first);
    free(second);
}

Test(probe_cli, compare_prints_changes)
{
    free(quick_run());
    struct ts_run r;
    RUN(r, dbarg, "probe", "--workload", "train-tiny", "--compare", "latest", "--no-save");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "BASELINE") && strstr(r.out, "CHANGE") && strstr(r.out, "%"), "%s", r.out);
    cr_expect(strstr(r.out, "...") == NULL, "whole in a pipe:\n%s", r.out);
    ts_run_free(&r);
    /* --no-save stored nothing: still one run */
    RUN(r, dbarg, "probe", "list", "--json");
    cJSON *rows = cJSON_Parse(r.out);
    cr_expect_eq(cJSON_GetArraySize(rows), 1);
    cJSON_Delete(rows);
    ts_run_free(&r);
    RUN(r, dbarg, "probe", "--compare", "20000101-000000", "--no-save");
    cr_expect_eq(r.status, 3);
    ts_run_free(&r);
    /* -o writes the document atomically and stores nothing with --no-save */
    char *file = ts_path(dir, "run.json");
    RUN(r, dbarg, "probe", "--workload", "allreduce", "--no-save", "-o", file);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    char *text = ts_read(file, NULL);
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "schema")->valuestring, "fwadvisor.probe/1");
    cJSON_Delete(doc);
    free(text);
    free(file);
}

/* Two stored runs whose all-reduce differs only in what it measured: `probe show --compare`
 * prints the change against the baseline's row, not "new". */
Test(probe_cli, compare_meets_the_baselines_allreduce_row)
{
    static const char *const docs[2] = {
        "{\"schema\": \"fwadvisor.probe/1\", \"id\": \"then\", \"started_at\": \"2026-01-01T00:00:00Z\", \"duration_s\": 1,"
        " \"cpu\": {\"model\": \"X\"}, \"accelerators\": [], \"results\": [{\"workload\": \"allreduce\", \"device\": \"cpu\","
        " \"metric\": \"busbw_gbs\", \"unit\": \"GB/s\", \"status\": \"ok\", \"median\": 8, \"cv\": 0.01, \"params\": {\"bytes\": 1048576,"
        " \"ranks\": 2, \"dtype\": \"fp32\", \"op\": \"sum\", \"time_us\": 188.1, \"algbw_gbs\": 5.57, \"wrong\": 0, \"via\": \"mpi\"}}]}",
        "{\"schema\": \"fwadvisor.probe/1\", \"id\": \"now\", \"started_at\": \"2026-01-02T00:00:00Z\", \"duration_s\": 1,"
        " \"cpu\": {\"model\": \"X\"}, \"accelerators\": [], \"results\": [{\"workload\": \"allreduce\", \"device\": \"cpu\","
        " \"metric\": \"busbw_gbs\", \"unit\": \"GB/s\", \"status\": \"ok\", \"median\": 10, \"cv\": 0.01, \"params\": {\"bytes\": 1048576,"
        " \"ranks\": 2, \"dtype\": \"fp32\", \"op\": \"sum\", \"time_us\": 150.5, \"algbw_gbs\": 6.97, \"wrong\": 0, \"via\": \"mpi\"}}]}",
    };
    char err[512], *path = ts_path(dir, "kb.sqlite3");
    kb *k;
    cr_assert_eq(kb_open(path, 0, &k, err, sizeof err), KB_OK, "%s", err);
    for (int i = 0; i < 2; i++) {
        cJSON *doc = cJSON_Parse(docs[i]);
        cr_assert_eq(kb_probe_save(k, doc, err, sizeof err), KB_OK, "%s", err);
        cJSON_Delete(doc);
    }
    kb_close(k);
    free(path);
    struct ts_run r;
    RUN(r, dbarg, "probe", "show", "now", "--compare", "then");
    cr_expect_eq(r.status, 0, "%s", r.err);
    const char *row = strstr(r.out, "\nallreduce ");
    cr_assert_not_null(row, "%s", r.out);
    const char *end = strchr(row + 1, '\n');
    cr_assert_not_null(end);
    int len = (int)(end - row - 1);
    cr_expect(len > 13 && strncmp(end - 13, "+25.0% better", 13) == 0, "the row: %.*s", len, row + 1);
    cr_expect(strstr(r.out, "1 MiB") != NULL, "%s", r.out);
    ts_run_free(&r);
}

Test(probe_cli, bad_arguments)
{
    struct {
        const char *args[8];
        int status;
        const char *expect;
    } cases[] = {
        {{"probe", "--workload", "gpu"}, 3, "unknown workload 'gpu'"},
        {{"probe", "--threads", "0"}, 3, "--threads 0"},
        {{"probe", "--device", "tpu"}, 3, "expected auto, cpu, cuda or cuda:N"},
        {{"probe", "--bogus"}, 2, "unknown option"},
        {{"probe", "explode"}, 2, "unknown probe subcommand"},
        {{"probe", "show"}, 2, "takes one ID"},
        {{"probe", "show", "latest"}, 3, "no probe run stored yet"},
        {{"probe", "list", "x"}, 2, "probe list takes no arguments"},
        {{"probe", "list", "--html", "page.html"}, 2, "probe list writes no page (--html): probe show ID --html FILE does"},
        /* the page on standard output leaves no room for the JSON there (--json, -o -); -o FILE is fine */
        {{"probe", "show", "latest", "--html", "-", "--json"}, 2, "--html - and the JSON document cannot both go to standard output"},
        {{"probe", "show", "latest", "--html", "-", "-o", "-"}, 2, "--html - and the JSON document cannot both go to standard output"},
        {{"probe", "show", "latest", "--html", "-", "-o", "run.json"}, 3, "no probe run stored yet"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[10] = {dbarg};
        int n = 1;
        for (int j = 0; cases[i].args[j]; j++) args[n++] = cases[i].args[j];
        args[n] = NULL;
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, args), 0);
        cr_expect_eq(r.status, cases[i].status, "case %zu: %d %s", i, r.status, r.err);
        cr_expect(strstr(r.err, cases[i].expect) != NULL, "case %zu: %s", i, r.err);
        ts_run_free(&r);
    }
}

/* One probe of train-tiny then the --full gemm sweep, interrupted delay_ms after its start: the
 * exit status, how long the stop took (wall and CPU seconds), stderr, and whether the stored run kept train-tiny. */
static int interrupted_probe(int delay_ms, int *status, double *waited, double *cpu, char *err, size_t errsz)
{
    const char *bin = getenv("FWADVISOR_BIN");
    if (!bin) bin = "./fwadvisor";
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        /* the Ctrl-C this test sends must reach the probe even when the test itself was started
         * with it ignored (a background job of a script): the probe keeps an ignored signal */
        signal(SIGINT, SIG_DFL);
        dup2(fds[1], 2);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        close(fds[0]);
        execl(bin, bin, dbarg, "probe", "--full", "--workload", "train-tiny,gemm", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    usleep((useconds_t)delay_ms * 1000);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    double cpu0 = ts_cpu_of(pid);
    kill(pid, SIGINT);
    struct rusage ru;
    wait4(pid, status, 0, &ru);
    clock_gettime(CLOCK_MONOTONIC, &b);
    *cpu = ts_rusage_cpu(&ru) - cpu0;
    *waited = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    ssize_t n = read(fds[0], err, errsz - 1);
    err[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    struct ts_run r;
    RUN(r, dbarg, "probe", "show", "latest", "--json");
    cJSON *doc = r.status == 0 ? cJSON_Parse(r.out) : NULL;
    int tiny = 0;
    cr_expect(doc && cJSON_IsTrue(cJSON_GetObjectItem(doc, "interrupted")), "not stored as interrupted: %s", r.err);
    const cJSON *res;
    cJSON_ArrayForEach(res, cJSON_GetObjectItem(doc, "results"))
        tiny |= !strcmp(cJSON_GetObjectItem(res, "workload")->valuestring, "train-tiny") &&
                !strcmp(cJSON_GetObjectItem(res, "status")->valuestring, "ok");
    cJSON_Delete(doc);
    ts_run_free(&r);
    return tiny;
}

/* Ctrl-C during the gemm sweep: exit 1, the run saved whole, marked interrupted, with the finished
 * train-tiny result. A loaded machine may not have finished train-tiny by the first stop (then
 * nothing of it can be kept): the stop comes later each time, never the stop's own check. */
Test(probe_cli, ctrl_c_stops_within_a_second_and_saves_what_was_finished)
{
    int tiny = 0;
    for (int delay_ms = 1500; !tiny && delay_ms <= 12000; delay_ms *= 2) {
        int status;
        double waited, cpu;
        char err[4096] = "";
        tiny = interrupted_probe(delay_ms, &status, &waited, &cpu, err, sizeof err);
        cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 1, "exit %d: %s", WEXITSTATUS(status), err);
        cr_expect_lt(cpu, TS_STOP_CPU, "%.3f s of CPU after Ctrl-C", cpu);
        double limit = ts_seconds_at_pace(2.5);
        cr_expect_lt(waited, limit, "stopped %.2f s after Ctrl-C (limit %.2f s at this pace)", waited, limit);
        cr_expect(strstr(err, "interrupted") != NULL, "%s", err);
    }
    cr_expect(tiny, "the finished train-tiny result was kept");
}

Test(probe_cli, recommend_uses_the_measured_peak)
{
    struct ts_run r;
    RUN(r, dbarg, "probe", "--workload", "gemm", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--set", "model_kind=llm", "--set", "model_params=1e8", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cJSON *hw = cJSON_GetObjectItem(doc, "hardware"), *time = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "time");
    cr_expect_str_eq(cJSON_GetObjectItem(hw, "source")->valuestring, "probe");
    cr_expect(strncmp(cJSON_GetObjectItem(time, "peak_source")->valuestring, "probe ", 6) == 0, "%s",
              cJSON_GetObjectItem(time, "peak_source")->valuestring);
    cr_expect_gt(cJSON_GetObjectItem(time, "peak_tflops_per_device")->valuedouble, 0);
    cJSON_Delete(doc);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", "--probe", "none", "--json");
    doc = cJSON_Parse(r.out);
    cr_expect_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "hardware"), "source")->valuestring, "detected");
    cJSON_Delete(doc);
    ts_run_free(&r);
}

Test(probe_cli, store_round_trip_in_process)
{
    char err[512];
    struct ts_kb t;
    cr_assert_eq(ts_kb_open(&t, err, sizeof err), 0, "%s", err);
    kb *k = t.kb;
    cJSON *none;
    cr_expect_eq(kb_probe_get(k, "latest", &none, err, sizeof err), KB_OK);
    cr_expect_null(none);
    const char *text = "{\"schema\": \"fwadvisor.probe/1\", \"id\": \"r1\", \"started_at\": \"2026-01-01T00:00:00Z\","
                       " \"duration_s\": 1.5, \"interrupted\": false, \"cpu\": {\"model\": \"X\"}, \"accelerators\": [],"
                       " \"results\": [{\"status\": \"ok\"}]}";
    cJSON *doc = cJSON_Parse(text);
    cr_assert_eq(kb_probe_save(k, doc, err, sizeof err), KB_OK, "%s", err);
    cJSON *back;
    cr_assert_eq(kb_probe_get(k, "r1", &back, err, sizeof err), KB_OK);
    cr_expect(cJSON_Compare(doc, back, 1), "stored and read back unchanged");
    cJSON_Delete(back);
    /* The same base id again: stored under the next free one, and the document says which. */
    cJSON *again = cJSON_Parse(text);
    cr_assert_eq(kb_probe_save(k, again, err, sizeof err), KB_OK, "%s", err);
    cr_expect_str_eq(cJSON_GetObjectItem(again, "id")->valuestring, "r1-2");
    cr_assert_eq(kb_probe_save(k, again, err, sizeof err), KB_OK, "%s", err);
    cr_expect_str_eq(cJSON_GetObjectItem(again, "id")->valuestring, "r1-2-2", "the base is the document's id");
    cJSON_Delete(again);
    cr_assert_eq(kb_probe_delete(k, "r1-2", err, sizeof err), KB_OK);
    cr_assert_eq(kb_probe_delete(k, "r1-2-2", err, sizeof err), KB_OK);
    cJSON *rows;
    cr_assert_eq(kb_probe_list(k, &rows, err, sizeof err), KB_OK);
    cr_expect_eq(cJSON_GetArraySize(rows), 1);
    cr_expect(strstr(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "summary")->valuestring, "1 results") != NULL);
    cJSON_Delete(rows);
    cJSON_Delete(doc);
    ts_kb_close(&t);
}
