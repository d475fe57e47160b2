/* Signals during a probe, on a machine kept busy: Ctrl-C, SIGTERM and SIGHUP stop the longest
 * workloads within a second on the command line and in the interface, the finished results are
 * stored marked interrupted (status 1), a second signal ends the program at once, one that comes
 * while the run is stored waits until it is stored whole; and the interface neither reads nor
 * writes a FIFO (it would wait for the other end for ever).
 *
 * The probe runs on a pseudo-terminal, so that its progress line says where it is: each signal
 * is sent once the progress (or a file a framework script leaves) shows the workload running,
 * and the time is measured from the signal to the end of the process. Every core runs a busy
 * loop meanwhile. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/file.h"
#include "tests/support.h"
#include "tests/tmux_driver.h"

static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
static const char *const sig_names[] = {"SIGINT", "SIGTERM", "SIGHUP"};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* --- a busy machine: a spinning process per core, for the whole test ------------------------- */

static pid_t loaders[256];
static int nloaders;

static void load_start(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    if (cores > 256) cores = 256;
    for (nloaders = 0; nloaders < cores; nloaders++) {
        pid_t pid = fork();
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives the test */
            for (volatile unsigned long i = 0;; i++) {}
        }
        if (pid < 0) break;
        loaders[nloaders] = pid;
    }
}

static void load_stop(void)
{
    for (int i = 0; i < nloaders; i++) kill(loaders[i], SIGKILL);
    for (int i = 0; i < nloaders; i++) waitpid(loaders[i], NULL, 0);
    nloaders = 0;
}

/* The test's folder (and so its knowledge base) in memory where there is a memory file system:
 * a sync on a disk other programs share took half a second and more, which is not the program's
 * to shorten. */
