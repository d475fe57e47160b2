/* Quick detection on recorded device trees (FWADVISOR_SYSROOT). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/quick.h"

struct tree_case {
    char tree[32];
    char kind[16];
    int count;
    char name[64];
};

static struct tree_case trees[] = {
    {"nvidia-h100", "nvidia", 2, "NVIDIA H100 80GB HBM3"},
    {"nvidia-no-driver", "nvidia", 1, ""}, /* device nodes but no driver files */
    {"amd-mi300x", "amd", 2, ""},
    {"tpu-v5e", "tpu", 4, ""},
    {"ascend-910b", "ascend", 8, ""},
    {"trainium2", "trainium", 16, "AWS Trainium2"},
    {"gaudi3", "gaudi", 8, "Intel Gaudi (GAUDI3)"},
    {"cpu-only", "cpu", 0, "Intel(R) Xeon(R) Gold 6354 CPU @ 3.00GHz"},
};

ParameterizedTestParameters(quick, recorded_trees)
{
    return cr_make_param_array(struct tree_case, trees, sizeof trees / sizeof trees[0]);
}

ParameterizedTest(struct tree_case *t, quick, recorded_trees)
{
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    char root[4200];
    snprintf(root, sizeof root, "%s/sysroot/%s", fixtures && *fixtures ? fixtures : "tests/fixtures", t->tree);
    setenv("FWADVISOR_SYSROOT", root, 1);
    char xml[4300];
    snprintf(xml, sizeof xml, "%s/topology.xml", root);
    setenv("HWLOC_XMLFILE", xml, 1);
    unsetenv("TPU_ACCELERATOR_TYPE");
    struct quick_hw hw;
    quick_detect(&hw, 1);
    cr_expect_str_eq(hw.kind, t->kind, "%s", t->tree);
    cr_expect_eq(hw.count, t->count, "%s: count %d", t->tree, hw.count);
    if (t->name[0]) cr_expect_str_eq(hw.name, t->name, "%s", t->tree);
    cr_expect_gt(strlen(hw.evidence), 0);
    cr_expect_gt(hw.cpu_threads, 0);
}

Test(quick, missing_tree_reads_as_cpu)
{
    setenv("FWADVISOR_SYSROOT", "/nonexistent/fwadvisor-sysroot", 1);
    unsetenv("TPU_ACCELERATOR_TYPE");
    struct quick_hw hw;
    quick_detect(&hw, 1);
    cr_expect_str_eq(hw.kind, "cpu");
    cr_expect_eq(hw.count, 0);
}

Test(quick, tpu_environment_alone)
{
    setenv("FWADVISOR_SYSROOT", "/nonexistent/fwadvisor-sysroot", 1);
    setenv("TPU_ACCELERATOR_TYPE", "v5litepod-8", 1);
    struct quick_hw hw;
    quick_detect(&hw, 1);
    cr_expect_str_eq(hw.kind, "tpu");
    cr_expect_str_eq(hw.name, "v5litepod-8");
    unsetenv("TPU_ACCELERATOR_TYPE");
}
