/* The plan: the accelerator answered or assumed, precision, memory per strategy and layout term by
 * term, both sides of the fit boundary, recomputation, offload across nodes, LoRA/QLoRA, MoE,
 * the time split, bad input, and the calibration against published training runs. Every number
 * is worked by hand in the comment beside it. GB are 10^9 bytes. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/html.h"
#include "knowledge/advisor_kb.h"
#include "knowledge/report_html.h"
#include "knowledge/planner.h"
#include "tests/support.h"

static struct ts_advisor fx;
static struct adv_kb *akb;
static struct adv_result *res;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err);
    akb = fx.akb;
    res = fx.res;
}

static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(plan, .init = setup, .fini = teardown);

static int plan_status(const char *json)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(answers_parse_json(&a, json, strlen(json), "answers", err, sizeof err), 0, "%s", err);
    return adv_recommend(akb, &a, NULL, res, err, sizeof err);
}

static void plan(const char *json) { cr_assert_eq(plan_status(json), KB_OK, "%s", err); }

/* Memory of one strategy under the answers just planned. */
static struct adv_memory memory_of(const char *strategy)
{
    int s = adv_strategy_index(akb, strategy);
    cr_assert_geq(s, 0, "no strategy %s", strategy);
    struct adv_memory m;
    adv_strategy_memory(akb, res, s, &m);
    return m;
}

#define GB_EQ(got, want, what) cr_expect_float_eq((got), (want), 1e-6, "%s: %.9f GB, want %.9f", what, (got), (want))

Test(plan, accelerator_sets_hardware_memory_precision_and_peak)
{
    plan("{\"accelerator\": \"a100-sxm4-40gb\"}");
    cr_expect_str_eq(answers_str(&res->answers, ANS_HARDWARE), "nvidia", "the accelerator decides hardware: auto");
    cr_expect_float_eq(answers_num(&res->answers, ANS_DEVICE_MEMORY_GB), 40, 1e-9);
    cr_expect_str_eq(res->precision, "bf16");
    cr_expect_float_eq(res->peak_tflops, 312, 1e-9, "A100 dense BF16");
    cr_expect_null(res->assumed_accelerator);
    /* Upper case is the same id. */
    plan("{\"accelerator\": \"T4\"}");
    cr_expect_str_eq(answers_str(&res->answers, ANS_ACCELERATOR), "t4");
    cr_expect_str_eq(res->precision, "fp16", "Turing has no BF16: the best it has");
    cr_expect_float_eq(res->peak_tflops, 65, 1e-9);
    plan("{\"accelerator\": \"v100-sxm2-32gb\"}");
    cr_expect_str_eq(res->precision, "fp16");
    cr_expect_float_eq(res->peak_tflops, 125, 1e-9);
    plan("{\"accelerator\": \"tpu-v5e\"}");
    cr_expect_str_eq(answers_str(&res->answers, ANS_HARDWARE), "tpu");
    cr_expect_float_eq(answers_num(&res->answers, ANS_DEVICE_MEMORY_GB), 16, 1e-9, "a free Colab TPU v5e-1 chip");
    /* FP32 plans at the vector rate and says what TF32 would give. */
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"precision\": \"fp32\"}");
    cr_expect_float_eq(res->peak_tflops, 19.5, 1e-9);
    int tf32 = 0;
    for (int i = 0; i < res->nassumptions; i++) tf32 |= strstr(res->assumptions[i], "TF32 tensor cores give 156") != NULL;
    cr_expect(tf32, "the TF32 rate is named");
    /* The Max 1550 is planned per stack (FLAT mode), the MI250X per GCD. */
    plan("{\"accelerator\": \"intel-max-1550\"}");
    cr_expect_float_eq(answers_num(&res->answers, ANS_DEVICE_MEMORY_GB), 64, 1e-9);
    plan("{\"accelerator\": \"mi250x\"}");
    cr_expect_float_eq(answers_num(&res->answers, ANS_DEVICE_MEMORY_GB), 64, 1e-9);
}

Test(plan, an_assumed_device_is_named_first)
{
    plan("{\"hardware\": \"nvidia\", \"model_kind\": \"llm\", \"model_params\": 1e9}");
    cr_expect_str_eq(res->assumed_accelerator, "h100-sxm");
    cr_assert_gt(res->nassumptions, 0);
    cr_expect(strstr(res->assumptions[0], "h100-sxm") != NULL, "first assumption: %s", res->assumptions[0]);
    cJSON *doc = adv_report_json(akb, res, "2026-12-01T00:00:00Z");
    cJSON *p = cJSON_GetObjectItem(doc, "plan");
    cr_expect_str_eq(cJSON_GetObjectItem(p, "assumed_accelerator")->valuestring, "h100-sxm");
    cr_expect(strstr(cJSON_GetArrayItem(cJSON_GetObjectItem(p, "assumptions"), 0)->valuestring, "h100-sxm") != NULL);
    cJSON_Delete(doc);
    /* An answered device is not an assumption. */
    plan("{\"hardware\": \"nvidia\", \"accelerator\": \"l40s\"}");
    cr_expect_null(res->assumed_accelerator);
    doc = adv_report_json(akb, res, "2026-12-01T00:00:00Z");
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "assumed_accelerator")));
    cJSON_Delete(doc);
    /* A detected device is matched, word end included: an L40S is not an L4 nor an L40. */
    struct adv_hw hw;
    memset(&hw, 0, sizeof hw);
    strcpy(hw.source, "detected");
    strcpy(hw.kind, "nvidia");
    strcpy(hw.name, "NVIDIA L40S");
    hw.count = 1;
    struct answers a;
    answers_init(&a);
    cr_assert_eq(adv_recommend(akb, &a, &hw, res, err, sizeof err), KB_OK, "%s", err);
    cr_expect_str_eq(answers_str(&res->answers, ANS_ACCELERATOR), "l40s");
    cr_expect_null(res->assumed_accelerator);
}

struct bad_case {
    char answers[160];
    char message[120];
};

static struct bad_case bad_cases[] = {
    {"{\"accelerator\": \"h100\"}", "key 'accelerator': 'h100' is not in the catalog (nearest: h100-sxm"},
    {"{\"hardware\": \"amd\", \"accelerator\": \"h100-sxm\"}", "keys 'accelerator' and 'hardware' disagree"},
    {"{\"accelerator\": \"a100-sxm4-80gb\", \"precision\": \"fp8\"}", "keys 'precision' and 'accelerator': no fp8"},
    {"{\"hardware\": \"apple\", \"precision\": \"fp8\"}", "keys 'precision' and 'hardware': no fp8"},
    {"{\"accelerator\": \"v100-sxm2-32gb\", \"precision\": \"bf16\"}", "keys 'precision' and 'accelerator': no bf16"},
    {"{\"accelerator\": \"tpu-v6e\", \"precision\": \"fp16\"}", "keys 'precision' and 'accelerator': no fp16"},
    {"{\"model_params\": 1e9, \"active_params\": 2e9}", "keys 'active_params' and 'model_params'"},
};

ParameterizedTestParameters(plan, bad_input_names_both_keys)
{
    return cr_make_param_array(struct bad_case, bad_cases, sizeof bad_cases / sizeof bad_cases[0]);
}

ParameterizedTest(struct bad_case *c, plan, bad_input_names_both_keys)
{
    cr_expect_eq(plan_status(c->answers), KB_ERR_INPUT, "%s", c->answers);
    cr_expect(strstr(err, c->message) != NULL, "%s -> %s", c->answers, err);
    cr_expect(strchr(err, '\n') == NULL, "one line");
}

Test(plan, fp8_runs_at_the_realised_gain_where_the_device_has_it)
{
    /* H100: FP8 dense 1978.9; realised = 989.4 x (1 + (1978.9 / 989.4 - 1) x 0.3) = 1286.25. */
    plan("{\"accelerator\": \"h100-sxm\", \"precision\": \"fp8\"}");
    cr_expect_float_eq(res->peak_tflops, 1978.9, 1e-9);
    cr_expect_float_eq(res->in.rate_tflops, 1286.25, 1e-6);
    /* TPU v5p lists FP8 at the BF16 rate: allowed, no gain. */
    plan("{\"accelerator\": \"tpu-v5p\", \"precision\": \"fp8\"}");
    cr_expect_float_eq(res->in.rate_tflops, 459, 1e-9);
}