static void setup(void)
{
    struct statfs fs;
    if (statfs("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC && access("/dev/shm", W_OK) == 0)
        setenv("TMPDIR", "/dev/shm", 1);
    tty_setup();
    load_start();
}

static void teardown(void)
{
    load_stop();
    tty_teardown();
}

TestSuite(probe_signals, .init = setup, .fini = teardown, .timeout = 300);

/* --- fwadvisor probe on a pseudo-terminal ---------------------------------------------------- */

struct proc {
    pid_t pid;
    int master;  /* its standard error: the progress line and the messages */
    char *out;   /* all it wrote there */
    size_t len, cap;
    int exited, status;
    double cpu; /* once exited: the CPU seconds it used, all its threads */
};

/* fwadvisor --db=... args, with extra "KEY=VALUE" entries in its environment (NULL-terminated,
 * may be NULL); standard output to /dev/null, standard error to a pseudo-terminal. */
static void proc_start(struct proc *p, const char *const *args, const char *const *extra_env)
{
    memset(p, 0, sizeof *p);
    const char *bin = getenv("FWADVISOR_BIN");
    if (!bin) bin = "./fwadvisor";
    p->master = posix_openpt(O_RDWR | O_NOCTTY);
    cr_assert(p->master >= 0 && grantpt(p->master) == 0 && unlockpt(p->master) == 0, "no pseudo-terminal");
    const char *slave = ptsname(p->master);
    cr_assert_not_null(slave);
    char slave_path[256];
    snprintf(slave_path, sizeof slave_path, "%s", slave);
    const char *argv[24] = {bin, tty_dbarg()};
    int n = 2;
    for (; args[n - 2] && n < 23; n++) argv[n] = args[n - 2];
    argv[n] = NULL;
    p->pid = fork();
    cr_assert_geq(p->pid, 0);
    if (p->pid == 0) {
        int tty = open(slave_path, O_RDWR | O_NOCTTY), null = open("/dev/null", O_RDWR);
        dup2(null, 0), dup2(null, 1), dup2(tty, 2);
        setenv("NO_COLOR", "1", 1);
        setenv("TMPDIR", tty_dir(), 1); /* what a killed run leaves (the frameworks' folder) goes with the test's */
        static const char *const unset[] = {"FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE",
                                            "TPU_ACCELERATOR_TYPE"};
        for (size_t i = 0; i < sizeof unset / sizeof unset[0]; i++) unsetenv(unset[i]);
        for (const char *const *e = extra_env; e && *e; e++) putenv((char *)*e);
        signal(SIGINT, SIG_DFL), signal(SIGTERM, SIG_DFL), signal(SIGHUP, SIG_DFL);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    p->cap = 65536;
    p->out = calloc(1, p->cap);
}

/* Reads what it wrote for up to ms milliseconds and notes when it has ended. */
static void proc_pump(struct proc *p, int ms)
{
    struct pollfd pf = {p->master, POLLIN, 0};
    if (poll(&pf, 1, ms) > 0 && (pf.revents & POLLIN)) {
        if (p->len + 4097 > p->cap) p->out = realloc(p->out, p->cap *= 2);
        ssize_t n = read(p->master, p->out + p->len, 4096);
        if (n > 0) p->len += (size_t)n, p->out[p->len] = '\0';
    } else if (ms > 0 && (pf.revents & (POLLHUP | POLLERR))) {
        pause_ms(ms); /* the terminal's other end is closed: poll would not wait */
    }
    struct rusage ru;
    if (!p->exited && wait4(p->pid, &p->status, WNOHANG, &ru) == p->pid) {
        p->exited = 1;
        p->cpu = ts_rusage_cpu(&ru);
    }
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *at = hay; (at = strstr(at, needle)); at += strlen(needle)) n++;
    return n;
}

/* Waits (at most `seconds`) until text has appeared `times` times; 0 when it ended first. */
static int proc_wait_text(struct proc *p, const char *text, int times, double seconds)
{
    for (double end = now_s() + seconds; now_s() < end && !p->exited;) {
        if (count_of(p->out, text) >= times) return 1;
        proc_pump(p, 20);
    }
    return count_of(p->out, text) >= times;
}

/* Waits (at most `seconds`) until the file at path exists; 0 when it ended first. */
static int proc_wait_file(struct proc *p, const char *path, double seconds)
{
    for (double end = now_s() + seconds; now_s() < end && !p->exited && access(path, F_OK) != 0;) proc_pump(p, 20);
    return access(path, F_OK) == 0;
}

/* Waits until it has ended (at most `seconds`; then it is killed) and returns how long it took. */
static double proc_wait_end(struct proc *p, double seconds)
{
    double start = now_s();
    while (!p->exited && now_s() - start < seconds) proc_pump(p, 5);
    double took = now_s() - start;
    if (!p->exited) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, &p->status, 0);
        p->exited = 1;
    }
    for (int i = 0; i < 50; i++) proc_pump(p, 0); /* its last words */
    return took;
}

static void proc_free(struct proc *p)
{
    if (!p->exited) {
        kill(p->pid, SIGKILL);
        waitpid(p->pid, NULL, 0);
    }
    close(p->master);
    free(p->out);
}

/* 1 while signal sig is pending for process pid as a whole (not yet taken by any thread). */
static int signal_pending(pid_t pid, int sig)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned long long mask = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "ShdPnd: %llx", &mask) == 1) break;
    fclose(f);
    return (int)(mask >> (sig - 1) & 1);
}

/* Waits until the program has taken sig (its handler has run). */
static void wait_taken(const struct proc *p, int sig)
{
    for (int i = 0; i < 1000 && signal_pending(p->pid, sig); i++) pause_ms(5);
    cr_assert_not(signal_pending(p->pid, sig), "the program never took the signal");
}

/* --- the stored run -------------------------------------------------------------------------- */

static cJSON *latest_run(void)
{
    struct ts_run r;
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", NULL};
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){tty_dbarg(), "probe", "show", "latest", "--json", NULL}),
                 0);
    cJSON *doc = r.status == 0 ? cJSON_Parse(r.out) : NULL;
    cr_assert_not_null(doc, "no stored run: %s", r.err);
    ts_run_free(&r);
    return doc;
}

