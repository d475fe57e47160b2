/* recommend --sweep and --compare-hardware as users run them: the refusals' exit statuses, the
 * sweep's figures against separate recommend runs, 80 columns, JSON against its schema. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "tests/support.h"

static char *dir;
static char dbarg[4200], sysroot_env[4200];
static const char *env[5];

static void setup(void)
{
    dir = ts_tmpdir();
    snprintf(dbarg, sizeof dbarg, "--db=%s/kb.sqlite3", dir);
    ts_h100_env(env, sysroot_env, sizeof sysroot_env);
}

static void teardown(void)
{
    ts_rmtree(dir);
    free(dir);
}

TestSuite(sweep_cli, .init = setup, .fini = teardown, .timeout = 120);

#define RUN(r, ...) cr_assert_eq(ts_run(&(r), env, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)
#define JOB "--probe", "none", "--set", "model_kind=llm", "--set", "model_params=7B", "--set", "accelerator=h100-sxm"

Test(sweep_cli, keys_that_cannot_vary_exit_2_naming_them)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", JOB, "--sweep", "team=jax,pytorch");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "key 'team' cannot vary (a list)"), "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", JOB, "--sweep", "colour=red,blue");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "key 'colour' cannot vary (not an answer key)"), "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", JOB, "--sweep", "devices=8,16", "--sweep", "devices=32");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "key 'devices' cannot vary (given twice)"), "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", JOB, "--sweep", "devices=8", "--compare-hardware");
    cr_expect_eq(r.status, 2, "%s", r.err);
    ts_run_free(&r);
}

Test(sweep_cli, values_the_key_refuses_exit_3)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", JOB, "--sweep", "precision=bf16,fp7");
    cr_expect_eq(r.status, 3);
    cr_expect(strstr(r.err, "--set precision=fp7: key 'precision': 'fp7' is not one of"), "%s", r.err);
    ts_run_free(&r);
    RUN(r, dbarg, "recommend", JOB, "--sweep", "devices=8,0");
    cr_expect_eq(r.status, 3, "%s", r.err);
    ts_run_free(&r);
    char *bad = ts_path(dir, "prices.csv");
    cr_assert_eq(ts_write_str(bad, "h100-sxm,acme\n"), 0);
    RUN(r, dbarg, "recommend", JOB, "--compare-hardware", "--prices", bad);
    cr_expect_eq(r.status, 3);
    cr_expect_eq(ts_lines(r.err), 1, "one line: %s", r.err);
    ts_run_free(&r);
    free(bad);
}

static double plan_hours(const char *devices, const char *field)
{
    struct ts_run r;
    char set[64];
    snprintf(set, sizeof set, "devices=%s", devices);
    RUN(r, dbarg, "recommend", JOB, "--set", "price_per_device_hour=2", "--set", set, "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc);
    double v = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "plan"), "time"), field)->valuedouble;
    cJSON_Delete(doc);
    ts_run_free(&r);
    return v;
}

/* The sweep's rows are the plan: each value's hours, device-hours and cost equal a separate
 * recommend run's (to the report's three decimals). */
Test(sweep_cli, figures_equal_separate_recommend_runs)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", JOB, "--set", "price_per_device_hour=2", "--sweep", "devices=8,16,64", "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc);
    char err[1024];
    cr_expect_eq(ts_validate_doc(doc, "compare.schema.json", err, sizeof err), 0, "%s", err);
    cJSON *rows = cJSON_GetObjectItem(doc, "rows");
    cr_assert_eq(cJSON_GetArraySize(rows), 3);
    static const char *const values[] = {"8", "16", "64"};
    for (int i = 0; i < 3; i++) {
        cJSON *row = cJSON_GetArrayItem(rows, i);
        cr_expect_eq(cJSON_GetObjectItem(row, "devices")->valueint, atoi(values[i]));
        double hours = cJSON_GetObjectItem(row, "hours")->valuedouble;
        double dh = cJSON_GetObjectItem(row, "device_hours")->valuedouble;
        double cost = cJSON_GetObjectItem(row, "cost")->valuedouble;
        cr_expect_float_eq(hours, plan_hours(values[i], "hours"), 1e-9, "devices %s", values[i]);
        cr_expect_float_eq(dh, plan_hours(values[i], "device_hours"), 1e-9);
        cr_expect_float_eq(cost, plan_hours(values[i], "cost"), 1e-9);
        cr_expect_float_eq(cost, dh * 2, 0.01, "device-hours x the price, to the cent");
    }
    cr_expect_gt(cJSON_GetArrayItem(rows, 0)->child ? cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0), "hours")->valuedouble : 0,
                 cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 2), "hours")->valuedouble, "more devices, fewer hours");
    cJSON_Delete(doc);
    ts_run_free(&r);
}