/* DDP on 2 A100-80GB, 1e9 parameters, no activations (model_kind other):
 *   states  16 x 1e9                          = 16.0 GB (ZeRO paper: 2 + 2 + 12 bytes)
 *   buckets  4 x 1e9 (an fp32 gradient copy)  =  4.0 GB (gradient_as_bucket_view=False)
 *   overhead 1 GB + 5% x (16 + 4)             =  2.0 GB
 *   total                                     = 22.0 GB, headroom 80 - 22 = 58 GB. */
Test(plan, ddp_memory_is_itemised)
{
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 2, \"model_params\": 1e9}");
    struct adv_memory m = memory_of("ddp");
    GB_EQ(m.model_states_gb, 16, "states");
    GB_EQ(m.activations_gb, 0, "activations");
    GB_EQ(m.buckets_gb, 4, "DDP buckets");
    GB_EQ(m.gathered_gb, 0, "gathered");
    GB_EQ(m.overhead_gb, 2, "framework and allocator");
    GB_EQ(m.buffers_gb, 6, "buffers");
    GB_EQ(m.total_gb, 22, "total");
    GB_EQ(m.headroom_gb, 58, "headroom");
    cr_expect(m.fits);
    cr_expect_eq(m.layout.dp, 2);
}

/* The same 22 GB fits a device when 22 <= 0.9 x memory: 24.45 GB (0.9 x 24.45 = 22.005) fits,
 * 24.44 GB (21.996) does not. */
Test(plan, fits_only_with_ten_percent_headroom)
{
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 2, \"model_params\": 1e9, \"device_memory_gb\": 24.45}");
    cr_expect(memory_of("ddp").fits, "22 GB in 24.45 GB leaves 10.0%");
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 2, \"model_params\": 1e9, \"device_memory_gb\": 24.44}");
    cr_expect_not(memory_of("ddp").fits, "22 GB in 24.44 GB leaves 9.98%");
}

/* The boundary itself, to the last bit: the same 22 GB (16 + 4 + 2, each exact in binary) against
 * 0.9 x memory. 24.444444444444443 is the double nearest 22 / 0.9, and 0.9 x it rounds to exactly
 * 22.0: used == limit fits. The next double down (24.44444444444444) gives 21.999999999999996, so
 * the plan is over by one ulp and does not fit; the next up (24.444444444444446) gives
 * 22.000000000000004 and fits. Usable is the whole memory here (no working-set cap on NVIDIA), so
 * headroom_gb = memory - 22 = 2.444444444444443. */
Test(plan, the_memory_verdict_at_its_exact_boundary)
{
    static const struct {
        double memory; /* printed with %.17g, read back to the same double */
        int fits;
    } cases[] = {
        {24.444444444444443, 1}, /* 0.9 x m == 22.0 exactly */
        {24.44444444444444, 0},  /* one ulp below: 21.999999999999996 < 22 */
        {24.444444444444446, 1}, /* one ulp above: 22.000000000000004 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[200];
        snprintf(json, sizeof json,
                 "{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 2, \"model_params\": 1e9, \"device_memory_gb\": %.17g}",
                 cases[i].memory);
        plan(json);
        struct adv_memory m = memory_of("ddp");
        cr_expect(m.total_gb == 22.0, "case %zu: total %.17g, want exactly 22", i, m.total_gb);
        cr_expect(m.usable_gb == cases[i].memory, "case %zu: usable %.17g", i, m.usable_gb);
        cr_expect_eq(m.fits, cases[i].fits, "case %zu: %.17g GB: fits %d, want %d", i, cases[i].memory, m.fits, cases[i].fits);
        cr_expect_float_eq(m.headroom_gb, cases[i].memory - 22, 1e-12, "case %zu", i);
        if (cases[i].fits) {
            /* DDP fitting is the simplest group: it is the plan, and the verdict says so. */
            char verdict[256];
            cr_expect_str_eq(res->memory.strategy, "ddp", "case %zu", i);
            adv_plan_verdict(res, verdict, sizeof verdict);
            static const char want[] = "Memory: 22.0 of 24 GB usable per device, fits.";
            cr_expect(strncmp(verdict, want, sizeof want - 1) == 0, "case %zu: %s", i, verdict);
        } else {
            cr_expect_str_neq(res->memory.strategy, "ddp", "case %zu: a plan one ulp over is not chosen", i);
        }
    }
}

/* 7.5e9 parameters on 64 devices (the ZeRO paper's example), model_kind other:
 *   zero1: (4 + 12/64) x 7.5 = 31.40625 GB; buckets 2 x 5e8 x 2 bytes = 2 GB;
 *          overhead 1 + 0.05 x 33.40625 = 2.6703125 GB
 *   zero2: (2 + 14/64) x 7.5 = 16.640625 GB; buckets 2 GB
 *   zero3: 16 x 7.5 / 64 = 1.875 GB; gathered: without a shape a layer is a tenth of the model,
 *          0.75e9 x (2 + 2 bytes of two gathered layers' params + 2 bytes of one layer's grads) = 4.5 GB
 *   zero3-offload: 2 x 7.5 / 64 = 0.234375 GB on the GPU, 24 x 7.5 / 8 nodes = 22.5 GB of host
 *          memory per node (DeepSpeed's estimator: 16 bytes x 1.5). */
Test(plan, zero_stages_follow_the_paper_and_deepspeed)
{
    plan("{\"accelerator\": \"h100-sxm\", \"devices\": 64, \"nodes\": 8, \"model_params\": 7.5e9}");
    struct adv_memory m = memory_of("zero1");
    GB_EQ(m.model_states_gb, 31.40625, "zero1 states");
    GB_EQ(m.buckets_gb, 2, "DeepSpeed buckets");
    GB_EQ(m.overhead_gb, 2.6703125, "overhead");
    m = memory_of("zero2");
    GB_EQ(m.model_states_gb, 16.640625, "zero2 states");
    m = memory_of("zero3");
    GB_EQ(m.model_states_gb, 1.875, "zero3 states");
    GB_EQ(m.gathered_gb, 4.5, "zero3 gathered layers");
    m = memory_of("zero3-offload");
    GB_EQ(m.model_states_gb, 0.234375, "offload GPU states");
    GB_EQ(m.cpu_gb, 22.5, "offload host memory per node");
    cr_expect_eq(m.host_fits, -1, "host memory not given");
    /* DeepSpeed's own stage-3 estimator counts 18 bytes per parameter (an extra fp32 gradient):
     * ours is the paper's 16, 11% below it. */
    cr_expect_float_eq(plan_ds_zero3_gpu_bytes(7.5e9, 0, 64) / 1e9, 2.109375, 1e-9);
}

/* Past 16 devices no rule prefers a sharding stage (the 4-16 tier's ddp 5, fsdp 2 stops at 16), so
 * among the sharded strategies that fit the least sharded wins: zero1 (12 sharded bytes) before
 * zero2 (14), zero3, fsdp and fsdp-tp (16), megatron (18). 0.9e9 parameters, model_kind other (no
 * shape: no activations), 32 devices:
 *   ddp   16 x 0.9 = 14.4 + buckets 3.6 + overhead 1 + 0.05 x 18 = 1.9            -> 19.9 GB
 *   zero1 (4 + 12/32) x 0.9 = 3.9375 + buckets 2 + overhead 1 + 0.05 x 5.9375     -> 7.234375 GB
 *   zero2 (2 + 14/32) x 0.9 = 2.19375 + buckets 2 + overhead 1 + 0.05 x 4.19375   -> 5.4034375 GB
 *   fsdp  16 x 0.9 / 32 = 0.45 + gathered 6 x 0.09 = 0.54 + 1 + 0.05 x 0.99        -> 2.0395 GB
 * zero1 fits from 7.234375 / 0.9 = 8.0381944 GB: at 8.039 (limit 7.2351) zero1, at 8.038 (limit
 * 7.2342, 0.0002 GB short) zero2, the next stage, whose 5.4034375 fits; at 6.003 (limit 5.4027)
 * zero2 is 0.0007 short too and zero3 or fsdp follow. At 16 devices with 10 GB (limit 9; zero1 is
 * (4 + 0.75) x 0.9 + 2 + 1.31375 = 7.58875) the tier's points put fsdp first; at 17 (zero1
 * 7.5470588) no points are given and zero1 is back. */