static int runs_stored(void)
{
    struct ts_run r;
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", NULL};
    cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){tty_dbarg(), "probe", "list", "--json", NULL}), 0);
    cr_assert_eq(r.status, 0, "the knowledge base cannot be read: %s", r.err);
    cJSON *rows = cJSON_Parse(r.out);
    int n = cJSON_GetArraySize(rows);
    cJSON_Delete(rows);
    ts_run_free(&r);
    return n;
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The results of workload (and metric, when not NULL) with status "ok" / "skipped". */
static int count_rows(const cJSON *doc, const char *workload, const char *metric, const char *status)
{
    int n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "results"))
        n += !strcmp(str_of(r, "workload"), workload) && (!metric || !strcmp(str_of(r, "metric"), metric)) &&
             !strcmp(str_of(r, "status"), status);
    return n;
}

/* The results with status "ok", of every workload. */
static int count_ok(const cJSON *doc)
{
    int n = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "results")) n += !strcmp(str_of(r, "status"), "ok");
    return n;
}

/* Every skipped result of workload says "interrupted". */
static void expect_skipped_interrupted(const cJSON *doc, const char *workload)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "results"))
        if (!strcmp(str_of(r, "workload"), workload) && !strcmp(str_of(r, "status"), "skipped"))
            cr_expect_str_eq(str_of(r, "reason"), "interrupted", "%s %s", workload, str_of(r, "metric"));
}

/* A signal delay_ms after `marker` has shown `times` times (or the file `marker_file` exists:
 * this run makes it; env adds to the environment),
 * so that it lands inside the workload that follows, not in the instant between two: the program
 * ends within a second with status 1 and says what it kept (`kept`, or when NULL the count of
 * the stored run's finished results); the run stored is the latest, marked interrupted.
 * Returns that run. */
static cJSON *interrupt_once(const char *const *args, const char *const *env, const char *marker, int times,
                             const char *marker_file, int delay_ms, int k, const char *kept, double *took, double *cpu)
{
    struct proc p;
    if (marker_file) unlink(marker_file); /* this run's own mark, not a try's before */
    proc_start(&p, args, env);
    if (marker_file) {
        cr_assert(proc_wait_file(&p, marker_file, 120), "the workload never began:\n%s", p.out);
    } else {
        cr_assert(proc_wait_text(&p, marker, times, 180), "the progress never showed '%s' %d times:\n%s", marker, times,
                  p.out);
    }
    for (double end = now_s() + delay_ms / 1000.0; now_s() < end && !p.exited;) proc_pump(&p, 5);
    const char *what = "";
    for (int i = 0; args[i]; i++)
        if (!strcmp(args[i], "--workload") && args[i + 1]) what = args[i + 1];
    double cpu0 = ts_cpu_of(p.pid);
    kill(p.pid, sigs[k]);
    *took = proc_wait_end(&p, 30);
    *cpu = p.cpu - cpu0;
    cr_log_info("%s %s: ended %.3f s after the signal, %.3f s of CPU", what, sig_names[k], *took, *cpu);
    cr_expect(WIFEXITED(p.status) && WEXITSTATUS(p.status) == 1, "%s: ended with status %d (signal %d):\n%s",
              sig_names[k], WIFEXITED(p.status) ? WEXITSTATUS(p.status) : -1,
              WIFSIGNALED(p.status) ? WTERMSIG(p.status) : 0, p.out);
    cJSON *doc = latest_run();
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(doc, "interrupted")), "%s: not marked interrupted", sig_names[k]);
    char count[64], want[200];
    int ok = count_ok(doc);
    snprintf(count, sizeof count, "the %d finished result%s", ok, ok == 1 ? " is" : "s are");
    snprintf(want, sizeof want, "fwadvisor: interrupted by %s: %s saved as probe run ", sig_names[k],
             kept ? kept : count);
    cr_expect(strstr(p.out, want) != NULL, "'%s' not in:\n%s", want, p.out);
    proc_free(&p);
    return doc;
}

/* The same, within a second: under TS_STOP_CPU seconds of CPU after the signal, which no load
 * changes, on every try, and under a second at the machine's pace. A machine other programs
 * share stalled a process for a second and more, now and then, wherever it was (twice in some
 * 400 stops here): a case over the second of wall time runs once more, and the second try
 * decides. A stop that is slow every time fails both. */
