/* The frameworks workload's children kept apart from the caller, and the libraries the
 * environment names checked as plug-ins are: modules planted in the caller's folder, the
 * environment and working directory a child gets, grandchildren that leave their process group
 * or session (killed, their memory counted), the memory limit's clamps, folders a killed run
 * left behind, and FWADVISOR_NVML_LIB / FWADVISOR_CUDA_LIB / FWADVISOR_NCCL_LIB in folders
 * anyone may write. */
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

/* A pid that was a process's a moment ago and is no one's now. */
static pid_t dead_pid(void)
{
    pid_t p = fork();
    if (p == 0) _exit(0);
    cr_assert_gt(p, 0);
    waitpid(p, NULL, 0);
    return p;
}

/* A fake interpreter's answer to the detection script: no framework, or the one named. */
static const char detect_none[] =
    "case \"$2\" in */fwdetect.py) echo '{\"event\": \"python\", \"version\": \"3.0\", \"prefix\": \"/fake\","
    " \"frameworks\": []}'; exit 0;; esac\n";
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

/* --- what a child starts with -------------------------------------------------------------------- */

/* Python's own startup hooks planted in the caller's folder (sitecustomize.py, usercustomize.py)
 * and modules named as frameworks (torch.py, jax.py), with PYTHONPATH=":/x" (its empty entry the
 * current folder) and a user site-packages of the caller's choosing: Debian's real python3 runs
 * the detection, and none of them is imported. */
Test(fw_isolation, modules_planted_in_the_callers_folder_never_run, .timeout = 240)
{
    if (access("/usr/bin/python3", X_OK) != 0) cr_skip_test("no /usr/bin/python3");
    char *planted = ts_path(dir, "planted"), *userbase = ts_path(dir, "userbase");
    cr_assert_eq(mkdir(planted, 0755), 0);
    char ub_env[4300];
    snprintf(ub_env, sizeof ub_env, "PYTHONUSERBASE=%s", userbase);
    struct ts_run r;
    const char *site_env[] = {ub_env, NULL};
    cr_assert_eq(ts_exec(&r, "/usr/bin/python3", site_env, NULL,
                         (const char *const[]){"-c", "import site; print(site.getusersitepackages())", NULL}),
                 0);
    char usersite[4300];
    snprintf(usersite, sizeof usersite, "%.*s", (int)strcspn(r.out, "\n"), r.out);
    ts_run_free(&r);
    char mk[4400];
    snprintf(mk, sizeof mk, "mkdir -p '%s'", usersite);
    cr_assert_eq(system(mk), 0);
    const char *modules[] = {"sitecustomize", "usercustomize", "torch", "jax"};
    for (int i = 0; i < 4; i++) {
        char path[4400], text[4400];
        snprintf(path, sizeof path, "%s/%s.py", i == 1 ? usersite : planted, modules[i]);
        snprintf(text, sizeof text, "open('%s/ran-%s', 'w').close()\n", dir, modules[i]);
        cr_assert_eq(ts_write_str(path, text), 0);
    }
    char cwd[PATH_MAX];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(planted), 0);
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", "PYTHONPATH=:/x", ub_env,
                         tmpdir_env, "PYTHONNOUSERSITE", NULL};
    run_frameworks(&r, env, "/usr/bin/python3");
    cr_assert_eq(chdir(cwd), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    for (int i = 0; i < 4; i++) {
        char marker[4400];
        snprintf(marker, sizeof marker, "%s/ran-%s", dir, modules[i]);
        cr_expect_neq(access(marker, F_OK), 0, "the planted %s.py ran", modules[i]);
    }
    /* and it was the real interpreter that answered */
    cJSON *doc = cJSON_Parse(r.out);
    const cJSON *py = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "frameworks"), "interpreters"), 0);
    cr_assert_not_null(py, "%s", r.out);
    cr_expect_str_eq(cJSON_GetObjectItem(py, "path")->valuestring, "/usr/bin/python3");
    cr_expect_null(cJSON_GetObjectItem(py, "error"), "%s", r.out);
    cr_expect(strncmp(cJSON_GetObjectItem(py, "version")->valuestring, "3.", 2) == 0, "%s", r.out);
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(py, "frameworks"))
        cr_expect_neq(strcmp(cJSON_GetObjectItem(f, "version")->valuestring, "?"), 0,
                      "a planted module was taken for %s", cJSON_GetObjectItem(f, "id")->valuestring);
    cJSON_Delete(doc);
    ts_run_free(&r);
    free(planted), free(userbase);
}

