/* Trainium and Gaudi as hardware platforms of their own: their answer values, their facts in the
 * knowledge base and the advice on each (a PyTorch team on Trainium gets the Neuron path, a Gaudi
 * plan Gaudi's DeepSpeed and vLLM through vllm-gaudi). */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knowledge/advisor.h"
#include "knowledge/answer_keys.h"
#include "knowledge/answers.h"
#include "knowledge/kb.h"
#include "tests/support.h"

static struct ts_advisor fx;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(platforms, .init = setup, .fini = teardown);

static void recommend(const char *sets)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s", err);
    cr_assert_eq(adv_recommend(fx.akb, &a, NULL, fx.res, err, sizeof err), KB_OK, "%s: %s", sets, err);
}

static double number_of(const char *sql, const char *arg)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(fx.kb.kb), sql, -1, &st, NULL), SQLITE_OK, "%s", sql);
    sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    double v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_double(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static int has_pitfall(const char *id)
{
    for (int i = 0; i < fx.res->npitfalls; i++)
        if (strcmp(fx.res->pitfalls[i].id, id) == 0) return 1;
    return 0;
}

/* Both are values of `hardware` and of `deploy_hardware`, each with a platform row. */
Test(platforms, trainium_and_gaudi_are_answer_values)
{
    static const char *const ids[] = {"trainium", "gaudi"};
    for (int i = 0; i < 2; i++) {
        cr_expect_geq(ans_key_value_index(&ans_keys[ANS_HARDWARE], ids[i]), 0, "hardware=%s", ids[i]);
        cr_expect_geq(ans_key_value_index(&ans_keys[ANS_DEPLOY_HARDWARE], ids[i]), 0, "deploy_hardware=%s", ids[i]);
        cr_expect_eq(number_of("SELECT count(*) FROM hardware WHERE id = ?1", ids[i]), 1, "%s", ids[i]);
        cr_expect_eq(number_of("SELECT count(*) FROM hw_support WHERE hardware = ?1", ids[i]),
                     number_of("SELECT count(*) FROM frameworks WHERE ?1 = ?1", ids[i]), "%s: a row per framework", ids[i]);
    }
}

/* The vendors' documentation: PyTorch through TorchNeuron and JAX's plug-in, both in beta (the
 * XLA training flow ended with Neuron 2.32), no TensorFlow on Neuron; on Gaudi PyTorch alone, no
 * JAX nor TensorFlow back-end. */
Test(platforms, framework_support_follows_the_vendor_docs)
{
    static const struct { const char *fw, *hw, *level; } rows[] = {
        {"pytorch", "trainium", "experimental"}, {"jax", "trainium", "experimental"}, {"tensorflow", "trainium", "none"},
        {"pytorch", "gaudi", "first-class"},  {"jax", "gaudi", "none"},            {"tensorflow", "gaudi", "none"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char sql[160];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM hw_support WHERE framework = '%s' AND hardware = '%s' AND level = ?1",
                 rows[i].fw, rows[i].hw);
        cr_expect_eq(number_of(sql, rows[i].level), 1, "%s on %s: %s", rows[i].fw, rows[i].hw, rows[i].level);
    }
}

/* Trainium2's dense peaks from AWS's architecture page (2,563 is the sparse figure); Gaudi 3 is
 * filed under gaudi, the planner's usual device there. */
Test(platforms, catalog_rows_from_the_vendors)
{
    cr_expect_eq(number_of("SELECT bf16_tflops FROM accelerators WHERE id = ?1", "trainium2"), 667);
    cr_expect_eq(number_of("SELECT fp8_tflops FROM accelerators WHERE id = ?1", "trainium2"), 1299);
    cr_expect_eq(number_of("SELECT fp32_tflops FROM accelerators WHERE id = ?1", "trainium2"), 181);
    cr_expect_eq(number_of("SELECT memory_gb FROM accelerators WHERE id = ?1", "trainium2"), 96);
    cr_expect_eq(number_of("SELECT bandwidth_gbs FROM accelerators WHERE id = ?1", "trainium2"), 2900);
    cr_expect_eq(number_of("SELECT count(*) FROM accelerators WHERE vendor = 'trainium' AND planner_default = 1 AND id = ?1",
                           "trainium2"), 1);
    cr_expect_eq(number_of("SELECT count(*) FROM accelerators WHERE vendor = 'gaudi' AND planner_default = 1 AND id = ?1",
                           "gaudi3"), 1);
    cr_expect_eq(number_of("SELECT count(*) FROM accelerators WHERE vendor = 'intel' AND id = ?1", "gaudi3"), 0);
}

/* A PyTorch team on Trainium: PyTorch, FSDP2 (TorchNeuron documents it), no DeepSpeed, vLLM
 * Neuron to serve, on the assumed Trainium2, with the CPU-fallback pitfall. */
Test(platforms, a_pytorch_team_on_trainium_gets_the_neuron_path)
{
    recommend("hardware=trainium team=pytorch devices=16 model_kind=llm model_params=7e9 deploy=server");
    cr_expect_str_eq(fx.res->ranking.items[0].id, "pytorch");
    cr_expect_str_eq(fx.res->strategy, "fsdp");
    cr_expect_str_eq(fx.res->runtime, "vllm-neuron");
    cr_assert_geq(fx.res->accelerator, 0);
    cr_expect_str_eq(adv_kb_accelerator(fx.akb, fx.res->accelerator, NULL, NULL, NULL), "trainium2");
    cr_expect(has_pitfall("pit-neuron-cpu-fallback"));
    for (int i = 0; i < fx.res->ranking.count; i++)
        if (strcmp(fx.res->ranking.items[i].id, "tensorflow") == 0) cr_expect(fx.res->ranking.items[i].excluded);
}

/* Gaudi: a 13B model on 8 Gaudi 3 takes Intel's DeepSpeed (ZeRO-2), 64 devices Intel's
 * Megatron-LM fork, and vLLM serves through vllm-gaudi. */
Test(platforms, a_gaudi_plan_uses_gaudis_deepspeed_and_vllm)
{
    recommend("hardware=gaudi team=pytorch devices=8 model_kind=llm model_params=1.3e10 deploy=server");
    cr_expect_str_eq(fx.res->strategy, "zero2");
    cr_expect_str_eq(fx.res->runtime, "vllm-gaudi");
    cr_assert_geq(fx.res->accelerator, 0);
    cr_expect_str_eq(adv_kb_accelerator(fx.akb, fx.res->accelerator, NULL, NULL, NULL), "gaudi3");
    cr_expect(has_pitfall("pit-gaudi-not-xpu"));
    recommend("hardware=gaudi team=pytorch devices=64 nodes=8 model_kind=llm model_params=7e10 deploy=server");
    cr_expect_str_eq(fx.res->strategy, "megatron");
}

/* Neither runs on macOS or Windows, nor in a phone. */
Test(platforms, no_trainium_or_gaudi_outside_linux_servers)
{
    struct answers a;
    static const char *const sets[] = {"hardware=trainium os=macos", "hardware=gaudi os=windows",
                                       "deploy=mobile deploy_hardware=gaudi"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
    {
        cr_assert_eq(ts_answers_sets(&a, sets[i], err, sizeof err), 0, "%s", err);
        cr_expect_neq(answers_check_combination(&a, err, sizeof err), 0, "%s accepted", sets[i]);
    }
}

/* hardware auto on a recorded Trainium2 or Gaudi 3 machine: the detected kind is the answer, and
 * the plan is for the platform's usual device. */
Test(platforms, detected_devices_answer_hardware_auto)
{
    static const struct { const char *tree, *hardware, *accelerator; } cases[] = {
        {"trainium2", "trainium", "trainium2"},
        {"gaudi3", "gaudi", "gaudi3"},
    };
    const char *fixtures = getenv("FWADVISOR_FIXTURES");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *dir = ts_tmpdir(), dbarg[4200], root[4300];
        snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
        snprintf(root, sizeof root, "FWADVISOR_SYSROOT=%s/sysroot/%s", fixtures && *fixtures ? fixtures : "tests/fixtures",
                 cases[c].tree);
        const char *env[] = {"NO_COLOR=1", "FWADVISOR_DB", "HWLOC_XMLFILE", "TPU_ACCELERATOR_TYPE", root,
                             "FWADVISOR_NVML_LIB=/nonexistent/libnvidia-ml.so.1", "FWADVISOR_CUDA_LIB=/nonexistent/libcuda.so.1",
                             NULL};
        struct ts_run r;
        cr_assert_eq(ts_run(&r, env, NULL, (const char *const[]){dbarg, "recommend", "--json", "--set", "team=pytorch", NULL}),
                     0);
        cr_expect_eq(r.status, 0, "%s", r.err);
        cJSON *doc = cJSON_Parse(r.out);
        cr_assert_not_null(doc, "%s", r.out);
        const cJSON *answers = cJSON_GetObjectItemCaseSensitive(doc, "answers");
        const cJSON *plan = cJSON_GetObjectItemCaseSensitive(doc, "plan");
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answers, "hardware")), cases[c].hardware);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(plan, "accelerator")), cases[c].accelerator);
        cJSON_Delete(doc);
        ts_run_free(&r);
        ts_rmtree(dir);
        free(dir);
    }
}