static cJSON *interrupt(const char *const *args, const char *const *env, const char *marker, int times,
                        const char *marker_file, int delay_ms, int k, const char *kept)
{
    double took, cpu;
    cJSON *doc = interrupt_once(args, env, marker, times, marker_file, delay_ms, k, kept, &took, &cpu);
    double second = ts_seconds_at_pace(1.0);
    cr_expect_lt(cpu, TS_STOP_CPU, "%s used %.3f s of CPU after the signal", sig_names[k], cpu);
    if (took >= second) {
        fprintf(stderr, "probe_signals: %s: %.3f s, over the second (%.2f s at this pace): once more\n", sig_names[k],
                took, second);
        cJSON_Delete(doc);
        doc = interrupt_once(args, env, marker, times, marker_file, delay_ms, k, kept, &took, &cpu);
        second = ts_seconds_at_pace(1.0);
        cr_expect_lt(cpu, TS_STOP_CPU, "%s used %.3f s of CPU after the signal, on the second try", sig_names[k], cpu);
    }
    cr_expect_lt(took, second, "%s ended %.3f s after the signal, on both tries (a second is %.2f s at this pace)",
                 sig_names[k], took, second);
    return doc;
}

/* --- the command line ------------------------------------------------------------------------ */

/* The sgemm sweep (--full: 256 to 4096), signalled 50, 200 and 350 ms into the first product of
 * its last size (the probe marks its start, FWADVISOR_TEST_GEMM_MARK, so the signal never lands
 * in the filling of the matrices before it, which a loaded machine stretches): a 4096 product
 * took 1.3 s on two busy cores and the stop was seen only between products. The six sizes before
 * are kept (and the best of them), the last one is interrupted. */
Test(probe_signals, gemm_stops_within_a_second_and_keeps_the_sizes_done)
{
    static const int done[] = {256, 512, 1024, 1536, 2048, 3072};
    for (int k = 0; k < 3; k++) {
        const char *args[] = {"probe", "--full", "--workload", "gemm", NULL};
        char mark_env[4300], mark_file[4300];
        snprintf(mark_env, sizeof mark_env, "FWADVISOR_TEST_GEMM_MARK=%s/gemm-%d", tty_dir(), k);
        snprintf(mark_file, sizeof mark_file, "%s/gemm-%d.4096", tty_dir(), k);
        const char *env[] = {mark_env, NULL};
        cJSON *doc = interrupt(args, env, NULL, 0, mark_file, 50 + 150 * k, k, "the 7 finished results are");
        cr_expect_eq(count_rows(doc, "gemm", "gflops", "ok"), 6, "%s", sig_names[k]);
        cr_expect_eq(count_rows(doc, "gemm", "gflops_best", "ok"), 1, "%s", sig_names[k]);
        int i = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "results"))
            if (!strcmp(str_of(r, "metric"), "gflops") && !strcmp(str_of(r, "status"), "ok") && i < 6)
                cr_expect_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "params"), "n")->valueint, done[i++]);
        cr_expect_eq(count_rows(doc, "gemm", "gflops", "skipped"), 1, "n=4096 (%s)", sig_names[k]);
        expect_skipped_interrupted(doc, "gemm");
        cJSON_Delete(doc);
    }
}

/* The GPT step (--full), signalled 50, 200 and 350 ms after train-tiny, before it, has finished:
 * train-tiny is kept, and of train-gpt its five rows with what its steps finished (the MFU rows need the GEMM peak
 * measured after the steps, which the stop leaves out). */
Test(probe_signals, train_gpt_stops_within_a_second_and_keeps_train_tiny)
{
    for (int k = 0; k < 3; k++) {
        const char *args[] = {"probe", "--full", "--workload", "train-tiny,train-gpt", NULL};
        cJSON *doc = interrupt(args, NULL, "%  train-tiny ", 1, NULL, 50 + 150 * k, k, NULL);
        cr_expect_eq(count_rows(doc, "train-tiny", NULL, "ok"), 1, "%s", sig_names[k]);
        cr_expect_eq(count_rows(doc, "train-gpt", NULL, "ok") + count_rows(doc, "train-gpt", NULL, "skipped"), 5,
                     "the stop came inside train-gpt (%s)", sig_names[k]);
        cr_expect_eq(count_rows(doc, "train-gpt", "mfu", "skipped"), 1, "%s", sig_names[k]);
        cr_expect_eq(count_rows(doc, "train-gpt", "mfu_catalog", "skipped"), 1, "%s", sig_names[k]);
        expect_skipped_interrupted(doc, "train-gpt");
        cJSON_Delete(doc);
    }
}

