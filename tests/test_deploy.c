/* Where the model runs: the deployment target's memory (weights in bf16 = 2 bytes, int8 = 1,
 * int4 = 0.5 bytes a parameter against memory x share, GB = 10^9 bytes), the largest model that
 * fits, the quantisation offered, and how many devices a node holds (devices_per_node). Every
 * rule on both sides of its boundary, worked by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/advisor_kb.h"
#include "tests/support.h"

static struct ts_advisor fx;
static struct adv_result *res;
static const struct adv_deploy_fit *fit;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err);
    res = fx.res;
    fit = &res->deploy_fit;
}

static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(deploy, .init = setup, .fini = teardown);

static int plan_sets(const char *sets)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s: %s", sets, err);
    err[0] = '\0';
    return adv_recommend(fx.akb, &a, NULL, res, err, sizeof err);
}

static void plan(const char *sets) { cr_assert_eq(plan_sets(sets), KB_OK, "%s: %s", sets, err); }

/* Plans sets and holds the check's device, budget and the widest format that fits (-1: none). */
static void expect_fit(const char *sets, const char *device, double budget_gb, int fits)
{
    plan(sets);
    cr_assert(fit->checked, "%s", sets);
    cr_expect_str_eq(fit->device, device, "%s", sets);
    cr_expect_float_eq(fit->budget_gb, budget_gb, 1e-9, "%s", sets);
    cr_expect_eq(fit->fits, fits, "%s", sets);
}

static int has_warning(const char *word)
{
    for (int i = 0; i < res->nwarnings; i++)
        if (strstr(res->warnings[i], word)) return 1;
    return 0;
}

/* The case: 70B at int4 is 70e9 x 0.5 = 35 GB, more than a phone's 8 GB x 0.75 = 6 GB;
 * 6e9 / 0.5 = 12e9 parameters fit in int4. */
Test(deploy, a_70b_llm_does_not_fit_a_phone)
{
    plan("model_kind=llm model_params=70B deploy=mobile");
    cr_assert(fit->checked);
    cr_expect_str_eq(fit->device, "phone", "auto -> phone for mobile");
    cr_expect_float_eq(fit->memory_gb, 8, 1e-12);
    cr_expect_float_eq(fit->share, 0.75, 1e-12);
    cr_expect_float_eq(fit->budget_gb, 6, 1e-12);
    cr_expect_float_eq(fit->weights_gb[ADV_WEIGHTS_BF16], 140, 1e-9);
    cr_expect_float_eq(fit->weights_gb[ADV_WEIGHTS_INT8], 70, 1e-9);
    cr_expect_float_eq(fit->weights_gb[ADV_WEIGHTS_INT4], 35, 1e-9);
    cr_expect_eq(fit->fits, -1);
    cr_expect_float_eq(fit->largest_params, 12e9, 1);
    cr_expect_str_eq(res->runtime, "executorch");
    /* The runtime's first reason says it cannot fit, before "ExecuTorch serves ...". */
    cr_assert_gt(res->nruntime_reasons, 1);
    cr_expect(strncmp(res->runtime_reasons[0].label, "Does not fit Phone", 18) == 0, "%s", res->runtime_reasons[0].label);
    cr_expect(strstr(res->runtime_reasons[0].label, "about 12B parameters in int4") != NULL, "%s",
              res->runtime_reasons[0].label);
    cr_expect(has_warning("does not fit Phone"));
}

/* 12B in int4 is 12e9 x 0.5 = 6.0 GB = the 6 GB budget: fits (at most the budget); 12.1B is
 * 6.05 GB: does not. */
Test(deploy, int4_boundary_on_a_phone)
{
    plan("model_kind=llm model_params=12e9 deploy=mobile");
    cr_expect_eq(fit->fits, ADV_WEIGHTS_INT4, "6.0 GB of 6 GB");
    cr_expect_eq(fit->runtime_bits, 4, "ExecuTorch runs 4-bit weights");
    cr_expect(strstr(res->runtime_reasons[0].label, "in int4 they take 6 GB; ExecuTorch runs int4 weights") != NULL, "%s",
              res->runtime_reasons[0].label);
    cr_expect_not(has_warning("does not fit"));
    plan("model_kind=llm model_params=12.1e9 deploy=mobile");
    cr_expect_eq(fit->fits, -1, "6.05 GB of 6 GB");
    cr_expect_float_eq(fit->weights_gb[ADV_WEIGHTS_INT4], 6.05, 1e-9);
}

/* 3B in bf16 is 6 GB = the budget: fits unquantised; 3.1B is 6.2 GB in bf16 and 3.1 GB in int8:
 * int8 is offered (the widest format that fits). */
Test(deploy, bf16_boundary_and_int8_offered)
{
    plan("model_kind=llm model_params=3e9 deploy=mobile");
    cr_expect_eq(fit->fits, ADV_WEIGHTS_BF16);
    cr_expect(strncmp(res->runtime_reasons[0].label, "Fits Phone (8 GB): the weights take 6 GB in bf16", 48) == 0, "%s",
              res->runtime_reasons[0].label);
    plan("model_kind=llm model_params=3.1e9 deploy=mobile");
    cr_expect_eq(fit->fits, ADV_WEIGHTS_INT8);
    cr_expect_float_eq(fit->weights_gb[ADV_WEIGHTS_INT8], 3.1, 1e-9);
}

