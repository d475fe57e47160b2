/* Libraries the environment names, checked as plug-ins are: FWADVISOR_NVML_LIB,
 * FWADVISOR_CUDA_LIB and FWADVISOR_NCCL_LIB in folders anyone may write. */
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
