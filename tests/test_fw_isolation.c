/* The frameworks workload's children, and the libraries the environment names checked as
 * plug-ins are: grandchildren that leave their process group or session (killed, their memory
 * counted), and FWADVISOR_NVML_LIB / FWADVISOR_CUDA_LIB / FWADVISOR_NCCL_LIB in folders anyone
 * may write. */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/libpath.h"
#include "probes/child.h"
#include "probes/frameworks.h"
#include "tests/support.h"

#define NOBODY 65534

static char *dir;
static char real_dir[PATH_MAX], dbarg[4300], tmpdir_env[4300];

static void setup(void)
{
    dir = ts_tmpdir();
    cr_assert_not_null(dir);
    cr_assert_not_null(realpath(dir, real_dir));
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
    snprintf(tmpdir_env, sizeof tmpdir_env, "TMPDIR=%s", dir);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(fw_isolation, .init = setup, .fini = teardown, .timeout = 120);

/* --- helpers --------------------------------------------------------------------------------- */

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void write_exec(const char *path, const char *text)
{
    cr_assert_eq(ts_write_str(path, text), 0, "%s", path);
    chmod(path, 0755);
}

/* 1 once no process pid exists (polled every 20 ms for up to `seconds`), else 0. */
static int gone_within(pid_t pid, double seconds)
{
    for (int i = 0; i < (int)(seconds * 50); i++) {
        if (kill(pid, 0) != 0 && errno == ESRCH) return 1;
        nap_ms(20);
    }
    return 0;
}

/* The number in file path once it is there (written whole by a rename), looked for every 20 ms
 * for up to `seconds` (0: once); 0 when it is not there. */
static pid_t pid_in(const char *path, double seconds)
{
    for (int i = 0;; i++) {
        char *text = ts_read(path, NULL);
        long pid = text ? strtol(text, NULL, 10) : 0;
        free(text);
        if (pid > 0) return (pid_t)pid;
        if (i >= (int)(seconds * 50)) return 0;
        nap_ms(20);
    }
}

/* A fake interpreter's answer to the detection script: the one framework named. */
static const char detect_pytorch[] =
    "case \"$2\" in */fwdetect.py) echo '{\"event\": \"python\", \"version\": \"3.0\", \"prefix\": \"/fake\","
    " \"frameworks\": [{\"id\": \"pytorch\", \"version\": \"9.9\"}]}'; exit 0;; esac\n";

static const char *const frameworks_args[] = {"probe", "--workload", "frameworks", "--device", "cpu", "--no-save",
                                              "--json", "--threads", "1", NULL};

/* Runs the frameworks workload with the interpreter `python` and env (ts_run's form, more
 * entries than these may follow). */
static void run_frameworks(struct ts_run *r, const char *const *env, const char *python)
{
    const char *args[24];
    int n = 0;
    args[n++] = dbarg;
    for (const char *const *a = frameworks_args; *a; a++) args[n++] = *a;
    if (python) args[n++] = "--python", args[n++] = python;
    args[n] = NULL;
    cr_assert_eq(ts_run(r, env, NULL, args), 0);
}

/* --- what a child leaves behind -------------------------------------------------------------------- */

/* A framework's script that starts a process in a session of its own (setsid, out of the
 * process group that used to be killed) and ends: that process is gone when the run is. */
Test(fw_isolation, a_grandchild_in_its_own_session_ends_with_the_run, .timeout = 180)
{
    char *pidfile = ts_path(dir, "grandchild"), *fake = ts_path(dir, "python"), text[8192];
    snprintf(text, sizeof text,
             "#!/bin/sh\n%s"
             "setsid sh -c 'echo $$ > \"%s.tmp\"; mv \"%s.tmp\" \"%s\"; exec sleep 300' </dev/null >/dev/null 2>&1 &\n"
             "while [ ! -s '%s' ]; do sleep 0.02; done\n",
             detect_pytorch, pidfile, pidfile, pidfile, pidfile);
    write_exec(fake, text);
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", tmpdir_env, NULL};
    struct ts_run r;
    run_frameworks(&r, env, fake);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    pid_t grandchild = pid_in(pidfile, 0);
    cr_assert_gt(grandchild, 0, "the script did not start its grandchild");
    int gone = gone_within(grandchild, 5);
    if (!gone) kill(grandchild, SIGKILL);
    cr_expect(gone, "the grandchild %d outlived the run", (int)grandchild);
    free(pidfile), free(fake);
}

/* The grandchild's script, for probe_child_run: a process in its own session writes its pid,
 * then (big) takes 200 MB, and sleeps; the program itself waits for it, or (not wait) ends. */
static void grandchild_script(char *out, size_t n, const char *pidfile, int big, int wait)
{
    snprintf(out, n,
             "setsid /usr/bin/python3 -c 'import os, time; f = open(\"%s.tmp\", \"w\"); f.write(str(os.getpid()));"
             " f.close(); os.rename(\"%s.tmp\", \"%s\"); b = bytearray(%d << 20); time.sleep(60)'"
             " </dev/null >/dev/null 2>&1 &\n"
             "while [ ! -s '%s' ]; do sleep 0.02; done\n%s",
             pidfile, pidfile, pidfile, big ? 200 : 1, pidfile, wait ? "wait\n" : "");
}

static int have_setsid_and_python(void)
{
    return access("/usr/bin/python3", X_OK) == 0 && (access("/usr/bin/setsid", X_OK) == 0 || access("/bin/setsid", X_OK) == 0);
}

/* 200 MB held by a grandchild in its own session against a 100 MB limit: the run stops at the
 * memory limit (not at the 20 s time limit, as when only the process group counted), and the
 * grandchild goes with it. */
Test(fw_isolation, a_grandchild_in_its_own_session_counts_toward_the_memory_limit)
{
    if (!have_setsid_and_python()) cr_skip_test("no /usr/bin/python3 or setsid");
    char *pidfile = ts_path(dir, "grandchild"), script[8192];
    grandchild_script(script, sizeof script, pidfile, 1, 1);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    struct probe_child_limits lim = {20, (uint64_t)100 << 20, NULL};
    struct probe_child_result r;
    cr_assert_eq(probe_child_run(argv, NULL, &lim, NULL, NULL, &r), 0, "%s", r.err_tail);
    pid_t grandchild = pid_in(pidfile, 0);
    cr_expect_eq(r.end, PROBE_CHILD_MEMORY, "ended %d after %.1f s", (int)r.end, r.seconds);
    cr_expect_gt(r.peak_rss_bytes, lim.memory_bytes, "%llu", (unsigned long long)r.peak_rss_bytes);
    cr_expect_lt(r.seconds, 10);
    cr_assert_gt(grandchild, 0);
    int gone = gone_within(grandchild, 5);
    if (!gone) kill(grandchild, SIGKILL);
    cr_expect(gone, "the grandchild %d outlived the run", (int)grandchild);
    free(pidfile);
}

/* The program ends by itself, leaving a process in its own session: the run ends all the same
 * (in well under the 60 s that process would sleep), and it is gone. */
Test(fw_isolation, a_program_that_ends_takes_its_setsid_grandchild_along)
{
    if (!have_setsid_and_python()) cr_skip_test("no /usr/bin/python3 or setsid");
    char *pidfile = ts_path(dir, "grandchild"), script[8192];
    grandchild_script(script, sizeof script, pidfile, 0, 0);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    struct probe_child_limits lim = {30, 0, NULL};
    struct probe_child_result r;
    cr_assert_eq(probe_child_run(argv, NULL, &lim, NULL, NULL, &r), 0, "%s", r.err_tail);
    cr_expect_eq(r.end, PROBE_CHILD_EXITED);
    cr_expect_eq(r.code, 0);
    cr_expect_lt(r.seconds, 10);
    pid_t grandchild = pid_in(pidfile, 0);
    cr_assert_gt(grandchild, 0);
    int gone = gone_within(grandchild, 5);
    if (!gone) kill(grandchild, SIGKILL);
    cr_expect(gone, "the grandchild %d outlived the run", (int)grandchild);
    free(pidfile);
}

/* The process running the child killed with SIGKILL mid-run (as fwadvisor may be): the
 * grandchild in its own session does not outlive it. */
Test(fw_isolation, a_killed_runner_leaves_no_grandchild)
{
    if (!have_setsid_and_python()) cr_skip_test("no /usr/bin/python3 or setsid");
    char *pidfile = ts_path(dir, "grandchild"), script[8192];
    grandchild_script(script, sizeof script, pidfile, 0, 1);
    pid_t runner = fork();
    cr_assert_geq(runner, 0);
    if (runner == 0) {
        const char *argv[] = {"/bin/sh", "-c", script, NULL};
        struct probe_child_limits lim = {60, 0, NULL};
        struct probe_child_result r;
        probe_child_run(argv, NULL, &lim, NULL, NULL, &r);
        _exit(0);
    }
    pid_t grandchild = pid_in(pidfile, 20);
    kill(runner, SIGKILL);
    waitpid(runner, NULL, 0);
    cr_assert_gt(grandchild, 0, "the grandchild did not start");
    int gone = gone_within(grandchild, 5);
    if (!gone) kill(grandchild, SIGKILL);
    cr_expect(gone, "the grandchild %d outlived its runner", (int)grandchild);
    free(pidfile);
}

/* A host program that ignores SIGCHLD (its children reaped for it): the supervisor still waits
 * for the program, so its exit status is known and the run ends at once, not at the limit. */
Test(fw_isolation, the_exit_status_is_known_where_sigchld_is_ignored)
{
    signal(SIGCHLD, SIG_IGN);
    const char *argv[] = {"/bin/sh", "-c", "exit 3", NULL};
    struct probe_child_limits lim = {20, 0, NULL};
    struct probe_child_result r;
    cr_assert_eq(probe_child_run(argv, NULL, &lim, NULL, NULL, &r), 0, "%s", r.err_tail);
    cr_expect_eq(r.end, PROBE_CHILD_EXITED);
    cr_expect_eq(r.code, 3);
    cr_expect_lt(r.seconds, 5);
    signal(SIGCHLD, SIG_DFL);
}

/* --- libraries named by the environment ----------------------------------------------------------------- */

/* Unset or empty: the name for the loader's search; a proper folder: the path, free of links; a
 * folder anyone may write or a missing file: refused with the reason. */
Test(fw_isolation, a_library_path_from_the_environment_is_checked_as_a_plugin_is)
{
    char path[PATH_MAX], why[PATH_MAX + 256], want[3 * PATH_MAX];
    unsetenv("FWADVISOR_TEST_LIB");
    cr_expect_eq(eng_env_library("FWADVISOR_TEST_LIB", "libx.so.1", path, sizeof path, why, sizeof why), 0);
    cr_expect_str_eq(path, "libx.so.1");
    setenv("FWADVISOR_TEST_LIB", "", 1);
    cr_expect_eq(eng_env_library("FWADVISOR_TEST_LIB", "libx.so.1", path, sizeof path, why, sizeof why), 0);
    cr_expect_str_eq(path, "libx.so.1");
    char *mine = ts_path(dir, "mine"), *lib = ts_path(dir, "mine/libx.so.1"), *link = ts_path(dir, "link.so");
    cr_assert_eq(mkdir(mine, 0755), 0);
    cr_assert_eq(ts_write_str(lib, "not really a library"), 0);
    cr_assert_eq(symlink(lib, link), 0);
    setenv("FWADVISOR_TEST_LIB", link, 1);
    cr_expect_eq(eng_env_library("FWADVISOR_TEST_LIB", "libx.so.1", path, sizeof path, why, sizeof why), 0, "%s", why);
    snprintf(want, sizeof want, "%s/mine/libx.so.1", real_dir);
    cr_expect_str_eq(path, want);
    chmod(mine, 0777);
    cr_expect_eq(eng_env_library("FWADVISOR_TEST_LIB", "libx.so.1", path, sizeof path, why, sizeof why), -1);
    snprintf(want, sizeof want, "not loading the library %s (FWADVISOR_TEST_LIB): folder %s/mine is writable by every user",
             link, real_dir);
    cr_expect_str_eq(why, want);
    chmod(mine, 0755);
    chmod(lib, 0666);
    cr_expect_eq(eng_env_library("FWADVISOR_TEST_LIB", "libx.so.1", path, sizeof path, why, sizeof why), -1);
    snprintf(want, sizeof want, "not loading the library %s (FWADVISOR_TEST_LIB): %s/mine/libx.so.1 is writable by every user",
             link, real_dir);
    cr_expect_str_eq(why, want);
    setenv("FWADVISOR_TEST_LIB", "/nonexistent/libx.so.1", 1);
    cr_expect_eq(eng_env_library("FWADVISOR_TEST_LIB", "libx.so.1", path, sizeof path, why, sizeof why), -1);
    cr_expect_str_eq(why, "not loading the library /nonexistent/libx.so.1 (FWADVISOR_TEST_LIB): /nonexistent/libx.so.1: "
                          "No such file or directory");
    unsetenv("FWADVISOR_TEST_LIB");
    free(mine), free(lib), free(link);
}

/* The probe's environment for a recorded CPU-only machine with `var` set to `value` (one of the
 * driver libraries or NCCL), the CUDA plug-in left to where the build puts it. */
static void run_with_library(struct ts_run *r, const char *var, const char *value)
{
    const char *fx = getenv("FWADVISOR_FIXTURES");
    char sysroot[4300], lib_env[4400], db_env[4300];
    snprintf(sysroot, sizeof sysroot, "FWADVISOR_SYSROOT=%s/sysroot/cpu-only", fx ? fx : "tests/fixtures");
    snprintf(lib_env, sizeof lib_env, "%s=%s", var, value);
    snprintf(db_env, sizeof db_env, "FWADVISOR_DB=%s/kb.sqlite3", dir);
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_CUDA_PLUGIN", "FWADVISOR_NVML_LIB", "FWADVISOR_CUDA_LIB",
                         "FWADVISOR_NCCL_LIB", "HWLOC_XMLFILE", sysroot, db_env, lib_env, NULL};
    cr_assert_eq(ts_run(r, env, NULL, (const char *const[]){"probe", "--workload", "train-tiny", "--no-save", "--json", NULL}),
                 0);
}