/* Raspberry Pi 5 boards: 4, 8, 16 GB x 0.75 = 3, 6, 12 GB. A 7B model is 14 GB in bf16 and 7 GB
 * in int8: int8 fits the 16 GB board (7 <= 12), int4 (3.5 GB) the 8 GB one, nothing the 4 GB
 * one (3.5 > 3), where 3e9 / 0.5 = 6e9 parameters fit. */
Test(deploy, raspberry_pi_boards_by_memory)
{
    expect_fit("model_kind=llm model_params=7e9 deploy=edge deploy_device=rpi5-16gb", "rpi5-16gb", 12, ADV_WEIGHTS_INT8);
    expect_fit("model_kind=llm model_params=7e9 deploy=edge deploy_device=rpi5-8gb", "rpi5-8gb", 6, ADV_WEIGHTS_INT4);
    expect_fit("model_kind=llm model_params=7e9 deploy=edge deploy_device=rpi5-4gb", "rpi5-4gb", 3, -1);
    cr_expect_float_eq(fit->largest_params, 6e9, 1);
    /* edge with no board named: a Pi 5 8 GB, or a Jetson Orin Nano (8 GB) for nvidia. */
    plan("model_kind=vision model_params=25e6 deploy=edge");
    cr_expect_str_eq(fit->device, "rpi5-8gb");
    plan("model_kind=vision model_params=25e6 deploy=edge deploy_hardware=nvidia");
    cr_expect_str_eq(fit->device, "jetson-orin-nano");
    cr_expect_float_eq(fit->memory_gb, 8, 1e-12);
}

/* Jetson AGX Orin: 64 GB x 0.75 = 48 GB. 70B in int4 is 35 GB: fits; in int8 70 GB: not. */
Test(deploy, jetson_agx_orin_holds_a_70b_in_int4)
{
    expect_fit("model_kind=llm model_params=70e9 deploy=edge deploy_hardware=nvidia deploy_device=jetson-agx-orin",
               "jetson-agx-orin", 48, ADV_WEIGHTS_INT4);
    cr_expect_eq(fit->runtime_bits, 0, "the knowledge base states no int4 for TensorRT");
    cr_expect(strstr(res->runtime_reasons[0].label, "does not say whether") != NULL, "%s", res->runtime_reasons[0].label);
}

/* A browser tab: 4 GB, all of it. 2B in bf16 = 4 GB fits; 8B in int4 = 4 GB fits; 8.1B does not. */
Test(deploy, browser_tab_of_4_gb)
{
    expect_fit("model_kind=llm model_params=2e9 deploy=browser", "browser", 4, ADV_WEIGHTS_BF16);
    expect_fit("model_kind=llm model_params=8e9 deploy=browser", "browser", 4, ADV_WEIGHTS_INT4);
    expect_fit("model_kind=llm model_params=8.1e9 deploy=browser", "browser", 4, -1);
    cr_expect_float_eq(fit->largest_params, 8e9, 1);
}

/* A CPU server by its RAM: 64 GB x 0.9 = 57.6 GB. 28.8B in bf16 = 57.6 GB fits; 29B (58 GB)
 * needs int8. Unknown RAM: no check, said in the assumptions. A GPU server is the inference
 * plan's, not this check's. */
Test(deploy, cpu_server_by_its_memory)
{
    expect_fit("model_kind=llm model_params=28.8e9 deploy=server deploy_hardware=cpu host_memory_gb=64", "host", 57.6,
               ADV_WEIGHTS_BF16);
    expect_fit("model_kind=llm model_params=29e9 deploy=server deploy_hardware=cpu host_memory_gb=64", "host", 57.6,
               ADV_WEIGHTS_INT8);
    plan("model_kind=llm model_params=29e9 deploy=server deploy_hardware=cpu");
    cr_expect_not(fit->checked, "no host memory answered or detected");
    plan("model_kind=llm model_params=29e9 hardware=nvidia deploy=server");
    cr_expect_not(fit->checked, "served from GPUs");
    plan("model_kind=llm model_params=29e9 deploy=none");
    cr_expect_not(fit->checked);
}

/* deploy_device names a device of one target kind: refused with both keys named. */
Test(deploy, device_of_another_target_is_refused)
{
    cr_expect_eq(plan_sets("deploy=edge deploy_device=phone"), KB_ERR_INPUT);
    cr_expect(strstr(err, "keys 'deploy_device' and 'deploy'") != NULL, "%s", err);
    cr_expect_eq(plan_sets("deploy=mobile deploy_device=rpi5-8gb"), KB_ERR_INPUT);
    cr_expect_eq(plan_sets("deploy=mobile deploy_device=host"), KB_ERR_INPUT);
    cr_expect_eq(plan_sets("deploy=server deploy_device=browser"), KB_ERR_INPUT);
    plan("deploy=mobile deploy_device=phone");
    struct answers a;
    answers_init(&a);
    cr_expect_neq(answers_set(&a, "deploy_device=pixel", err, sizeof err), 0);
    cr_expect(strstr(err, "deploy_device") != NULL, "%s", err);
}