Test(plan, the_least_sharded_stage_that_fits_past_sixteen_devices)
{
    static const struct {
        int devices;
        double memory;
        const char *want;
    } cases[] = {
        {32, 8.039, "zero1"}, {32, 8.038, "zero2"}, {32, 6.004, "zero2"}, {32, 6.003, "fsdp"},
        {16, 10, "fsdp"},     {17, 10, "zero1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[256];
        snprintf(json, sizeof json,
                 "{\"accelerator\": \"h100-sxm\", \"model_kind\": \"other\", \"model_params\": 0.9e9, \"team\": [\"pytorch\"],"
                 " \"devices\": %d, \"device_memory_gb\": %g}",
                 cases[i].devices, cases[i].memory);
        plan(json);
        cr_expect_str_eq(res->memory.strategy, cases[i].want, "case %zu: %d devices, %g GB", i, cases[i].devices,
                         cases[i].memory);
    }
    plan("{\"accelerator\": \"h100-sxm\", \"model_kind\": \"other\", \"model_params\": 0.9e9, \"team\": [\"pytorch\"],"
         " \"devices\": 32, \"device_memory_gb\": 8.039}");
    GB_EQ(memory_of("ddp").total_gb, 19.9, "ddp");
    GB_EQ(memory_of("zero1").total_gb, 7.234375, "zero1");
    GB_EQ(memory_of("zero2").total_gb, 5.4034375, "zero2");
    GB_EQ(memory_of("fsdp").total_gb, 2.0395, "fsdp");
}

/* ZeRO-3 with CPU offload across 2 nodes of 8: 20e9 parameters need 24 x 20e9 / 2 = 240 GB of
 * host memory per node. With 266.7 GB per node, 0.9 x 266.7 = 240.03 holds it; 266.6 GB
 * (239.94) does not, and then the plan does not fit. */
Test(plan, multi_node_offload_checks_host_memory)
{
    plan("{\"accelerator\": \"a100-sxm4-40gb\", \"devices\": 16, \"nodes\": 2, \"model_params\": 2e10,"
         " \"host_memory_gb\": 266.7}");
    struct adv_memory m = memory_of("zero3-offload");
    GB_EQ(m.cpu_gb, 240, "host memory per node");
    cr_expect_eq(m.host_fits, 1);
    cr_expect(m.fits);
    plan("{\"accelerator\": \"a100-sxm4-40gb\", \"devices\": 16, \"nodes\": 2, \"model_params\": 2e10,"
         " \"host_memory_gb\": 266.6}");
    m = memory_of("zero3-offload");
    cr_expect_eq(m.host_fits, 0);
    cr_expect_not(m.fits, "offload that the hosts cannot hold does not fit");
}

/* Megatron, 13B (40 layers, hidden 5120, 40 heads, sequence 2048) on 16 A100-40GB in 2 nodes.
 * Distributed optimizer states (6 + 12/d) x P / (t x p): t x p = 1 or 2 leave 87.75 or 48.75 GB;
 * t x p = 4 with d = 4 gives 9 x 13e9 / 4 = 29.25 GB. Of the t x p = 4 layouts, t = 4 (sequence
 * parallel, no pipeline) needs no recomputation:
 *   per layer 34 x 2048 x 5120 / 4 + 4 x 40 x 2048 / 4 (FlashAttention's fp32 statistics)
 *           = 89,128,960 + 81,920 = 89,210,880 bytes; x 40 layers = 3.5684352 GB
 *   logits 6 x 2048 x 32000 / 4 = 0.098304 GB -> activations 3.6667392 GB
 *   overhead 1 + 0.05 x (29.25 + 3.6667392) = 2.64583696 GB -> total 35.56257616 GB <= 36. */
Test(plan, megatron_layout_uses_the_distributed_optimizer)
{
    plan("{\"accelerator\": \"a100-sxm4-40gb\", \"devices\": 16, \"nodes\": 2, \"model_kind\": \"llm\","
         " \"model_params\": 1.3e10, \"layers\": 40, \"hidden\": 5120, \"heads\": 40, \"seq_len\": 2048, \"tokens\": 2.6e11}");
    struct adv_memory m = memory_of("megatron");
    cr_expect_eq(m.layout.tp, 4);
    cr_expect_eq(m.layout.pp, 1);
    cr_expect_eq(m.layout.dp, 4);
    GB_EQ(m.model_states_gb, 29.25, "states");
    cr_expect_float_eq(plan_megatron_states_bytes(PLAN_BF16, 13e9, 4, 1, 4) / 1e9, 29.25, 1e-9);
    GB_EQ(m.activations_gb, 3.6667392, "activations");
    GB_EQ(m.overhead_gb, 2.64583696, "overhead");
    GB_EQ(m.total_gb, 35.56257616, "total");
    cr_expect_str_eq(m.recompute, "none");
    cr_expect(m.fits);
    /* The report shows the layout. */
    cJSON *doc = adv_report_json(akb, res, "2026-12-01T00:00:00Z");
    cJSON *layout = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "memory"), "layout");
    cr_expect(cJSON_IsNumber(cJSON_GetObjectItem(layout, "tp")) && cJSON_IsNumber(cJSON_GetObjectItem(layout, "ep")));
    cJSON_Delete(doc);
}

/* One A100-40GB, 1.3B parameters (24 layers, hidden 2048, 16 heads) at sequence 8192:
 *   states 16 x 1.3e9 = 20.8 GB; per layer A = 34 x 8192 x 2048 + 4 x 16 x 8192 = 570,949,632;
 *   input kept under full recomputation a = 2 x 8192 x 2048 = 33,554,432; logits 6 x 8192 x 32000
 *   = 1,572,864,000. Without recomputation 24 A + logits = 15.275655168 GB and the total
 *   38.879 GB > 36. Recomputing k layers keeps (24 - k) A + k a + logits plus one layer's A to
 *   rebuild: k = 6 gives 36.093 GB (no), k = 7 gives 35.529 GB (yes): 7 of 24 layers. */
Test(plan, recompute_auto_is_the_least_compute_that_fits)
{
    plan("{\"accelerator\": \"a100-sxm4-40gb\", \"model_kind\": \"llm\", \"model_params\": 1.3e9, \"layers\": 24,"
         " \"hidden\": 2048, \"heads\": 16, \"seq_len\": 8192, \"tokens\": 1e9}");
    struct adv_memory m = memory_of("single");
    cr_expect_str_eq(m.recompute, "full");
    cr_expect_float_eq(m.recompute_fraction, 7.0 / 24, 1e-12);
    GB_EQ(m.activations_gb, 11.513888768, "activations with 7 layers recomputed");
    GB_EQ(m.recompute_gb, 0.570949632, "one layer rebuilt");
    GB_EQ(m.total_gb, 35.52908032, "total");
    cr_expect(m.fits);
    /* recompute none keeps everything and does not fit; full recomputes all 24 layers. */
    plan("{\"accelerator\": \"a100-sxm4-40gb\", \"model_kind\": \"llm\", \"model_params\": 1.3e9, \"layers\": 24,"
         " \"hidden\": 2048, \"heads\": 16, \"seq_len\": 8192, \"recompute\": \"none\"}");
    m = memory_of("single");
    GB_EQ(m.activations_gb, 15.275655168, "all activations kept");
    cr_expect_not(m.fits);
    plan("{\"accelerator\": \"a100-sxm4-40gb\", \"model_kind\": \"llm\", \"model_params\": 1.3e9, \"layers\": 24,"
         " \"hidden\": 2048, \"heads\": 16, \"seq_len\": 8192, \"recompute\": \"full\"}");
    m = memory_of("single");
    cr_expect_float_eq(m.recompute_fraction, 1, 1e-12);
    GB_EQ(m.activations_gb, 24 * 0.033554432 + 1.572864, "inputs only, and the logits");
}