/* Each of FWADVISOR_NVML_LIB, FWADVISOR_CUDA_LIB and FWADVISOR_NCCL_LIB naming a library in a
 * folder anyone may write: one warning line naming path, variable and reason, as for a plug-in,
 * and the probe goes on without it (no GPU from the fake NVML). From the build's folder the
 * fake NVML is taken and finds its GPUs, without a word. */
Test(fw_isolation, environment_libraries_in_an_open_folder_are_refused_with_a_warning)
{
    const char *fake = getenv("FWADVISOR_FAKE_NVML");
    if (!fake || access(fake, R_OK) != 0) cr_skip_test("FWADVISOR_FAKE_NVML not built (make test-prep builds it)");
    char *open_folder = ts_path(dir, "open"), *lib = ts_path(dir, "open/libnvidia-ml.so.1");
    cr_assert_eq(mkdir(open_folder, 0755), 0);
    chmod(open_folder, 0777);
    cr_assert_eq(ts_copy(fake, lib), 0);
    chmod(lib, 0755);
    const char *vars[] = {"FWADVISOR_NVML_LIB", "FWADVISOR_CUDA_LIB", "FWADVISOR_NCCL_LIB"};
    for (int i = 0; i < 3; i++) {
        struct ts_run r;
        run_with_library(&r, vars[i], lib);
        cr_expect_eq(r.status, 0, "%s", r.err);
        char want[3 * PATH_MAX];
        snprintf(want, sizeof want, "fwadvisor: warning: not loading the library %s (%s): folder %s/open is writable by every user\n",
                 lib, vars[i], real_dir);
        cr_expect_str_eq(r.err, want);
        cr_expect_null(strstr(r.out, "NVIDIA H200"), "%s: the refused library was loaded", vars[i]);
        ts_run_free(&r);
    }
    struct ts_run r;
    run_with_library(&r, "FWADVISOR_NVML_LIB", fake);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.err, "");
    cr_expect(strstr(r.out, "NVIDIA H200") != NULL, "the fake NVML from the build's folder was not used");
    ts_run_free(&r);
    free(open_folder), free(lib);
}