/* A fake interpreter with PyTorch whose framework process starts a daemon of its own (another
 * session, out of reach of the group's SIGKILL) holding its pipes, leaves the file `started`,
 * and hangs. Its files are named after tag; the daemon's pid goes to *daemon_pid's file. */
static char *fake_with_daemon(const char *tag, char **started, char **daemon_pid)
{
    char name[64], body[8192];
    snprintf(name, sizeof name, "python-%s", tag);
    char *fake = ts_path(tty_dir(), name);
    snprintf(name, sizeof name, "started-%s", tag);
    *started = ts_path(tty_dir(), name);
    snprintf(name, sizeof name, "daemon-%s", tag);
    *daemon_pid = ts_path(tty_dir(), name);
    snprintf(body, sizeof body,
             "#!/bin/sh\n"
             "case \"$2\" in */fwdetect.py) echo '{\"event\": \"python\", \"version\": \"3.0\", \"prefix\": \"/fake\","
             " \"frameworks\": [{\"id\": \"pytorch\", \"version\": \"9.9\"}]}'; exit 0;; esac\n"
             "/usr/bin/setsid sleep 30 &\n"
             "echo $! > '%s'\n"
             ": > '%s'\n"
             "exec sleep 600\n",
             *daemon_pid, *started);
    cr_assert_eq(ts_write_str(fake, body), 0);
    chmod(fake, 0755);
    return fake;
}

static void kill_daemon(const char *daemon_pid)
{
    char *text = ts_read(daemon_pid, NULL);
    if (text && atoi(text) > 1) kill(atoi(text), SIGKILL);
    free(text);
}

/* A framework's process that started a daemon of its own (another session, out of reach of the
 * group's SIGKILL) holding its pipes: the stop waited 2 s for them to close. The engine's two
 * reference rows, finished before, are kept. */
Test(probe_signals, frameworks_stop_within_a_second_when_a_daemon_holds_the_pipes)
{
    if (access("/usr/bin/setsid", X_OK) != 0) cr_skip_test("no setsid to start the daemon with");
    for (int k = 0; k < 3; k++) {
        char *started, *daemon_pid, *fake = fake_with_daemon(sig_names[k], &started, &daemon_pid);
        const char *args[] = {"probe", "--device", "cpu", "--workload", "frameworks", "--python", fake,
                              "--framework-timeout", "60", NULL};
        cJSON *doc = interrupt(args, NULL, NULL, 0, started, 0, k, "the 2 finished results are");
        cr_expect_eq(count_rows(doc, "frameworks", NULL, "ok"), 2, "the engine's rows (%s)", sig_names[k]);
        int pytorch = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "results"))
            if (!strcmp(str_of(cJSON_GetObjectItem(r, "params"), "framework"), "pytorch")) {
                pytorch++;
                cr_expect_str_eq(str_of(r, "reason"), "interrupted");
            }
        cr_expect_eq(pytorch, 1, "%s", sig_names[k]);
        cJSON_Delete(doc);
        kill_daemon(daemon_pid);
        free(fake), free(started), free(daemon_pid);
    }
}

/* A second Ctrl-C while the workloads wind down (here: 0.2 s for the daemon's pipes) ends the
 * program at once, by that signal; the knowledge base stays readable. It was taken as the
 * first one again, and the program went on to the end. */