/* Tensor parallel with recomputation: the same 13B at sequence 8192 on 8 A100-40GB in one node.
 * Only t x p = 8 holds the states, 18 x 13e9 / 8 = 29.25 GB (d = 1). With t = 8 a layer keeps
 * 34 x 8192 x 5120 / 8 + 4 x 40 x 8192 / 8 = 178,421,760 bytes, 40 layers 7.1368704 GB, logits
 * 6 x 8192 x 32000 / 8 = 0.196608 GB: 29.25 + 7.3334784 GB plus overhead is 39.43 GB > 36, so
 * layers are recomputed until it fits; whatever the layout, it is the fewest that fit. */
Test(plan, tensor_parallel_plans_recompute_the_fewest_layers)
{
    plan("{\"accelerator\": \"a100-sxm4-40gb\", \"devices\": 8, \"nodes\": 1, \"model_kind\": \"llm\","
         " \"model_params\": 1.3e10, \"layers\": 40, \"hidden\": 5120, \"heads\": 40, \"seq_len\": 8192, \"tokens\": 2.6e11}");
    struct adv_memory m = memory_of("megatron");
    cr_expect_eq(m.layout.tp * m.layout.pp, 8);
    cr_expect_eq(m.layout.dp, 1);
    GB_EQ(m.model_states_gb, 29.25, "states");
    cr_expect(m.fits);
    cr_expect_str_eq(m.recompute, "full");
    cr_expect(m.recompute_fraction > 0 && m.recompute_fraction < 1, "some layers, not all: %g", m.recompute_fraction);
    if (m.layout.tp == 8) {
        /* k of 40 layers: 1 + 1.05 x (29.25 + (40 - k) x 0.17842176 + k x 0.01048576 (inputs) +
         * 0.196608 (logits) + 0.17842176 (one layer rebuilt)) <= 36: k = 20 gives 36.073 GB,
         * k = 21 gives 35.897 GB: 21 of 40 layers. */
        cr_expect_float_eq(m.recompute_fraction, 21.0 / 40, 1e-12);
    }
}

/* LoRA rank 16 on every linear layer of a 7B model (32 layers, hidden 4096): 18 x 16 x 4096 x 32
 * = 37,748,736 adapter parameters. LoRA keeps the frozen base in bf16, 2 x 7e9 = 14 GB, plus the
 * adapters' 16 bytes each = 0.603979776 GB. QLoRA stores the 12 x 32 x 4096^2 = 6,442,450,944
 * linear parameters in NF4 with double-quantised constants, 4.127 bits each (3.323499...e9 bytes),
 * the other 557,549,056 in bf16: base 4.438597492736 GB, with adapters 5.042577268736 GB. */
Test(plan, lora_and_qlora_keep_a_frozen_base)
{
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"model_kind\": \"llm\", \"model_params\": 7e9, \"layers\": 32,"
         " \"hidden\": 4096, \"heads\": 32, \"seq_len\": 4096, \"finetune\": \"lora\", \"tokens\": 1e8}");
    cr_expect_float_eq(res->in.adapters, 37748736, 1e-6);
    GB_EQ(memory_of("single").model_states_gb, 14.603979776, "LoRA states");
    /* FLOPs per token: frozen forward and backward 4 x 7e9, adapters 6 x 37,748,736, attention
     * 12 x 32 x 4096 x 4096 = 6,442,450,944. */
    cr_expect_float_eq(res->time.model_flops, (4 * 7e9 + 6 * 37748736.0 + 6442450944.0) * 1e8, 1e6);
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"model_kind\": \"llm\", \"model_params\": 7e9, \"layers\": 32,"
         " \"hidden\": 4096, \"heads\": 32, \"seq_len\": 4096, \"finetune\": \"qlora\"}");
    GB_EQ(memory_of("single").model_states_gb, 5.042577268736, "QLoRA states");
}

/* Mixture of experts on Megatron: 47e9 parameters, 13e9 active, 8 experts, on 64 H100s. The
 * active ones are counted as shared, the other 34e9 as experts split over e expert-parallel ranks
 * with optimizer states over the d / e replicas of each expert:
 *   (6 + 12/d) x 13e9 / (t p) + (6 + 12/(d/e)) x 34e9 / (t p e). */
Test(plan, moe_states_are_split_by_expert_parallelism)
{
    plan("{\"accelerator\": \"h100-sxm\", \"devices\": 64, \"nodes\": 8, \"model_kind\": \"llm\", \"model_params\": 4.7e10,"
         " \"active_params\": 1.3e10, \"experts\": 8, \"layers\": 32, \"hidden\": 4096, \"heads\": 32, \"seq_len\": 4096,"
         " \"tokens\": 1e11}");
    struct adv_memory m = memory_of("megatron");
    double t = m.layout.tp, p = m.layout.pp, d = m.layout.dp, e = m.layout.ep;
    cr_expect_eq(t * p * d, 64);
    cr_expect(fmod(d, e) == 0 && fmod(8, e) == 0, "e divides d and the experts");
    double want = ((6 + 12 / d) * 13e9 / (t * p) + (6 + 12 / (d / e)) * 34e9 / (t * p * e)) / 1e9;
    GB_EQ(m.model_states_gb, want, "MoE states");
    cr_expect(m.fits);
    /* FLOPs by active parameters: 6 x 13e9 + 12 x 32 x 4096 x 4096 per token. */
    cr_expect_float_eq(res->time.model_flops, (6 * 13e9 + 12.0 * 32 * 4096 * 4096) * 1e11, 1e9);
}

/* Apple silicon: macOS caps the GPU working set; 0.75 of 128 GB above 36 GB, 0.67 below. */
Test(plan, apple_gpu_memory_is_capped_by_the_working_set)
{
    plan("{\"accelerator\": \"apple-m4-max\", \"model_params\": 1e9}");
    GB_EQ(memory_of("single").usable_gb, 96, "M4 Max usable");
    plan("{\"accelerator\": \"apple-m4-max\", \"device_memory_gb\": 32, \"model_params\": 1e9}");
    GB_EQ(memory_of("single").usable_gb, 21.44, "32 GB Mac usable");
    int said = 0;
    for (int i = 0; i < res->nassumptions; i++) said |= strstr(res->assumptions[i], "iogpu.wired_limit_mb") != NULL;
    cr_expect(said, "the plan says how to raise the cap");
    /* Without a fused attention backward on Apple GPUs the scores are stored: 1.3B at sequence
     * 2048 (24 layers, hidden 2048, 16 heads) keeps sbh (34 + 5 a s / h) = 2048 x 2048 x 114
     * = 478,150,656 bytes per layer where FlashAttention keeps 142,737,408. */
    plan("{\"accelerator\": \"apple-m4-max\", \"model_kind\": \"llm\", \"model_params\": 1.3e9, \"layers\": 24,"
         " \"hidden\": 2048, \"heads\": 16, \"seq_len\": 2048, \"recompute\": \"none\"}");
    struct adv_memory m = memory_of("single");
    cr_expect(strstr(m.activation_mode, "Korthikanti") != NULL, "%s", m.activation_mode);
    GB_EQ(m.activations_gb, (24 * 478150656.0 + 6 * 2048 * 32000.0) / 1e9, "activations with the scores");
}

/* Time on 2 nodes x 8 A100-80GB with DDP, 1.3B parameters (24 layers, hidden 2048, sequence 2048),
 * 2.6e10 tokens:
 *   model FLOPs per token 6 x 1.3e9 + 12 x 24 x 2048 x 2048 = 9.007959552e9
 *   compute 9.007959552e9 x 2.6e10 / (16 x 312e12 x 0.55) = 85,302.6 s = 23.6952 h
 *   steps 2.6e10 / 4e6 = 6,500 of 13.1235 s; 4e6 / 2048 / 16 = 122.07 micro-batches per rank
 *   all-reduce of 2.6e9 bytes of gradients over 16 ranks at 25 GB/s (across nodes):
 *   2 x 15/16 x 2.6e9 / 25e9 = 0.195 s, less the last micro-batch's backward 2/3 x 13.1235 / 122.07
 *   = 0.0717 s: 0.12333 s exposed per step, 0.22268 h in all; no bubble, tensor or pipeline
 *   traffic; interruptions 0.1 x 16 / 16384 of the time. */