/* The environment, arguments and working directory a child gets, as a fake interpreter writes
 * them down: PYTHONPATH's and PYTHONHOME's absolute entries only, no user site-packages, none of
 * the variables that name code to run or leave out the scripts' folder, -s and -B, and the
 * private folder (absolute, under TMPDIR, named for the run's process) to start in. */
Test(fw_isolation, a_child_gets_absolute_paths_no_user_site_and_the_private_folder)
{
    char *seen = ts_path(dir, "seen"), *fake = ts_path(dir, "python"), text[8192];
    snprintf(text, sizeof text, "#!/bin/sh\n{ pwd; for a in \"$@\"; do echo \"arg=$a\"; done; env; } > '%s'\n%s", seen,
             detect_none);
    write_exec(fake, text);
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", tmpdir_env,
                         "PYTHONPATH=:/x:rel:./y::/z:", "PYTHONHOME=/opt/py:relhome", "PYTHONSTARTUP=/s.py",
                         "PYTHONINSPECT=1", "PYTHONUSERBASE=/u", "PYTHONSAFEPATH=1", "PYTHONBREAKPOINT=m.f",
                         "PYTHONPYCACHEPREFIX=cache", "PYTHONEXECUTABLE=/e", "PYTHONNOUSERSITE", NULL};
    struct ts_run r;
    run_frameworks(&r, env, fake);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);
    char *got = ts_read(seen, NULL);
    cr_assert_not_null(got, "the fake interpreter did not run");
    /* the first line: where it ran */
    char prefix[PATH_MAX + 64];
    int n = snprintf(prefix, sizeof prefix, "%s/fwadvisor-frameworks-", real_dir);
    cr_expect(strncmp(got, prefix, (size_t)n) == 0, "ran in %.200s", got);
    const char *p = got + n;
    while (*p >= '0' && *p <= '9') p++;
    cr_expect(p > got + n && *p == '-' && strcspn(p + 1, "\n") == 6, "named for the run's process: %.200s", got);
    char folder[PATH_MAX + 64], want[PATH_MAX + 128];
    snprintf(folder, sizeof folder, "%.*s", (int)strcspn(got, "\n"), got);
    snprintf(want, sizeof want, "\narg=-sB\narg=%s/fwdetect.py\n", folder);
    cr_expect(strstr(got, want) != NULL, "%s", got);
    cr_expect(strstr(got, "\nPYTHONPATH=/x:/z\n") != NULL, "%s", got);
    cr_expect(strstr(got, "\nPYTHONHOME=/opt/py\n") != NULL, "%s", got);
    cr_expect(strstr(got, "\nPYTHONNOUSERSITE=1\n") != NULL, "%s", got);
    cr_expect(strstr(got, "\nPYTHONDONTWRITEBYTECODE=1\n") != NULL, "%s", got);
    const char *never[] = {"PYTHONSTARTUP=", "PYTHONINSPECT=", "PYTHONUSERBASE=", "PYTHONSAFEPATH=", "PYTHONBREAKPOINT=",
                           "PYTHONPYCACHEPREFIX=", "PYTHONEXECUTABLE="};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n%s", never[i]);
        cr_expect_null(strstr(got, line), "%s reached the child", never[i]);
    }
    cr_expect_neq(access(folder, F_OK), 0, "the private folder is removed afterwards");
    free(got), free(seen), free(fake);
}

