/* make bench: the speed targets, measured.
 *   first-run creation of the database            < 200 ms (in process and as a whole command)
 *   `fwadvisor kb list` on an existing database   < 20 ms median, as a whole process
 *   adv_rank with the knowledge base in memory    well under 1 ms (target: median < 0.1 ms)
 *   `fwadvisor recommend --json`, existing db     < 15 ms median, as a whole process
 * Prints median/min/max per measurement and exits 1 when a target is missed. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "knowledge/advisor.h"
#include "knowledge/kb.h"
#include "knowledge/presets.h"
#include "tests/support.h"

extern char **environ;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct stats { double median, min, max; };

static struct stats summarize(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    struct stats s = {n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0], v[n - 1]};
    return s;
}

/* Runs argv with stdout and stderr to /dev/null; returns wall milliseconds or -1. */
static double time_command(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    double t0 = now_ms();
    if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return -1;
    }
    int status;
    waitpid(pid, &status, 0);
    double t = now_ms() - t0;
    posix_spawn_file_actions_destroy(&fa);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static int report(const char *what, struct stats s, double target_ms, const char *which)
{
    int ok = (strcmp(which, "median") == 0 ? s.median : s.max) < target_ms;
    printf("%-50s median %7.3f ms  min %7.3f  max %7.3f  target %s < %g ms  %s\n", what, s.median, s.min,
           s.max, which, target_ms, ok ? "PASS" : "FAIL");
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench PATH-TO-fwadvisor\n");
        return 2;
    }
    char *bin = argv[1];
    char *dir = ts_tmpdir();
    if (!dir) {
        perror("bench: temporary directory");
        return 1;
    }
    enum { CREATE_RUNS = 15, LIST_RUNS = 60 };
    double t[LIST_RUNS];
    char err[1024], path[4200], dbarg[4300];
    int all_ok = 1;

    /* 1. Creation inside the process: open a path that does not exist yet. */
    for (int i = 0; i < CREATE_RUNS; i++) {
        snprintf(path, sizeof path, "%s/create-%d.sqlite3", dir, i);
        double t0 = now_ms();
        kb *k;
        if (kb_open(path, 0, &k, err, sizeof err) != KB_OK) {
            fprintf(stderr, "bench: %s\n", err);
            return 1;
        }
        t[i] = now_ms() - t0;
        kb_close(k);
    }
    all_ok &= report("first-run creation (kb_open, in process)", summarize(t, CREATE_RUNS), 200, "max");

    /* 2. Creation as users meet it: the first `fwadvisor kb list` on a new machine. */
    for (int i = 0; i < CREATE_RUNS; i++) {
        snprintf(dbarg, sizeof dbarg, "--db=%s/cmd-%d.sqlite3", dir, i);
        char *args[] = {bin, dbarg, "kb", "list", NULL};
        if ((t[i] = time_command(args)) < 0) {
            fprintf(stderr, "bench: %s kb list failed\n", bin);
            return 1;
        }
    }
    all_ok &= report("first `fwadvisor kb list` (creates, process)", summarize(t, CREATE_RUNS), 200, "max");

    /* 3. `kb list` on an existing database, whole process, after two warm-up runs. */
    snprintf(dbarg, sizeof dbarg, "--db=%s/cmd-0.sqlite3", dir);
    char *args[] = {bin, dbarg, "kb", "list", NULL};
    for (int i = 0; i < 2; i++) time_command(args);
    for (int i = 0; i < LIST_RUNS; i++) {
        if ((t[i] = time_command(args)) < 0) {
            fprintf(stderr, "bench: %s kb list failed\n", bin);
            return 1;
        }
    }
    all_ok &= report("`fwadvisor kb list`, existing database (process)", summarize(t, LIST_RUNS), 20, "median");

    /* 4. Ranking in process, knowledge base in memory: every preset, many times. */
    {
        snprintf(path, sizeof path, "%s/cmd-0.sqlite3", dir);
        kb *k;
        struct adv_kb *akb;
        if (kb_open(path, 0, &k, err, sizeof err) != KB_OK || adv_kb_load(k, &akb, err, sizeof err) != KB_OK) {
            fprintf(stderr, "bench: %s\n", err);
            return 1;
        }
        kb_close(k);
        struct adv_result *res = calloc(1, sizeof *res);
        struct adv_ranking *ranking = calloc(1, sizeof *ranking);
        enum { RANK_RUNS = 2000 };
        static double rt[RANK_RUNS], full[RANK_RUNS];
        size_t np = presets_size();
        for (int i = 0; i < RANK_RUNS; i++) {
            struct answers a;
            answers_init(&a);
            const char *text = preset_text((size_t)i % np);
            answers_parse_json(&a, text, strlen(text), "preset", err, sizeof err);
            double t0 = now_ms();
            adv_recommend(akb, &a, NULL, res, err, sizeof err);
            full[i] = now_ms() - t0;
            t0 = now_ms();
            adv_rank(akb, &res->answers, ranking);
            rt[i] = now_ms() - t0;
        }
        all_ok &= report("adv_rank, in memory (per keystroke)", summarize(rt, RANK_RUNS), 0.1, "median");
        all_ok &= report("adv_recommend (rank + strategy + plan), in memory", summarize(full, RANK_RUNS), 1, "median");
        free(res);
        free(ranking);
        adv_kb_free(akb);
    }

    /* 5. `fwadvisor recommend --json` as a whole process. */
    char *rec[] = {bin, dbarg, "recommend", "--preset", "nvidia-2000-gpus", "--json", NULL};
    for (int i = 0; i < 2; i++) time_command(rec);
    for (int i = 0; i < LIST_RUNS; i++) {
        if ((t[i] = time_command(rec)) < 0) {
            fprintf(stderr, "bench: %s recommend failed\n", bin);
            return 1;
        }
    }
    all_ok &= report("`fwadvisor recommend --json` (process)", summarize(t, LIST_RUNS), 15, "median");

    ts_rmtree(dir);
    free(dir);
    return all_ok ? 0 : 1;
}