Test(plan, time_is_split_into_compute_communication_and_bubble)
{
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 16, \"nodes\": 2, \"model_kind\": \"llm\", \"model_params\": 1.3e9,"
         " \"layers\": 24, \"hidden\": 2048, \"heads\": 16, \"seq_len\": 2048, \"tokens\": 2.6e10}");
    struct adv_memory m = memory_of("ddp");
    struct adv_time t;
    double hours = adv_plan_time(akb, res, &m, &t);
    cr_expect_float_eq(t.model_flops, 9.007959552e9 * 2.6e10, 1e8);
    cr_expect_float_eq(t.compute_hours, 23.6951797979798, 1e-6);
    cr_expect_float_eq(t.dp_hours, 0.22267605806329965, 1e-6);
    cr_expect_float_eq(t.tp_hours + t.pp_hours + t.ep_hours + t.bubble_hours, 0, 1e-12);
    cr_expect_float_eq(hours, 23.920191812274766, 1e-6);
    cr_expect(t.communication_known);
}

/* 90 days = 2160 hours. One A100-80GB, 1e9 parameters without a shape: hours = 6 x 1e9 x T /
 * (312e12 x 0.55 x 3600) / (1 - 0.1 / 16384); T = 2.2239224e11 tokens gives 2160 hours exactly. */
Test(plan, runs_past_ninety_days_are_warned)
{
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"model_params\": 1e9, \"tokens\": 2.2250e11}");
    cr_expect_gt(res->hours, 2160);
    cr_expect_eq(res->nwarnings, 1, "2161 hours");
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"model_params\": 1e9, \"tokens\": 2.2230e11}");
    cr_expect_lt(res->hours, 2160);
    cr_expect_eq(res->nwarnings, 0, "2159 hours");
}

/* 70B fully fine-tuned on 8 A100-80GB: 16 x 70e9 = 1.12 TB of states cannot fit 640 GB however it
 * is sharded; the plan says so, names the fewest devices that would fit and the remedies. */
Test(plan, nothing_fits_gives_devices_and_remedies)
{
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 8, \"model_kind\": \"llm\", \"model_params\": 7e10,"
         " \"tokens\": 1e9, \"team\": [\"pytorch\"], \"host_memory_gb\": 512}");
    cr_expect_not(res->memory.fits);
    cr_expect_gt(res->fit_devices, 8);
    cr_expect_leq(res->fit_devices, 32, "16 bytes x 70e9 / 0.9 / 80 GB = 15.6 devices before activations");
    int lora = 0, offload = 0, more = 0;
    for (int i = 0; i < res->nremedies; i++) {
        lora |= strstr(res->remedies[i], "LoRA") != NULL;
        offload |= strstr(res->remedies[i], "offload") != NULL;
        more |= strstr(res->remedies[i], "More devices") != NULL;
    }
    cr_expect(lora && offload && more, "remedies: LoRA/QLoRA, offload (or hosts that hold it), more devices");
    /* Offload's 24 x 70e9 = 1,680 GB of host memory per node is more than 0.9 x 512 GB. */
    cr_expect(res->nwarnings > 0 && strstr(res->warnings[0], "1680 GB of host memory") != NULL, "%s", res->warnings[0]);
}

/* --- calibration ------------------------------------------------------------------------- */

struct run {
    char name[40];
    char answers[400];
    double gpu_hours; /* published */
    double low, high; /* accepted plan / published */
};

/* Published GPU-hours (docs/planner.md has the table and why each tolerance):
 * Llama 2 (arXiv:2307.09288, Table 2), OPT and BLOOM (LLaMA paper arXiv:2302.13971, Table 15),
 * Llama 3.1 405B (model card). Device counts not published are stated assumptions. */
static struct run runs[] = {
    {"llama2-7b",
     "{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 256, \"nodes\": 32, \"model_kind\": \"llm\", \"model_params\": 6.74e9,"
     " \"tokens\": 2e12, \"seq_len\": 4096, \"hidden\": 4096, \"layers\": 32, \"heads\": 32}",
     184320, 0.65, 1.35},
    {"llama2-70b",
     "{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 2048, \"nodes\": 256, \"model_kind\": \"llm\", \"model_params\": 7e10,"
     " \"tokens\": 2e12, \"seq_len\": 4096, \"hidden\": 8192, \"layers\": 80, \"heads\": 64}",
     1720320, 0.65, 1.35},
    /* BLOOM ran without FlashAttention or sequence parallelism (2022): the plan expects faster. */
    {"bloom-176b",
     "{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 384, \"nodes\": 48, \"model_kind\": \"llm\", \"model_params\": 1.76e11,"
     " \"tokens\": 3.66e11, \"seq_len\": 2048, \"hidden\": 14336, \"layers\": 70, \"heads\": 112}",
     1082880, 0.60, 1.35},
    /* OPT's GPU-hours include the restarts its logbook records (see the steady-state test). */
    {"opt-175b",
     "{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 992, \"nodes\": 124, \"model_kind\": \"llm\", \"model_params\": 1.75e11,"
     " \"tokens\": 1.8e11, \"seq_len\": 2048, \"hidden\": 12288, \"layers\": 96, \"heads\": 96}",
     809472, 0.35, 1.35},
    {"llama3.1-405b",
     "{\"accelerator\": \"h100-sxm\", \"devices\": 16384, \"nodes\": 2048, \"model_kind\": \"llm\", \"model_params\": 4.05e11,"
     " \"tokens\": 1.56e13, \"seq_len\": 8192, \"hidden\": 16384, \"layers\": 126, \"heads\": 128}",
     30840000, 0.65, 1.35},
};

ParameterizedTestParameters(plan, calibration_against_published_runs)
{
    return cr_make_param_array(struct run, runs, sizeof runs / sizeof runs[0]);
}

ParameterizedTest(struct run *c, plan, calibration_against_published_runs)
{
    plan(c->answers);
    cr_assert(res->has_hours, "%s: no time planned", c->name);
    cr_expect(res->memory.fits, "%s: the plan must fit the devices the run used", c->name);
    double ratio = res->device_hours / c->gpu_hours;
    cr_expect(ratio >= c->low && ratio <= c->high, "%s: plan %.4g GPU-hours vs published %.4g (x%.2f, accepted %.2f-%.2f)",
              c->name, res->device_hours, c->gpu_hours, ratio, c->low, c->high);
}

/* OPT-175B reported up to 147 TFLOP/s per GPU while training: the plan's steady state (model
 * FLOPs per device and second, interruptions aside) within 35% of it. */
Test(plan, opt_steady_state_throughput)
{
    plan(runs[3].answers);
    double seconds = (res->hours - res->time.lost_hours) * 3600;
    double tflops = res->time.model_flops / (992 * seconds) / 1e12;
    cr_expect(tflops >= 147 * 0.65 && tflops <= 147 * 1.35, "plan %.1f TFLOP/s per GPU vs 147", tflops);
}

/* Bounded work: the layout search tries tensor parallelism up to 128, pipelines up to 512 stages
 * and expert groups up to 256 whatever the answers say, so a trillion devices in one node, a
 * trillion layers or 720,720 experts (a number with many divisors) plan in milliseconds, not the
 * seconds a search over every divisor would take. The bound of 5 s only catches that. */
Test(plan, hostile_sizes_plan_in_bounded_time)
{
    static const char *const cases[] = {
        "{\"hardware\": \"nvidia\", \"devices\": 1e12, \"team\": [\"pytorch\"], \"model_params\": 1e12}",
        "{\"hardware\": \"nvidia\", \"devices\": 1e12, \"model_kind\": \"llm\", \"model_params\": 1e12, \"layers\": 1e12}",
        "{\"hardware\": \"nvidia\", \"devices\": 720720, \"model_kind\": \"llm\", \"model_params\": 1e12,"
        " \"active_params\": 1e9, \"experts\": 720720}",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        plan(cases[i]);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        cr_expect_lt(s, 5, "case %zu took %.2f s", i, s);
        cr_expect(isfinite(res->memory.total_gb), "case %zu", i);
    }
}

/* The plan in words states the whole formula, the device count in it, one duration format and
 * plurals: 6 x 1.3e9 + attention 12 L h s = 12 x 24 x 2048 x 2048 = 1.208e9 FLOP per token (the
 * 9.008e9 of the test above), 2.6e10 tokens, 16 A100s at 312 TFLOP/s x 55% give 23.7 hours of
 * compute (printed whole from 10 up: 24 hours), 23.92 hours in all, 16 x 23.92 = 383 device-hours. */