Test(probe_signals, a_second_ctrl_c_ends_the_program_at_once)
{
    if (access("/usr/bin/setsid", X_OK) != 0) cr_skip_test("no setsid to start the daemon with");
    char *started, *daemon_pid, *fake = fake_with_daemon("twice", &started, &daemon_pid);
    struct proc p;
    proc_start(&p, (const char *const[]){"probe", "--device", "cpu", "--workload", "frameworks", "--python", fake,
                                         "--framework-timeout", "60", NULL}, NULL);
    cr_assert(proc_wait_file(&p, started, 120), "the framework never began:\n%s", p.out);
    kill(p.pid, SIGINT);
    wait_taken(&p, SIGINT);
    kill(p.pid, SIGINT);
    double took = proc_wait_end(&p, 30);
    cr_expect(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGINT, "ended with status %d, not by SIGINT:\n%s",
              WIFEXITED(p.status) ? WEXITSTATUS(p.status) : -1, p.out);
    double second = ts_seconds_at_pace(1.0);
    cr_expect_lt(took, second, "%.3f s after the second Ctrl-C (a second is %.2f s at this pace)", took, second);
    proc_free(&p);
    kill_daemon(daemon_pid);
    if (runs_stored() > 0) { /* had the wind-down been over, the run would be stored whole first */
        cJSON *doc = latest_run();
        cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(doc, "interrupted")));
        cr_expect_eq(count_rows(doc, "frameworks", NULL, "ok"), 2);
        cJSON_Delete(doc);
    }
    free(fake), free(started), free(daemon_pid);
}

/* While the run is being stored (here: waiting for another writer's lock), a second signal waits
 * until it is stored whole, then ends the program. It ended the program before the insert. */
Test(probe_signals, a_signal_while_storing_waits_until_the_run_is_stored)
{
    cr_assert_eq(runs_stored(), 0); /* creates the knowledge base */
    char *path = ts_path(tty_dir(), "kb.sqlite3");
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    struct proc p;
    static const char *const env[] = {"FWADVISOR_BUSY_TIMEOUT_MS=60000", NULL};
    proc_start(&p, (const char *const[]){"probe", "--full", "--workload", "train-tiny,train-gpt", NULL}, env);
    cr_assert(proc_wait_text(&p, "%  train-tiny ", 1, 180), "%s", p.out);
    kill(p.pid, SIGINT); /* stops the measuring */
    cr_assert(proc_wait_text(&p, "%  done ", 1, 30), "the measuring never ended:\n%s", p.out);
    kill(p.pid, SIGTERM); /* while it waits to store */
    wait_taken(&p, SIGTERM);
    for (double end = now_s() + 0.3; now_s() < end && !p.exited;) proc_pump(&p, 20);
    cr_expect_not(p.exited, "ended while storing:\n%s", p.out);
    cr_assert_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    proc_wait_end(&p, 30);
    cr_expect(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGTERM, "ended with status %d, not by SIGTERM:\n%s",
              WIFEXITED(p.status) ? WEXITSTATUS(p.status) : -1, p.out);
    proc_free(&p);
    char *check = NULL;
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW) check = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    cr_expect_str_eq(check ? check : "", "ok");
    free(check);
    free(path);
    cr_assert_eq(runs_stored(), 1, "the run was not stored");
    cJSON *doc = latest_run();
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(doc, "interrupted")));
    cr_expect_eq(count_rows(doc, "train-tiny", NULL, "ok"), 1);
    expect_skipped_interrupted(doc, "train-gpt");
    cJSON_Delete(doc);
}

/* --- the interface --------------------------------------------------------------------------- */

/* 1 while pid runs (not ended, not a zombie). */
static int running(pid_t pid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char state = 'Z';
    if (fgets(line, sizeof line, f) && strrchr(line, ')')) sscanf(strrchr(line, ')') + 1, " %c", &state);
    fclose(f);
    return state != 'Z' && state != 'X';
}

static void expect_terminal_restored(void)
{
    struct ts_run r;
    tty_tmux((const char *const[]){"display-message", "-p", "-t", "t", "#{alternate_on}", NULL}, &r);
    cr_expect_str_eq(r.out, "0\n", "still on the alternate screen");
    ts_run_free(&r);
}

/* A probe started from the home screen; returns once its first workload has finished. */
static pid_t tui_probe_started(void)
{
    tty_start(120, 30, "", 0);
    free(tty_wait("Start the advisor"));
    pid_t pid = tty_program();
    tty_keys_n("Down", 2);
    tty_keys("Enter");
    free(tty_wait_s("train-tiny         ", 120)); /* its line in the list of steps */
    return pid;
}

