/* The launch files a plan gets, in order: one row per kind in knowledge/launch_files.c decides
 * when a kind is written, so each launcher is held to its exact list here (a file written for the
 * wrong launcher, or a kind left out of the table, fails one of these). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/advisor.h"
#include "knowledge/answers.h"
#include "knowledge/kb.h"
#include "knowledge/launch_files.h"
#include "tests/support.h"

static struct ts_advisor fx;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(launch_kinds, .init = setup, .fini = teardown);

/* The names of the files for the plan of sets, joined by spaces. */
static void files_of(const char *sets, char *out, size_t n)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s", err);
    struct adv_hw hw;
    memset(&hw, 0, sizeof hw);
    cr_assert_eq(adv_recommend(fx.akb, &a, &hw, fx.res, err, sizeof err), KB_OK, "%s", err);
    struct launch_files f;
    cr_assert_eq(launch_files_make(fx.akb, fx.res, NULL, &f, err, sizeof err), 0, "%s", err);
    out[0] = '\0';
    for (int i = 0; i < f.count; i++) {
        size_t used = strlen(out);
        snprintf(out + used, n - used, "%s%s", i ? " " : "", f.files[i].name);
    }
    launch_files_free(&f);
}

Test(launch_kinds, one_node_ddp_gets_the_script_and_slurm_on_gpus)
{
    char names[256];
    files_of("model_kind=vision team=pytorch accelerator=h100-sxm model_params=1e8 devices=8", names, sizeof names);
    cr_expect_str_eq(fx.res->strategy, "ddp");
    cr_expect_str_eq(names, "README.txt launch.sh job.sbatch");
}

Test(launch_kinds, a_mac_gets_no_slurm)
{
    char names[256];
    files_of("model_kind=vision team=pytorch hardware=apple os=macos model_params=1e7", names, sizeof names);
    cr_expect_str_eq(fx.res->strategy, "single");
    cr_expect_str_eq(names, "README.txt launch.sh");
}

Test(launch_kinds, zero3_on_two_nodes_adds_accelerate_deepspeed_and_slurm)
{
    char names[256];
    files_of("model_kind=llm team=pytorch accelerator=h100-sxm model_params=30e9 devices=16 nodes=2", names,
             sizeof names);
    cr_expect_str_eq(fx.res->strategy, "zero3");
    cr_expect_str_eq(names, "README.txt launch.sh accelerate.yaml ds_config.json job.sbatch");
}

Test(launch_kinds, jax_on_tpu_gets_its_note_and_no_slurm)
{
    char names[256];
    files_of("model_kind=llm team=jax hardware=tpu accelerator=tpu-v5p model_params=7e9 devices=64 nodes=16", names,
             sizeof names);
    cr_expect_str_eq(fx.res->strategy, "jax-sharding");
    cr_expect_str_eq(names, "README.txt launch.sh jax-distributed.txt");
}

Test(launch_kinds, fsdp_gets_accelerate_and_no_deepspeed)
{
    char names[256];
    files_of("model_kind=llm team=pytorch accelerator=h100-sxm model_params=30e9 devices=8", names, sizeof names);
    cr_expect_str_eq(fx.res->strategy, "fsdp");
    cr_expect_str_eq(names, "README.txt launch.sh accelerate.yaml job.sbatch");
}

Test(launch_kinds, serving_only_gets_its_readme_alone)
{
    char names[256];
    /* deploy server without tokens: job serve, nothing to launch */
    files_of("model_kind=llm accelerator=h100-sxm model_params=7e10 devices=8 deploy=server", names, sizeof names);
    cr_expect_str_eq(names, "README.txt");
    /* the same with tokens trains: the launcher comes back */
    files_of("model_kind=llm accelerator=h100-sxm model_params=7e10 devices=8 deploy=server tokens=1e9", names, sizeof names);
    cr_expect(strncmp(names, "README.txt launch.sh", 20) == 0, "%s", names);
}