/* An empty entry of PATH (":/usr/bin:/bin") and a relative VIRTUAL_ENV both mean the caller's
 * folder: an interpreter planted there is not the one the workload runs. */
Test(fw_isolation, interpreters_are_not_taken_from_the_callers_folder)
{
    char *planted = ts_path(dir, "planted"), *venv_bin = ts_path(dir, "planted/venv"), text[4400];
    cr_assert_eq(mkdir(planted, 0755), 0);
    cr_assert_eq(mkdir(venv_bin, 0755), 0);
    char *bin = ts_path(venv_bin, "bin"), *py3 = ts_path(planted, "python3"), *venv_py = ts_path(bin, "python");
    cr_assert_eq(mkdir(bin, 0755), 0);
    snprintf(text, sizeof text, "#!/bin/sh\n: > '%s/planted-ran'\n%s", dir, detect_none);
    write_exec(py3, text);
    write_exec(venv_py, text);
    char cwd[PATH_MAX];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(planted), 0);
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", tmpdir_env,
                         "PATH=:/usr/bin:/bin", "VIRTUAL_ENV=venv", "CONDA_PREFIX", NULL};
    struct ts_run r;
    run_frameworks(&r, env, NULL);
    cr_assert_eq(chdir(cwd), 0);
    cr_expect_eq(r.status, 0, "%s", r.err);
    char *marker = ts_path(dir, "planted-ran");
    cr_expect_neq(access(marker, F_OK), 0, "a planted interpreter ran: %s", r.out);
    ts_run_free(&r);
    free(planted), free(venv_bin), free(bin), free(py3), free(venv_py), free(marker);
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

/* --- the memory limit -------------------------------------------------------------------------------- */

#define GiB ((uint64_t)1 << 30)
#define MiB ((uint64_t)1 << 20)

/* Half the total; at least 2 GiB; at most 3/4 of the total and of what is available. */
Test(fw_isolation, the_memory_limit_fits_the_machine)
{
    /* half of 64 GiB; 3/4 of 60 GiB available (45) does not bind */
    cr_expect_eq(probe_fw_memory_limit(64 * GiB, 60 * GiB), 32 * GiB);
    /* what is available binds from 3/4 x available < 32 GiB: 43 GiB (32.25) not yet, 42 GiB (31.5) */
    cr_expect_eq(probe_fw_memory_limit(64 * GiB, 43 * GiB), 32 * GiB);
    cr_expect_eq(probe_fw_memory_limit(64 * GiB, 42 * GiB), 63 * GiB / 2);
    /* the 2 GiB floor: 5 GiB total is above it (2.5), 3 GiB raised to it (1.5 -> 2, under 2.25) */
    cr_expect_eq(probe_fw_memory_limit(5 * GiB, 5 * GiB), 5 * GiB / 2);
    cr_expect_eq(probe_fw_memory_limit(3 * GiB, 3 * GiB), 2 * GiB);
    /* the floor itself capped at 3/4 of the total once that is below 2 GiB: 2.75 GiB total
     * (2.0625) keeps the floor, 2.5 GiB total (1.875) does not; 2 GiB total gets 1.5, not all 2 */
    cr_expect_eq(probe_fw_memory_limit(11 * GiB / 4, 0), 2 * GiB);
    cr_expect_eq(probe_fw_memory_limit(5 * GiB / 2, 0), 15 * GiB / 8);
    cr_expect_eq(probe_fw_memory_limit(2 * GiB, 2 * GiB), 3 * GiB / 2);
    cr_expect_eq(probe_fw_memory_limit(1 * GiB, 0), 768 * MiB);
    /* and by what is available: 2 GiB free of 16 GiB gives 1.5 GiB */
    cr_expect_eq(probe_fw_memory_limit(16 * GiB, 2 * GiB), 3 * GiB / 2);
    /* the total unknown: 8 GiB, unless 3/4 of what is available is less (12 GiB: 9, 10 GiB: 7.5) */
    cr_expect_eq(probe_fw_memory_limit(0, 0), 8 * GiB);
    cr_expect_eq(probe_fw_memory_limit(0, 12 * GiB), 8 * GiB);
    cr_expect_eq(probe_fw_memory_limit(0, 10 * GiB), 15 * GiB / 2);
}