/* Topology: 64 Apple GPUs on 1 node is 64 a node where a Mac holds 1: refused naming both keys;
 * with nodes left out, 64 nodes. 16 H100 on 2 nodes is 8 a node: fine; on 1 node 16: refused.
 * 12 H100 with nodes left out: ceil(12 / 8) = 2 nodes of 6. 20: ceil(20 / 8) = 3 does not
 * divide 20, 4 does: 4 nodes of 5. */
Test(deploy, devices_per_node_beyond_what_a_node_holds)
{
    cr_expect_eq(plan_sets("hardware=apple os=macos devices=64 nodes=1"), KB_ERR_INPUT);
    cr_expect(strstr(err, "keys 'devices' and 'nodes'") != NULL, "%s", err);
    cr_expect(strstr(err, "set nodes to 64 or more") != NULL, "%s", err);
    plan("hardware=apple os=macos devices=64");
    cr_expect_float_eq(answers_num(&res->answers, ANS_NODES), 64, 1e-12);
    plan("hardware=apple os=macos devices=1 nodes=1");
    cr_expect_float_eq(answers_num(&res->answers, ANS_NODES), 1, 1e-12);

    plan("accelerator=h100-sxm devices=16 nodes=2");
    cr_expect_eq(plan_sets("accelerator=h100-sxm devices=16 nodes=1"), KB_ERR_INPUT);
    cr_expect(strstr(err, "set nodes to 2 or more") != NULL, "%s", err);
    plan("accelerator=h100-sxm devices=12");
    cr_expect_float_eq(answers_num(&res->answers, ANS_NODES), 2, 1e-12);
    plan("accelerator=h100-sxm devices=20");
    cr_expect_float_eq(answers_num(&res->answers, ANS_NODES), 4, 1e-12);
    plan("accelerator=h100-sxm devices=8");
    cr_expect_float_eq(answers_num(&res->answers, ANS_NODES), 1, 1e-12, "8 fit one node");
}

/* TPU hosts: v5p 4 chips, v5e and v6e 8. 8 v5p on 1 host: refused; 8 v5e on 1 host: fine. */
Test(deploy, tpu_hosts_of_4_or_8_chips)
{
    cr_expect_eq(plan_sets("hardware=tpu accelerator=tpu-v5p devices=8 nodes=1"), KB_ERR_INPUT);
    cr_expect(strstr(err, "more than the 4 one node holds") != NULL, "%s", err);
    plan("hardware=tpu accelerator=tpu-v5p devices=8 nodes=2");
    plan("hardware=tpu accelerator=tpu-v5e devices=8 nodes=1");
    cr_expect_eq(plan_sets("hardware=tpu accelerator=tpu-v6e devices=16 nodes=1"), KB_ERR_INPUT);
    /* A device with no node size in the knowledge base is not checked. */
    plan("accelerator=l4 devices=16 nodes=1");
}

/* The report carries the check as numbers (deployment.fit), valid against the schema: the 70B
 * phone case (35 GB in int4, 6 GB budget, fits null, 12e9 parameters), and null without a target. */
Test(deploy, the_report_carries_the_fit)
{
    plan("model_kind=llm model_params=70B deploy=mobile");
    cJSON *doc = adv_report_json(fx.akb, res, "2026-12-02T00:00:00Z");
    cr_assert_not_null(doc);
    cr_expect_eq(ts_validate_doc(doc, "report.schema.json", err, sizeof err), 0, "%s", err);
    const cJSON *f = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "deployment"), "fit");
    cr_assert(cJSON_IsObject(f));
    cr_expect_str_eq(cJSON_GetObjectItem(f, "device")->valuestring, "phone");
    cr_expect_float_eq(cJSON_GetObjectItem(f, "budget_gb")->valuedouble, 6, 1e-12);
    cr_expect_float_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(f, "weights_gb"), "int4")->valuedouble, 35, 1e-9);
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(f, "fits")));
    cr_expect_float_eq(cJSON_GetObjectItem(f, "largest_params")->valuedouble, 12e9, 1);
    cr_expect_eq(cJSON_GetObjectItem(f, "runtime_bits")->valueint, 4);
    cr_expect_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "answers"), "deploy_device")->valuestring, "phone");
    cJSON_Delete(doc);
    plan("model_kind=llm model_params=7e9 deploy=mobile");
    doc = adv_report_json(fx.akb, res, "2026-12-02T00:00:00Z");
    f = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "deployment"), "fit");
    cr_expect_str_eq(cJSON_GetObjectItem(f, "fits")->valuestring, "int4", "3.5 GB of 6 GB; bf16 14 and int8 7 do not fit");
    cJSON_Delete(doc);
    plan("deploy=none");
    doc = adv_report_json(fx.akb, res, "2026-12-02T00:00:00Z");
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "deployment"), "fit")));
    cr_expect_eq(ts_validate_doc(doc, "report.schema.json", err, sizeof err), 0, "%s", err);
    cJSON_Delete(doc);
}