/* One signal (k) during a probe in the interface: the time from it to the program's end, and in
 * *cpu the CPU it used in that time (to its last reading, at most 5 ms before its end). */
static double tui_interrupt_once(int k, double *cpu)
{
    pid_t pid = tui_probe_started();
    double start = now_s(), cpu0 = ts_cpu_of(pid), last = cpu0;
    if (sigs[k] == SIGINT) tty_keys("C-c");
    else kill(pid, sigs[k]);
    for (double c; running(pid) && now_s() - start < 30; pause_ms(5))
        if ((c = ts_cpu_of(pid)) >= 0) last = c;
    double took = now_s() - start;
    *cpu = last - cpu0;
    cr_log_info("interface %s: ended %.3f s after the signal, %.3f s of CPU", sig_names[k], took, *cpu);
    char want[128];
    snprintf(want, sizeof want, "fwadvisor: interrupted by %s: the ", sig_names[k]);
    char *s = tty_wait("EXITED status=");
    cr_expect(strstr(s, "EXITED status=1\n") != NULL, "%s:\n%s", sig_names[k], s);
    cr_expect(strstr(s, want) && strstr(s, "saved as probe run"), "%s:\n%s", sig_names[k], s);
    free(s);
    expect_terminal_restored();
    cJSON *doc = latest_run();
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(doc, "interrupted")), "%s", sig_names[k]);
    cr_expect_eq(count_rows(doc, "train-tiny", NULL, "ok"), 1, "%s", sig_names[k]);
    cJSON_Delete(doc);
    tty_tmux((const char *const[]){"kill-session", "-t", "t", NULL}, NULL);
    return took;
}

/* Ctrl-C (the key), SIGTERM and SIGHUP during a probe in the interface: what finished is stored
 * marked interrupted, the terminal is restored and the program ends with status 1 within a
 * second (a second try as on the command line), saying so. It died with the signal and kept
 * nothing. */
Test(probe_signals, the_interface_keeps_a_probe_a_signal_stops)
{
    int tries = 0;
    for (int k = 0; k < 3; k++) {
        double cpu, took = tui_interrupt_once(k, &cpu), second = ts_seconds_at_pace(1.0);
        tries++;
        cr_expect_lt(cpu, TS_STOP_CPU, "%s: the interface used %.3f s of CPU after the signal", sig_names[k], cpu);
        if (took >= second) {
            fprintf(stderr, "probe_signals: interface %s: %.3f s, over the second (%.2f s at this pace): once more\n",
                    sig_names[k], took, second);
            took = tui_interrupt_once(k, &cpu);
            second = ts_seconds_at_pace(1.0);
            tries++;
            cr_expect_lt(cpu, TS_STOP_CPU, "%s: the interface used %.3f s of CPU after the signal, on the second try",
                         sig_names[k], cpu);
        }
        cr_expect_lt(took, second, "%s: the interface ended %.3f s after the signal, on both tries (a second is %.2f s)",
                     sig_names[k], took, second);
    }
    cr_expect_eq(runs_stored(), tries);
}

/* Once the probe is over (cancelled with Esc and stored), a signal is the interface's again: the
 * terminal restored and the program ended by it, as on any other screen. */
Test(probe_signals, after_a_probe_a_signal_restores_the_terminal_as_before)
{
    pid_t pid = tui_probe_started();
    tty_keys("Escape");
    free(tty_wait_s("cancelled in ", 60));
    kill(pid, SIGTERM);
    free(tty_wait("EXITED status=143"));
    expect_terminal_restored();
}

/* --- the interface and FIFOs ----------------------------------------------------------------- */

static char *make_fifo(const char *name)
{
    char *path = ts_path(tty_dir(), name);
    cr_assert_eq(mkfifo(path, 0600), 0, "mkfifo: %s", strerror(errno));
    return path;
}

/* Loading answers from a FIFO nobody writes to: refused at once in the message line, and the
 * interface answers the next key. It waited in open() for ever. */