Test(plan, plan_text_states_the_whole_formula)
{
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"devices\": 16, \"nodes\": 2, \"model_kind\": \"llm\", \"model_params\": 1.3e9,"
         " \"layers\": 24, \"hidden\": 2048, \"heads\": 16, \"seq_len\": 2048, \"tokens\": 2.6e10, \"price_per_device_hour\": 2.5}");
    static char text[8192];
    text[0] = '\0';
    adv_plan_text(akb, res, ts_collect_line, &(struct ts_text){text, sizeof text});
    static const char *const want[] = {
        "Devices: 16 x NVIDIA A100 SXM4 80GB (a100-sxm4-80gb) on 2 nodes, bf16, all parameters trained",
        "Time: (6 x 1.3B parameters + 1.21B attention) FLOP per token x 26B tokens = 2.34e20 model FLOP / (16 devices x "
        "312 TFLOP/s x efficiency 55%) = compute 24 hours",
        "= 24 hours, 383 device-hours",
        "Cost: 957 (price_per_device_hour 2.5 x 383 device-hours)",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) cr_expect(strstr(text, want[i]) != NULL, "'%s' not in:\n%s", want[i], text);
    plan("{\"accelerator\": \"a100-sxm4-80gb\", \"model_params\": 1e9, \"tokens\": 2.2250e11}");
    text[0] = '\0';
    adv_plan_text(akb, res, ts_collect_line, &(struct ts_text){text, sizeof text});
    cr_expect(strstr(text, "on 1 node,") != NULL && strstr(text, "(1 device x") != NULL, "singular:\n%s", text);
    cr_expect(strstr(text, "+ no communication (one device) + bubble 0 +") != NULL, "%s", text);
    cr_expect(strstr(text, "exposed communication") == NULL, "one device has no communication at all:\n%s", text);
    /* 2161 hours = 90.04 days, past 60 days: 90.04 / 30.4375 = 2.96 months, one decimal: 3 */
    cr_expect(strstr(text, "The run takes 3 months, more than 90 days") != NULL, "%s", text);
    /* 1e9 on 8 H100s in one node: the gradients' all-reduce hides under the backward pass, and the
     * zero says why it is zero; 16 A100s on 2 nodes above leave some exposed */
    plan("{\"accelerator\": \"h100-sxm\", \"devices\": 8, \"model_kind\": \"llm\", \"model_params\": 1e9, \"tokens\": 2e10}");
    text[0] = '\0';
    adv_plan_text(akb, res, ts_collect_line, &(struct ts_text){text, sizeof text});
    cr_expect(strstr(text, "+ exposed communication 0 (data 0, tensor 0, pipeline 0, expert 0; all of it overlapped with "
                           "compute) + bubble") != NULL, "%s", text);
    /* a count of micro-batches with separators, never "1.95e+03": 4M tokens a step in sequences of
     * 2048 are 1,953.125 micro-batches on one device, 244.140625 on each of 8 ranks */
    static const struct {
        int devices;
        const char *want;
    } counts[] = {{1, "micro-batch 1 sequence, 1,953.1 per step and data-parallel rank"},
                  {8, "micro-batch 1 sequence, 244.1 per step and data-parallel rank"}};
    for (size_t i = 0; i < 2; i++) {
        char doc[256];
        snprintf(doc, sizeof doc, "{\"accelerator\": \"h100-sxm\", \"devices\": %d, \"model_kind\": \"llm\","
                 " \"model_params\": 1e9, \"tokens\": 2e10}", counts[i].devices);
        plan(doc);
        text[0] = '\0';
        adv_plan_text(akb, res, ts_collect_line, &(struct ts_text){text, sizeof text});
        cr_expect(strstr(text, counts[i].want) != NULL, "'%s' not in:\n%s", counts[i].want, text);
    }
    /* what is trained, in words, for each value of finetune */
    static const char *const ft[][2] = {{"lora", ", LoRA adapters on frozen weights"},
                                         {"qlora", ", QLoRA: LoRA adapters on 4-bit frozen weights"}};
    for (int i = 0; i < 2; i++) {
        char doc[256];
        snprintf(doc, sizeof doc, "{\"accelerator\": \"a100-sxm4-80gb\", \"model_params\": 7e9, \"finetune\": \"%s\"}",
                 ft[i][0]);
        plan(doc);
        text[0] = '\0';
        adv_plan_text(akb, res, ts_collect_line, &(struct ts_text){text, sizeof text});
        cr_expect(strstr(text, ft[i][1]) != NULL && strstr(text, "all parameters") == NULL, "%s:\n%s", ft[i][0], text);
    }
}

/* --- the model's shape: QLoRA's frozen base and LoRA's adapters, the KV cache, the routing,
 * the derived layers ------------------------------------------------------------------------ */

#define SEVENTY_B "\"model_kind\": \"llm\", \"model_params\": 7e10, \"hidden\": 8192, \"layers\": 80, \"heads\": 64," \
                  " \"kv_heads\": 8, \"finetune\": \"qlora\", \"accelerator\": \"rtx-4090\", \"devices\": 2"

/* 70B QLoRA on two 24 GB cards, FSDP (16 bytes per adapter parameter and the base sharded over 2).
 * Counted like GPT-3 (no arch, as before): 12 x 80 x 8192^2 = 64,424,509,440 linear weights in
 * NF4, 33,234,993,807.36 bytes, and the other 5,575,490,560 in bf16, 11,150,981,120: a base of
 * 44.39 GB; adapters 18 x 16 x 8192 x 80 = 188,743,680; per device (44,385,974,927.36 +
 * 3,019,898,880) / 2 = 23.70293690368 GB, more than the card. As the Llama shape it is (SwiGLU
 * 28672, 8 KV heads): 68,451,041,280 linear weights, 35,312,180,920.32 bytes, the other
 * 1,548,958,720 in bf16, 3,097,917,440: base 38.41009836032 GB; adapters 207,093,760 (3,313,500,160
 * bytes); per device 20.86179926016 GB of model states. */
Test(plan, qlora_70b_base_from_the_llama_shape)
{
    plan("{" SEVENTY_B "}");
    GB_EQ(memory_of("fsdp").model_states_gb, 23.70293690368, "GPT-3 count");
    plan("{" SEVENTY_B ", \"arch\": \"llama\", \"ffn_hidden\": 28672}");
    cr_expect_float_eq(res->in.adapters, 207093760, 0.5);
    GB_EQ(memory_of("fsdp").model_states_gb, 20.86179926016, "Llama shape");
    cr_expect_lt(memory_of("fsdp").model_states_gb, 24, "the states alone now fit a 24 GB card");
}

/* The shipped Llama 3.1 70B: 70,553,706,496 parameters, its base 39,517,511,352.32 bytes (the
 * 128K vocabulary's embedding and head in bf16), per device with the adapters
 * (39,517,511,352.32 + 3,313,500,160) / 2 = 21.41550575616 GB. */
Test(plan, qlora_from_the_shipped_model)
{
    plan("{\"model\": \"llama-3.1-70b\", \"finetune\": \"qlora\", \"accelerator\": \"rtx-4090\", \"devices\": 2}");
    cr_expect_float_eq(res->in.params, 70553706496.0, 0.5);
    cr_expect_float_eq(res->layers, 80, 0);
    cr_expect_float_eq(res->in.vocab, 128256, 0);
    GB_EQ(memory_of("fsdp").model_states_gb, 21.41550575616, "Llama 3.1 70B");
}

/* Serving Llama 3.1 70B: 2 x 80 x 8 x 128 x 2 = 327,680 bytes of KV cache a token in bf16; the
 * 4096-token default context of one sequence 1.34217728 GB. */
Test(plan, kv_cache_from_the_shape)
{
    plan("{\"model\": \"llama-3.1-70b\", \"deploy\": \"server\", \"accelerator\": \"h100-sxm\", \"devices\": 8}");
    cr_assert(res->inference.planned);
    cr_expect_float_eq(res->inference.kv_bytes_per_token, 327680, 0);
    cr_expect_float_eq(res->inference.kv_cache_gb, 327680 * 4096 / 1e9, 1e-9);
}

/* Routing follows the shape: DeepSeek-V3 routes 8 of 256 experts where the knowledge base's
 * default is 2; its parameters are the shape's 672,149,632,000 and 38,675,510,272 active. */