/* --- folders a killed run left ------------------------------------------------------------------------ */

static char *make_folder(const char *name)
{
    char *path = ts_path(dir, name);
    cr_assert_eq(mkdir(path, 0700), 0, "%s", path);
    char *file = ts_path(path, "spec.json");
    cr_assert_eq(ts_write_str(file, "{}"), 0);
    free(file);
    return path;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* At the workload's start: a folder of this user's whose process is gone is removed (a link
 * planted in it removed as a link, its targets untouched); one whose process lives, one a run
 * still holds locked, one of another user's, a link named like one, and names of another form
 * are kept. The run's own folder is gone afterwards. */
Test(fw_isolation, folders_left_by_a_killed_run_are_removed_at_the_next_start)
{
    char name[128];
    pid_t dead = dead_pid();
    snprintf(name, sizeof name, "fwadvisor-frameworks-%d-aB3dE9", (int)dead);
    char *stale = make_folder(name);
    char *outside = ts_path(dir, "outside"), *outside_file = ts_path(dir, "outside/keep.txt");
    char *target_file = ts_path(dir, "keep-too.txt");
    cr_assert_eq(mkdir(outside, 0755), 0);
    cr_assert_eq(ts_write_str(outside_file, "kept"), 0);
    cr_assert_eq(ts_write_str(target_file, "kept"), 0);
    char *sub = ts_path(stale, "sub"), *link_dir = ts_path(stale, "sub/to-dir"), *link_file = ts_path(stale, "to-file");
    cr_assert_eq(mkdir(sub, 0700), 0);
    cr_assert_eq(symlink(outside, link_dir), 0);
    cr_assert_eq(symlink(target_file, link_file), 0);

    snprintf(name, sizeof name, "fwadvisor-frameworks-%d-LiVe01", (int)getpid());
    char *live = make_folder(name);
    snprintf(name, sizeof name, "fwadvisor-frameworks-%d-LoCk01", (int)dead);
    char *locked = make_folder(name);
    int lock_fd = open(locked, O_RDONLY | O_DIRECTORY);
    cr_assert(lock_fd >= 0 && flock(lock_fd, LOCK_EX) == 0);
    snprintf(name, sizeof name, "fwadvisor-frameworks-%d-link01", (int)dead);
    char *link_named = ts_path(dir, name);
    cr_assert_eq(symlink(outside, link_named), 0);
    char *odd = make_folder("fwadvisor-frameworks-aB3dE9");
    snprintf(name, sizeof name, "fwadvisor-frameworks-%d-toolong", (int)dead);
    char *odd2 = make_folder(name);
    char *theirs = NULL;
    if (geteuid() == 0) {
        snprintf(name, sizeof name, "fwadvisor-frameworks-%d-Other1", (int)dead);
        theirs = make_folder(name);
        cr_assert_eq(chown(theirs, NOBODY, NOBODY), 0);
    }

    char *fake = ts_path(dir, "python"), text[4096];
    snprintf(text, sizeof text, "#!/bin/sh\n%s", detect_none);
    write_exec(fake, text);
    const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "FWADVISOR_SYSROOT", "HWLOC_XMLFILE", tmpdir_env, NULL};
    struct ts_run r;
    run_frameworks(&r, env, fake);
    cr_expect_eq(r.status, 0, "%s", r.err);
    ts_run_free(&r);

    cr_expect_not(exists(stale), "the folder of a process that is gone stays");
    cr_expect(exists(outside_file) && exists(target_file), "a link's target was removed");
    char *kept = ts_read(target_file, NULL);
    cr_expect_str_eq(kept ? kept : "", "kept");
    free(kept);
    cr_expect(exists(live), "a living process's folder was removed");
    cr_expect(exists(locked), "a folder a run holds locked was removed");
    cr_expect(exists(link_named), "a link named like a folder was removed");
    cr_expect(exists(odd) && exists(odd2), "a name of another form was taken for a run's folder");
    if (theirs) cr_expect(exists(theirs), "another user's folder was removed");
    /* nothing else of the form is left: the run removed its own */
    DIR *d = opendir(dir);
    int left = 0;
    struct dirent *e;
    while ((e = readdir(d))) left += strncmp(e->d_name, "fwadvisor-frameworks-", 21) == 0;
    closedir(d);
    cr_expect_eq(left, theirs ? 6 : 5);
    close(lock_fd);
    free(stale), free(outside), free(outside_file), free(target_file), free(sub), free(link_dir), free(link_file);
    free(live), free(locked), free(link_named), free(odd), free(odd2), free(theirs), free(fake);
    if (!theirs) cr_skip_test("not root: another user's folder is not tried");
}