/* Two keys: every combination in the values' order, the first key outer. */
Test(sweep_cli, two_keys_text_fits_80_columns)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--probe", "none", "--set", "model_kind=llm", "--set", "model_params=7B", "--sweep",
        "accelerator=h100-sxm,mi300x", "--sweep", "precision=bf16,fp8");
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *a = strstr(r.out, "h100-sxm bf16"), *b = strstr(r.out, "h100-sxm fp8"), *c = strstr(r.out, "mi300x bf16");
    cr_expect(a && b && c && a < b && b < c, "%s", r.out);
    cr_expect(strstr(r.out, "No price for h100-sxm, mi300x: cost left out"), "%s", r.out);
    cr_expect_leq(ts_max_width(r.out), 80, "%s", r.out);
    ts_run_free(&r);
}

/* The comparison as text: within 80 columns, the sort said, the refused rows explained. */
Test(sweep_cli, compare_text_fits_80_columns)
{
    struct ts_run r;
    RUN(r, dbarg, "recommend", "--probe", "none", "--set", "model_kind=llm", "--set", "model_params=70B", "--set",
        "job=finetune", "--set", "finetune=full", "--set", "dataset_tokens=1B", "--set", "precision=fp8", "--set",
        "team=jax", "--compare-hardware");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "Hardware for this job, sorted by time (priority iteration)"), "%s", r.out);
    cr_expect(strstr(r.out, "Cannot run this job:"), "%s", r.out);
    cr_expect(strstr(r.out, "gaudi3: Excluded: no JAX support on Intel Gaudi"), "%s", r.out);
    cr_expect_leq(ts_max_width(r.out), 80, "%s", r.out);
    ts_run_free(&r);
}

/* --html: the sweep's page charts the hours, the cost and the MFU of each value, and its bars
 * point at the document's rows; the comparison's page lists the refusals. */
Test(sweep_cli, html_pages_chart_each_figure)
{
    char *page = ts_path(dir, "sweep.html"), *json = ts_path(dir, "sweep.json");
    struct ts_run r;
    RUN(r, dbarg, "recommend", JOB, "--set", "price_per_device_hour=2", "--sweep", "devices=8,16,32", "--html", page, "--json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_eq(ts_write_str(json, r.out), 0);
    ts_run_free(&r);
    char *text = ts_read(page, NULL);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "<section id=\"sweep\">"), "the sweep's section");
    int charts = 0;
    for (const char *p = text; (p = strstr(p, "<svg")); p++) charts++;
    cr_expect_eq(charts, 3, "hours, cost and MFU");
    cr_expect(strstr(text, "/rows/2/hours"), "the bars point at the rows");
    free(text);
    char script[4200];
    snprintf(script, sizeof script, "%s/../html/check_html.py", getenv("FWADVISOR_FIXTURES") ? getenv("FWADVISOR_FIXTURES") : "tests/fixtures");
    RUN(r, dbarg, "recommend", "--probe", "none", "--set", "model_kind=llm", "--set", "model_params=70B", "--set",
        "team=jax", "--compare-hardware", "--html", "-");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "<section id=\"hardware-comparison\">"));
    cr_expect(strstr(r.out, "gaudi3: Excluded: no JAX support on Intel Gaudi"), "the refusals listed");
    cr_expect_null(strstr(r.out, "Hardware for this job"), "--html - prints the page alone");
    ts_run_free(&r);
    if (access("/usr/bin/python3", X_OK) == 0) {
        cr_assert_eq(ts_exec(&r, "/usr/bin/python3", NULL, NULL, (const char *const[]){script, page, json, NULL}), 0);
        if (r.status != 77) cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
        else fprintf(stderr, "SKIPPED: page check: %s", r.out);
        ts_run_free(&r);
    }
    free(page);
    free(json);
}