Test(plan, routing_and_parameters_of_a_moe)
{
    plan("{\"model\": \"deepseek-v3\", \"accelerator\": \"h100-sxm\", \"devices\": 2048, \"nodes\": 256,"
         " \"tokens\": 1.48e13}");
    cr_expect_float_eq(res->in.top_k, 8, 0);
    cr_expect_float_eq(res->in.experts, 256, 0);
    cr_expect_float_eq(res->in.params, 672149632000.0, 0.5);
    cr_expect_float_eq(res->in.active, 38675510272.0, 0.5);
    int sourced = 0;
    for (int i = 0; i < res->nassumptions; i++)
        sourced |= strstr(res->assumptions[i], "deepseek-v3 (moe, 672.1B parameters): "
                                               "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json") != NULL;
    cr_expect(sourced, "the plan names the shape's source");
    plan("{\"model_kind\": \"llm\", \"model_params\": 4.7e10, \"active_params\": 1.3e10, \"experts\": 8}");
    cr_expect_float_eq(res->in.top_k, 2, 0, "the default without top_k");
    plan("{\"model_kind\": \"llm\", \"model_params\": 4.7e10, \"active_params\": 1.3e10, \"experts\": 8, \"top_k\": 1}");
    cr_expect_float_eq(res->in.top_k, 1, 0);
}

/* 13e9 parameters: 41 GPT-3 layers of 5120 as before, 40 Llama ones with arch llama (Llama 2 13B's;
 * model_shape's derivation, hand-computed in tests/test_model_shape.c). */
Test(plan, derived_layers_by_family)
{
    plan("{\"model_kind\": \"llm\", \"model_params\": 1.3e10}");
    cr_expect_float_eq(res->layers, 41, 0);
    cr_expect(strstr(res->shape_note, "like GPT-3") != NULL, "%s", res->shape_note);
    plan("{\"model_kind\": \"llm\", \"model_params\": 1.3e10, \"arch\": \"llama\"}");
    cr_expect_float_eq(res->layers, 40, 0);
    cr_expect_float_eq(res->hidden, 5120, 0);
    cr_expect(strstr(res->shape_note, "like Llama") != NULL, "%s", res->shape_note);
}

Test(plan, shape_refusals_exit_as_input_errors)
{
    cr_expect_eq(plan_status("{\"model\": \"mixtral-8x7b\", \"top_k\": 9}"), KB_ERR_INPUT);
    cr_expect(strstr(err, "keys 'top_k' and 'experts': top_k 9 is more than experts 8") != NULL, "%s", err);
    cr_expect_eq(plan_status("{\"model\": \"mixtral-8x7b\", \"top_k\": 8}"), KB_OK, "%s", err);
    cr_expect_eq(plan_status("{\"model\": \"gpt-5\"}"), KB_ERR_INPUT);
    cr_expect(strstr(err, "key 'model': unknown model 'gpt-5'") != NULL, "%s", err);
}

/* Llama 2 70B QLoRA at 2048 tokens (Answer.AI's FSDP + QLoRA benchmarks, benchmarks_03_2024.md in
 * github.com/AnswerDotAI/fsdp_qlora, read 2026-12-02: two 24 GB cards train it only with the
 * weights offloaded to CPU memory, four 24 GB A5000s without). Its shape: 68,976,648,192
 * parameters, base 36,363,394,744.32 bytes (tests/test_model_shape.c), adapters 207,093,760 x 16
 * bytes: FSDP states per device (36,363,394,744.32 + 3,313,500,160) / 4 = 9.91922372608 GB on four
 * cards, twice that on two, where activations and buffers leave no 10% headroom. */
/* Four 24 GB cards hold a Llama 2 70B QLoRA sharded (FSDP); two only with the 4-bit base in host
 * memory, as Answer.AI's fsdp_qlora benchmarks report (two 24 GB cards need --use_cpu_offload,
 * benchmarks_03_2024.md): zero3-offload then keeps the base's 36,363,394,744.32 bytes (4.127 bits
 * a linear weight, embeddings and head in bf16: tests/test_model_shape.c) and 24 bytes a trainable
 * parameter on the host, and the device only the adapters' 16-bit weights. */
Test(plan, qlora_llama2_70b_fits_four_24gb_cards_and_two_with_the_base_offloaded)
{
    static const char base[] = "{\"arch\": \"llama\", \"hidden\": 8192, \"layers\": 80, \"heads\": 64, \"kv_heads\": 8,"
                               " \"ffn_hidden\": 28672, \"vocab\": 32000, \"finetune\": \"qlora\", \"seq_len\": 2048,"
                               " \"accelerator\": \"rtx-4090\", \"devices\": %d}";
    char json[400];
    snprintf(json, sizeof json, base, 4);
    plan(json);
    cr_expect_float_eq(res->in.params, 68976648192.0, 0.5);
    GB_EQ(memory_of("fsdp").model_states_gb, 9.91922372608, "four cards");
    cr_expect(res->memory.fits, "%s needs %.2f GB", res->memory.strategy, res->memory.total_gb);
    snprintf(json, sizeof json, base, 2);
    plan(json);
    GB_EQ(memory_of("fsdp").model_states_gb, 2 * 9.91922372608, "two cards");
    cr_expect(!memory_of("fsdp").fits, "fsdp on two cards needs %.2f GB", memory_of("fsdp").total_gb);
    cr_expect_str_eq(res->memory.strategy, "zero3-offload");
    cr_expect(res->memory.fits, "%s needs %.2f GB", res->memory.strategy, res->memory.total_gb);
    double adapters = res->in.adapters;
    GB_EQ(res->memory.cpu_gb, (36363394744.32 + 24 * adapters) / 1e9, "host memory of the one node");
    GB_EQ(res->memory.model_states_gb, 2 * adapters / 2 / 1e9, "the adapters' 16-bit weights over 2 cards");
}

/* A shipped model's positions bound the served context: Mistral 7B's config holds 32,768, so 32,768
 * tokens are served and 32,769 refused naming both keys. */
Test(plan, served_context_within_the_models_positions)
{
    plan("{\"model\": \"mistral-7b\", \"deploy\": \"server\", \"accelerator\": \"h100-sxm\", \"serve_context\": 32768}");
    cr_expect_float_eq(res->inference.position_limit, 32768, 0);
    cr_expect_eq(plan_status("{\"model\": \"mistral-7b\", \"deploy\": \"server\", \"accelerator\": \"h100-sxm\","
                             " \"serve_context\": 32769}"),
                 KB_ERR_INPUT);
    cr_expect(strstr(err, "keys 'serve_context' and 'max_positions': serve_context 32769") != NULL, "%s", err);
}

/* LoRA's targets from the shape (tests/test_model_shape.c): Llama 3.1 70B at rank 16 has
 * 207,093,760 adapter parameters on every linear weight, 32,768,000 on Q and V; the targets mean
 * nothing without LoRA. */
Test(plan, lora_targets_choose_the_adapted_matrices)
{
    plan("{\"model\": \"llama-3.1-70b\", \"finetune\": \"lora\", \"accelerator\": \"h100-sxm\", \"devices\": 8}");
    cr_expect_float_eq(res->in.adapters, 207093760, 0.5);
    plan("{\"model\": \"llama-3.1-70b\", \"finetune\": \"lora\", \"lora_targets\": \"qv\", \"accelerator\": \"h100-sxm\","
         " \"devices\": 8}");
    cr_expect_float_eq(res->in.adapters, 32768000, 0.5);
    struct answers a;
    answers_init(&a);
    cr_assert_eq(answers_set(&a, "lora_targets=qv", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "finetune=qlora", err, sizeof err), 0, "%s", err);
    cr_expect_eq(answers_check_combination(&a, err, sizeof err), 0, "%s", err);
    cr_assert_eq(answers_set(&a, "finetune=full", err, sizeof err), 0, "%s", err);
    cr_expect_neq(answers_check_combination(&a, err, sizeof err), 0);
    cr_expect(strstr(err, "keys 'lora_targets' and 'finetune'") != NULL, "%s", err);
}