Test(probe_signals, the_interface_refuses_to_load_answers_from_a_fifo)
{
    char *fifo = make_fifo("answers.fifo");
    tty_start(100, 30, "", 1);
    tty_load_answers("answers.fifo"); /* in the program's working directory */
    char *s = tty_wait("cannot read 'answers.fifo': it is a FIFO, not a regular file");
    cr_expect(strstr(s, "> Load answers from a file") != NULL, "%s", s);
    free(s);
    tty_keys("Down");
    free(tty_wait("> Quit"));
    free(fifo);
}

/* The report exported to a FIFO nobody reads: refused at once, and the interface goes on. It
 * waited in open() for a reader. */
Test(probe_signals, the_interface_refuses_to_write_a_report_to_a_fifo)
{
    char *fifo = make_fifo("report.fifo"), *answers = ts_path(tty_dir(), "answers.json");
    ts_write_str(answers, "{\"hardware\": \"nvidia\", \"devices\": 8, \"model_kind\": \"llm\","
                          " \"model_params\": \"7B\"}");
    tty_start(100, 30, "", 1);
    tty_load_answers(answers);
    free(tty_wait("[1 Ranking]"));
    tty_keys("e");
    free(tty_wait("Export the report"));
    tty_keys("C-u");
    tty_type("report.fifo");
    tty_keys("Enter");
    free(tty_wait("cannot write 'report.fifo': it is a FIFO, not a regular file"));
    tty_keys("2");
    free(tty_wait("[2 Why]"));
    free(answers);
    free(fifo);
}

/* The interface's reads and writes (common/file.h, _regular) refuse what is not a regular file
 * without waiting, with one line saying what it is; the command line's keep reading a pipe and
 * writing a device in place. */
Test(probe_signals, regular_only_reads_and_writes_refuse_fifos_and_devices)
{
    char *fifo = make_fifo("io.fifo"), *file = ts_path(tty_dir(), "plain.json"), err[4400], want[4400];
    unsigned char *data;
    size_t len;
    cr_assert_eq(file_read_regular(fifo, 1 << 20, &data, &len, err, sizeof err), FILE_REFUSED);
    snprintf(want, sizeof want, "cannot read '%s': it is a FIFO, not a regular file", fifo);
    cr_expect_str_eq(err, want);
    cr_expect_eq(file_read_regular("/dev/null", 1 << 20, &data, &len, err, sizeof err), FILE_REFUSED);
    cr_expect_str_eq(err, "cannot read '/dev/null': it is a character device, not a regular file");
    cr_expect_eq(file_read_regular("-", 1 << 20, &data, &len, err, sizeof err), FILE_MISSING,
                 "'-' is a file's name there, not standard input");
    ts_write_str(file, "{}");
    cr_assert_eq(file_read_regular(file, 1 << 20, &data, &len, err, sizeof err), FILE_OK, "%s", err);
    cr_expect(len == 2 && !memcmp(data, "{}", 2));
    free(data);
    /* the plain read takes what a writer puts into the FIFO */
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(fifo, O_WRONLY);
        _exit(fd >= 0 && write(fd, "abc", 3) == 3 ? 0 : 1);
    }
    cr_assert_eq(file_read(fifo, 1 << 20, &data, &len, err, sizeof err), FILE_OK, "%s", err);
    cr_expect(len == 3 && !memcmp(data, "abc", 3));
    free(data);
    waitpid(pid, NULL, 0);
    struct file_chunk chunk = {"x", 1};
    cr_expect_eq(file_write_regular(fifo, &chunk, 1, err, sizeof err), FILE_REFUSED);
    snprintf(want, sizeof want, "cannot write '%s': it is a FIFO, not a regular file", fifo);
    cr_expect_str_eq(err, want);
    cr_expect_eq(file_write_regular("/dev/null", &chunk, 1, err, sizeof err), FILE_REFUSED);
    cr_expect_str_eq(err, "cannot write '/dev/null': it is a character device, not a regular file");
    cr_expect_eq(file_write("/dev/null", &chunk, 1, err, sizeof err), FILE_OK, "%s", err);
    cr_expect_eq(file_write_regular(file, &chunk, 1, err, sizeof err), FILE_OK, "%s", err);
    free(fifo);
    free(file);
}