/* Run as another user (nobody), the sweep leaves a folder named for a process that lives but
 * is not that user's (kill answers EPERM, not ESRCH) and one that belongs to someone else, and
 * removes that user's own stale one. */
Test(fw_isolation, the_sweep_as_another_user_keeps_what_is_not_its_own)
{
    if (geteuid() != 0) cr_skip_test("needs root, to run the program as nobody");
    cr_assert_eq(chmod(dir, 0755), 0);
    char *base = ts_path(dir, "nobody");
    cr_assert_eq(mkdir(base, 0755), 0);
    cr_assert_eq(chown(base, NOBODY, NOBODY), 0);
    char name[160], *paths[3];
    pid_t dead = dead_pid();
    snprintf(name, sizeof name, "nobody/fwadvisor-frameworks-%d-eperm1", (int)getpid());
    paths[0] = make_folder(name);
    snprintf(name, sizeof name, "nobody/fwadvisor-frameworks-%d-dead01", (int)dead);
    paths[1] = make_folder(name);
    snprintf(name, sizeof name, "nobody/fwadvisor-frameworks-%d-root01", (int)dead);
    paths[2] = make_folder(name);
    for (int i = 0; i < 2; i++) {
        char *file = ts_path(paths[i], "spec.json");
        cr_assert(chown(paths[i], NOBODY, NOBODY) == 0 && chown(file, NOBODY, NOBODY) == 0);
        free(file);
    }
    char *fake = ts_path(base, "python"), text[4096];
    snprintf(text, sizeof text, "#!/bin/sh\n%s", detect_none);
    write_exec(fake, text);
    const char *bin = getenv("FWADVISOR_BIN");
    cr_assert_not_null(bin);
    char tmp_env[4300], home_env[4300], db_env[4300];
    snprintf(tmp_env, sizeof tmp_env, "TMPDIR=%s", base);
    snprintf(home_env, sizeof home_env, "HOME=%s", base);
    snprintf(db_env, sizeof db_env, "FWADVISOR_DB=%s/kb.sqlite3", base);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1), dup2(null, 2);
        if (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0) _exit(126);
        char *const env[] = {"NO_COLOR=1", "PATH=/usr/bin:/bin", tmp_env, home_env, db_env, NULL};
        const char *argv[] = {bin, "probe", "--workload", "frameworks", "--device", "cpu", "--no-save",
                              "--threads", "1", "--python", fake, NULL};
        execve(bin, (char *const *)argv, env);
        _exit(127);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    cr_expect(exists(paths[0]), "a living process of another user's was taken for gone");
    cr_expect_not(exists(paths[1]), "the user's own stale folder stays");
    cr_expect(exists(paths[2]), "root's folder was removed");
    for (int i = 0; i < 3; i++) free(paths[i]);
    free(base), free(fake);
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
