/* FP8 training stacks beyond NVIDIA: Transformer Engine on ROCm for AMD Instinct MI300 and newer
 * (rule fp8-stack-amd), the Intel Gaudi Transformer Engine for Gaudi 3 (rule fp8-stack-gaudi). On
 * those devices a framework with a stack plans in fp8; one without is refused naming precision and
 * the device. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "knowledge/advisor_kb.h"
#include "tests/support.h"

static struct ts_advisor fx;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_advisor_open(&fx, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_advisor_close(&fx); }

TestSuite(kb_tools2026, .init = setup, .fini = teardown);

static int plan_status(const char *sets)
{
    struct answers a;
    answers_init(&a);
    cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s: %s", sets, err);
    err[0] = '\0';
    return adv_recommend(fx.akb, &a, NULL, fx.res, err, sizeof err);
}

static int assumed(const char *text)
{
    for (int i = 0; i < fx.res->nassumptions; i++)
        if (strstr(fx.res->assumptions[i], text)) return 1;
    return 0;
}

#define MI355X "accelerator=mi355x model_params=7e9 devices=8 precision=fp8 "
#define GAUDI3 "accelerator=gaudi3 model_params=7e9 devices=8 precision=fp8 "

Test(kb_tools2026, mi355x_fp8_with_pytorch_and_jax_passes)
{
    cr_assert_eq(plan_status(MI355X "team=pytorch"), KB_OK, "%s", err);
    cr_expect(assumed("PyTorch has an FP8 training stack on mi355x"));
    cr_assert_eq(plan_status(MI355X "team=jax"), KB_OK, "%s", err);
    cr_expect(assumed("JAX has an FP8 training stack on mi355x"));
}

/* TensorFlow (first for a recommendation model of a TensorFlow team) has no FP8 stack on ROCm. */
Test(kb_tools2026, mi355x_fp8_with_tensorflow_is_refused)
{
    cr_expect_eq(plan_status(MI355X "team=tensorflow model_kind=recsys"), KB_ERR_INPUT);
    cr_expect(strstr(err, "keys 'precision' and 'accelerator': no FP8 training stack for TensorFlow on mi355x") != NULL,
              "%s", err);
    /* The frameworks that have one there, from the same facts (fp8-stack-amd), not NVIDIA's list. */
    cr_expect(strstr(err, "(AMD Instinct MI355X): it has one for fastai, JAX, PyTorch; use bf16") != NULL, "%s", err);
}

Test(kb_tools2026, gaudi3_fp8_with_pytorch_passes)
{
    cr_assert_eq(plan_status(GAUDI3 "team=pytorch"), KB_OK, "%s", err);
    cr_expect(assumed("PyTorch has an FP8 training stack on gaudi3"));
}

/* Both rules cite a source with an https address. */
Test(kb_tools2026, stack_rules_cite_sources)
{
    const char *sql = "SELECT count(*) FROM rules r JOIN sources s ON s.id = r.source WHERE r.id IN "
                      "('fp8-stack-amd', 'fp8-stack-gaudi') AND s.url LIKE 'https://%' AND r.as_of = '2026-12-02'";
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(fx.kb.kb), sql, -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_eq(sqlite3_column_int(st, 0), 2);
    sqlite3_finalize(st);
}