/* A paged optimizer (QLoRA's paged AdamW; bitsandbytes on CUDA unified memory) lets the adapters'
 * optimizer states move to host memory, only when nothing else fits. 1e9 parameters without a
 * shape (model_kind other): h = cbrt(1e9 x 128 / 12) = 2201 rounded to 2 x 1024 = 2048,
 * round(1e9 / (12 x 2048^2)) = 20 layers (planner.h), adapters 16 x 18 x 2048 x 20 = 11,796,480;
 * their Adam states 12 x 11,796,480 = 141,557,760 bytes may page. One device: states
 * 1e9 x 4.127 / 8 + 16 x 11,796,480 = 704,618,680 bytes, overhead 1 GB + 5% of that:
 * 1.739849614 GB in all. With 10% headroom the limit is 0.9 x device memory: a device of
 * (1.739849614 - 0.1) / 0.9 GB is 0.1 GB short, paged; 0.2 GB short is more than the states. */
Test(plan, a_paged_optimizer_moves_the_adapters_states_only_when_nothing_else_fits)
{
    static const char base[] = "{\"model_kind\": \"other\", \"model_params\": 1e9, \"finetune\": \"%s\", \"accelerator\": \"%s\","
                               " \"devices\": %d, \"device_memory_gb\": %.10f}";
    char json[300];
    snprintf(json, sizeof json, base, "qlora", "h100-sxm", 1, 80.0);
    plan(json);
    struct adv_memory m = memory_of("single");
    GB_EQ(m.pageable_gb, 0.141557760, "the adapters' optimizer states");
    GB_EQ(m.total_gb, 1.739849614, "one device");
    cr_expect(m.fits && m.paged_gb == 0, "nothing pages when it fits: %g", m.paged_gb);
    snprintf(json, sizeof json, base, "qlora", "h100-sxm", 1, (1.739849614 - 0.1) / 0.9);
    plan(json);
    m = memory_of("single");
    cr_expect(m.fits, "0.1 GB short of 0.142 pageable");
    GB_EQ(m.paged_gb, 0.1, "what must move");
    /* The chosen plan says so in JSON and on the HTML page. */
    cr_assert_str_eq(res->memory.strategy, "single");
    cJSON *report = adv_report_json(akb, res, "2026-12-02T00:00:00Z");
    cr_assert_not_null(report);
    cJSON *mem = cJSON_GetObjectItem(cJSON_GetObjectItem(report, "plan"), "memory");
    cr_expect_float_eq(cJSON_GetObjectItem(mem, "optimizer_paged_gb")->valuedouble, 0.1, 1e-3);
    struct html h = {0};
    cr_assert_eq(adv_report_html(report, &h), 0);
    cr_expect(strstr(h.data, "A paged optimizer moves 0.1 GB") != NULL, "the page names what moves");
    html_free(&h);
    cJSON_Delete(report);
    snprintf(json, sizeof json, base, "qlora", "h100-sxm", 1, (1.739849614 - 0.2) / 0.9);
    plan(json);
    m = memory_of("single");
    cr_expect(!m.fits && m.paged_gb == 0, "0.2 GB short is more than the states: %g", m.paged_gb);
    /* Sharded over two data-parallel ranks by ZeRO-2 (14 of 16 bytes sharded): 12 / 2 a parameter. */
    snprintf(json, sizeof json, base, "qlora", "h100-sxm", 2, 80.0);
    plan(json);
    GB_EQ(memory_of("zero2").pageable_gb, 0.141557760 / 2, "ZeRO-2 over 2");
    GB_EQ(memory_of("ddp").pageable_gb, 0.141557760, "DDP keeps them whole");
    /* Not on AMD (no such fact), not for a full fine-tune, not under offload. */
    snprintf(json, sizeof json, base, "qlora", "mi300x", 1, (1.739849614 - 0.1) / 0.9);
    plan(json);
    cr_expect(memory_of("single").pageable_gb == 0 && !memory_of("single").fits);
    snprintf(json, sizeof json, base, "full", "h100-sxm", 1, 80.0);
    plan(json);
    cr_expect(memory_of("single").pageable_gb == 0);
    snprintf(json, sizeof json, base, "qlora", "h100-sxm", 1, 80.0);
    plan(json);
    cr_expect(memory_of("zero3-offload").pageable_gb == 0);
}

/* The peak line says where the catalog's figures come from when they are not the vendor's own:
 * secondary (DGX Spark: NVIDIA's one tensor figure is sparse FP4) points to a probe, derived
 * (Apple M5 Pro: no TFLOPS from Apple) says so, the H100's datasheet figures say nothing more. */
Test(plan, peak_line_says_where_the_figures_come_from)
{
    static const struct {
        const char *accelerator, *want, *not_want;
    } cases[] = {
        {"dgx-spark", "(hw-nvidia-dgx-spark; secondary figures, not the vendor's: fwadvisor probe measures it)", "derived"},
        {"apple-m5-pro", "(hw-apple-m5-family; some figures derived, not published by the vendor)", "secondary"},
        {"h100-sxm", "dense bf16 (hw-nvidia-h100)", "figures"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[256];
        snprintf(json, sizeof json, "{\"accelerator\": \"%s\", \"model_params\": 1e9, \"tokens\": 2e10}", cases[i].accelerator);
        plan(json);
        cr_expect(strstr(res->peak_source, cases[i].want) != NULL, "%s: '%s'", cases[i].accelerator, res->peak_source);
        cr_expect(strstr(res->peak_source, cases[i].not_want) == NULL, "%s: '%s'", cases[i].accelerator, res->peak_source);
    }
}

/* The new devices are matched from the names their drivers report, word end and the longest match
 * deciding: "NVIDIA H20" is not an H200 nor an H200 an H20, an M5 Pro is not an M5, the two RTX
 * PRO 6000 editions apart, and the Max-Q edition no Workstation Edition. */
Test(plan, detected_2026_devices_match_their_rows)
{
    static const struct {
        const char *kind, *name, *want;
    } cases[] = {
        {"nvidia", "NVIDIA H20", "h20"},
        {"nvidia", "NVIDIA H200", "h200-sxm"},
        {"nvidia", "NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000"},
        {"nvidia", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "rtx-pro-6000-ws"},
        {"nvidia", "NVIDIA GB10", "dgx-spark"},
        {"apple", "Apple M5", "apple-m5"},
        {"apple", "Apple M5 Pro", "apple-m5-pro"},
        {"apple", "Apple M5 Max", "apple-m5-max"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct adv_hw hw;
        memset(&hw, 0, sizeof hw);
        strcpy(hw.source, "detected");
        snprintf(hw.kind, sizeof hw.kind, "%s", cases[i].kind);
        snprintf(hw.name, sizeof hw.name, "%s", cases[i].name);
        hw.count = 1;
        struct answers a;
        answers_init(&a);
        cr_assert_eq(adv_recommend(akb, &a, &hw, res, err, sizeof err), KB_OK, "%s: %s", cases[i].name, err);
        cr_expect_str_eq(answers_str(&res->answers, ANS_ACCELERATOR), cases[i].want, "%s", cases[i].name);
    }
}

/* Activations the plan cannot estimate (no shape for model_kind nlp) are said, never printed as
 * "0.0 GB activations"; an LLM's shape gives a figure. */
Test(plan, unknown_activations_are_said_not_zero)
{
    plan("{\"accelerator\": \"h100-sxm\", \"devices\": 4, \"model_kind\": \"nlp\", \"model_params\": 3.5e8, \"tokens\": 7e9}");
    static char text[8192];
    text[0] = '\0';
    adv_plan_text(akb, res, ts_collect_line, &(struct ts_text){text, sizeof text});
    cr_expect_eq(res->memory.activations_estimated, 0);
    cr_expect(strstr(text, "GB activations") == NULL, "%s", text);
    cr_expect(strstr(text, "activations not estimated for model_kind nlp") != NULL, "%s", text);
    plan("{\"accelerator\": \"h100-sxm\", \"devices\": 4, \"model_kind\": \"llm\", \"model_params\": 3.5e8, \"tokens\": 7e9}");
    text[0] = '\0';
    adv_plan_text(akb, res, ts_collect_line, &(struct ts_text){text, sizeof text});
    cr_expect_eq(res->memory.activations_estimated, 1);
    cr_expect(strstr(text, "GB activations + ") != NULL, "%s", text);
}
