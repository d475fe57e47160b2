/* The hardware comparison: every catalog accelerator for one job, refusals with their reason, the
 * sort by priority, the cost from a price or none, the price file and the schema of --json. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "knowledge/advisor.h"
#include "knowledge/compare.h"
#include "tests/support.h"

static struct ts_advisor t;
static struct compare_table *table;
static struct compare_prices prices;
static char err[1024];

static void setup(void)
{
    cr_assert_eq(ts_advisor_open(&t, err, sizeof err), 0, "%s", err);
    table = calloc(1, sizeof *table);
    cr_assert_not_null(table);
    memset(&prices, 0, sizeof prices);
}

static void teardown(void)
{
    free(table);
    ts_advisor_close(&t);
}

TestSuite(compare, .init = setup, .fini = teardown, .timeout = 120);

static void compare_sets(const char *sets)
{
    struct answers a;
    cr_assert_eq(ts_answers_sets(&a, sets, err, sizeof err), 0, "%s", err);
    cr_assert_eq(compare_hardware(t.akb, &a, &prices, table, err, sizeof err), KB_OK, "%s", err);
}

/* The first row of acc (rows that run come in the sort's order, so it is the fastest or
 * cheapest of its counts), or NULL. */
static const struct compare_row *row_of(const char *acc)
{
    for (int i = 0; i < table->count; i++)
        if (strcmp(table->rows[i].accelerator, acc) == 0) return &table->rows[i];
    return NULL;
}

static const struct compare_row *row_at(const char *acc, int devices)
{
    for (int i = 0; i < table->count; i++)
        if (strcmp(table->rows[i].accelerator, acc) == 0 && table->rows[i].devices == devices) return &table->rows[i];
    return NULL;
}

/* The vendors the done-when names: each has a row, running or refused with a reason. */
static void expect_every_vendor(void)
{
    static const char *const accs[] = {"h100-sxm", "mi300x", "tpu-v5p", "gaudi3", "trainium2", "ascend-910b", "apple-m3-ultra"};
    for (size_t i = 0; i < sizeof accs / sizeof accs[0]; i++) {
        const struct compare_row *row = row_of(accs[i]);
        cr_assert_not_null(row, "%s has a row", accs[i]);
        if (row->refusal != COMPARE_RUNS) cr_expect(row->why[0], "%s is refused with a reason", accs[i]);
    }
    for (int i = 0; i < table->count; i++)
        if (table->rows[i].refusal != COMPARE_RUNS) cr_expect(table->rows[i].why[0], "%s: why", table->rows[i].accelerator);
}

static int is_sorted(enum compare_sort sort)
{
    int refused = 0;
    double last = -INFINITY;
    for (int i = 0; i < table->count; i++) {
        const struct compare_row *row = &table->rows[i];
        if (row->refusal != COMPARE_RUNS) {
            refused = 1;
            continue;
        }
        if (refused) return 0; /* a row that runs after a refused one */
        double v = sort == COMPARE_BY_COST ? row->cost : row->hours;
        if (isnan(v)) continue;
        if (v < last) return 0;
        last = v;
    }
    return 1;
}

/* A 70B full fine-tune in FP8 with JAX: the devices without an FP8 rate, the platforms without
 * JAX and the counts that do not fit each say why; the rest run at the fewest devices that fit. */
Test(compare, fine_tune_70b_fp8_jax_every_refusal_says_why)
{
    compare_sets("model_kind=llm model_params=70B job=finetune finetune=full dataset_tokens=1B precision=fp8 team=jax");
    expect_every_vendor();
    const struct compare_row *gaudi = row_of("gaudi3"), *ascend = row_of("ascend-910b"), *apple = row_of("apple-m3-ultra");
    cr_expect_eq(gaudi->refusal, COMPARE_NO_FRAMEWORK, "%s", gaudi->why);
    cr_expect(strstr(gaudi->why, "no JAX support on Intel Gaudi"), "%s", gaudi->why);
    cr_expect_eq(ascend->refusal, COMPARE_REFUSED, "%s", ascend->why);
    cr_expect(strstr(ascend->why, "no fp8 matrix rate on ascend-910b"), "%s", ascend->why);
    cr_expect_eq(apple->refusal, COMPARE_REFUSED, "%s", apple->why);
    const struct compare_row *h100 = row_of("h100-sxm");
    cr_expect_eq(h100->refusal, COMPARE_RUNS, "%s", h100->why);
    cr_expect(h100->fits);
    cr_expect_eq(row_of("tpu-v5p")->refusal, COMPARE_RUNS, "%s", row_of("tpu-v5p")->why);
    cr_expect(is_sorted(COMPARE_BY_TIME));
    cr_expect_eq(table->sort, COMPARE_BY_TIME);
}

/* os linux: the answers' own check refuses every Apple GPU (macOS only). Each refused row names
 * its own accelerator and vendor, once, not the last row planned before it. */
Test(compare, rows_the_answers_refuse_name_their_accelerator)
{
    compare_sets("model_kind=llm model_params=7B os=linux team=pytorch");
    int apple = 0, a10g = 0;
    for (int i = 0; i < table->count; i++) {
        const struct compare_row *row = &table->rows[i];
        a10g += strcmp(row->accelerator, "a10g") == 0;
        if (strncmp(row->accelerator, "apple-", 6) != 0) continue;
        apple++;
        cr_expect_eq(row->refusal, COMPARE_REFUSED, "%s: %s", row->accelerator, row->why);
        cr_expect_str_eq(row->vendor, "apple");
        cr_expect(strstr(row->why, "os linux cannot go with hardware apple") != NULL, "%s: %s", row->accelerator, row->why);
        for (int j = 0; j < i; j++) cr_expect_str_neq(table->rows[j].accelerator, row->accelerator, "named twice");
    }
    int catalog = 0;
    for (int i = 0; i < adv_kb_accelerator_count(t.akb); i++) {
        const char *vendor;
        adv_kb_accelerator(t.akb, i, NULL, &vendor, NULL);
        catalog += strcmp(vendor, "apple") == 0;
    }
    cr_expect_gt(catalog, 0);
    cr_expect_eq(apple, catalog, "one row an Apple accelerator");
    cr_expect_leq(a10g, 3, "a10g: its own counts only, %d rows", a10g);
    cr_expect_gt(a10g, 0);
}

/* A 7B pre-training with PyTorch: Gaudi and Trainium run it; TPU too (PyTorch/XLA); the counts
 * are the fewest that fit, twice and four times. */
Test(compare, pretrain_7b_counts_are_fewest_x2_x4)
{
    compare_sets("model_kind=llm model_params=7B team=pytorch");
    expect_every_vendor();
    const struct compare_row *fewest = NULL;
    for (int i = 0; i < table->count; i++)
        if (strcmp(table->rows[i].accelerator, "h100-sxm") == 0 && (!fewest || table->rows[i].devices < fewest->devices))
            fewest = &table->rows[i];
    cr_assert_not_null(fewest);
    cr_expect(fewest->fits);
    cr_expect_not_null(row_at("h100-sxm", fewest->devices * 2));
    cr_expect_not_null(row_at("h100-sxm", fewest->devices * 4));
    cr_expect_null(row_at("h100-sxm", fewest->devices * 8), "bounded at x4");
    cr_expect_eq(row_of("gaudi3")->refusal, COMPARE_RUNS, "%s", row_of("gaudi3")->why);
    cr_expect_eq(row_of("trainium2")->refusal, COMPARE_RUNS, "%s", row_of("trainium2")->why);
}

/* A mixture of experts in FP8: the expert layout on the devices that run it, every refusal
 * explained; sorted by cost when priority is cost. */
Test(compare, moe_sorted_by_cost)
{
    compare_sets("model_kind=llm model=mixtral-8x7b priority=cost price_per_device_hour=2");
    expect_every_vendor();
    cr_expect_eq(table->sort, COMPARE_BY_COST);
    cr_expect(is_sorted(COMPARE_BY_COST));
    const struct compare_row *h100 = row_of("h100-sxm");
    cr_expect_eq(h100->refusal, COMPARE_RUNS, "%s", h100->why);
    cr_expect_eq(h100->price.from, PRICE_ANSWER);
    cr_expect_float_eq(h100->cost, h100->device_hours * 2, 1e-9 * h100->cost);
}

/* The same job by time: the order changes with the priority. */
Test(compare, priority_iteration_sorts_by_time)
{
    compare_sets("model_kind=llm model=mixtral-8x7b priority=iteration price_per_device_hour=2");
    cr_expect_eq(table->sort, COMPARE_BY_TIME);
    cr_expect(is_sorted(COMPARE_BY_TIME));
}

/* Serving a 70B model: the fewest devices that hold it, decode tokens a second. */
Test(compare, serving_70b)
{
    compare_sets("model_kind=llm model_params=70B job=serve deploy=server");
    cr_expect(table->serve);
    expect_every_vendor();
    const struct compare_row *h100 = row_of("h100-sxm");
    cr_expect_eq(h100->refusal, COMPARE_RUNS, "%s", h100->why);
    cr_expect_eq(h100->tp * h100->pp, 4, "the inference plan's fewest 80 GB cards for 70B bf16 weights and the cache");
    cr_expect_eq(h100->devices, 4);
    cr_expect_gt(h100->tokens_per_s, 0);
    cr_expect(isnan(h100->cost_per_hour), "no price: no cost");
}

/* Without a price the cost is left out; with a file's price it is device-hours x the price. */
Test(compare, cost_from_a_price_file_or_none)
{
    compare_sets("model_kind=llm model_params=7B team=pytorch");
    const struct compare_row *h100 = row_of("h100-sxm");
    cr_expect(isnan(h100->cost));
    cr_expect_eq(h100->price.from, PRICE_NONE);
    const char *file = "accelerator,provider,price\n# a comment\nh100-sxm,acme,3.5\nh100-sxm,other,4\n";
    cr_assert_eq(compare_prices_parse(t.akb, file, strlen(file), "p.csv", &prices, err, sizeof err), 0, "%s", err);
    cr_expect_eq(prices.count, 2);
    compare_sets("model_kind=llm model_params=7B team=pytorch");
    h100 = row_of("h100-sxm");
    cr_expect_eq(h100->price.from, PRICE_FILE);
    cr_expect_float_eq(h100->price.usd, 3.5, 1e-12, "the lowest of the provider prices");
    cr_expect_float_eq(h100->cost, h100->device_hours * 3.5, 1e-9 * h100->cost);
    cr_expect(isnan(row_of("mi300x")->cost), "no price for mi300x");
}

/* By cost with prices for two accelerators only: the rows with a cost come first, cheapest
 * first; the rows without one follow, by time (the tie-break when neither has a cost). */
Test(compare, by_cost_the_priced_rows_first_then_the_rest_by_time)
{
    const char *file = "accelerator,provider,price\nh100-sxm,acme,3\nmi300x,acme,2\n";
    cr_assert_eq(compare_prices_parse(t.akb, file, strlen(file), "p.csv", &prices, err, sizeof err), 0, "%s", err);
    compare_sets("model_kind=llm model_params=7B team=pytorch priority=cost");
    cr_expect_eq(table->sort, COMPARE_BY_COST);
    int priced = 0, unpriced = 0;
    double last_cost = -INFINITY, last_hours = -INFINITY;
    for (int i = 0; i < table->count; i++) {
        const struct compare_row *row = &table->rows[i];
        if (row->refusal != COMPARE_RUNS) continue;
        if (!isnan(row->cost)) {
            cr_expect_eq(unpriced, 0, "%s x%d has a cost but comes after a row without one", row->accelerator,
                         row->devices);
            cr_expect_geq(row->cost, last_cost, "%s x%d", row->accelerator, row->devices);
            last_cost = row->cost;
            priced++;
        } else {
            cr_assert(!isnan(row->hours), "%s x%d", row->accelerator, row->devices);
            cr_expect_geq(row->hours, last_hours, "%s x%d: %g hours after %g", row->accelerator, row->devices, row->hours,
                          last_hours);
            last_hours = row->hours;
            unpriced++;
        }
    }
    cr_expect_gt(priced, 1);
    cr_expect_gt(unpriced, 1);
}

Test(compare, bad_price_files_say_where)
{
    static const struct { const char *text, *says; } bad[] = {
        {"h100-sxm,acme\n", "p: line 1: expected accelerator,provider,price"},
        {"nope,acme,2\n", "p: line 1: accelerator 'nope' is not in the catalog"},
        {"h100-sxm,acme,-1\n", "p: line 1: price must be a number above 0"},
        {"h100-sxm,acme,2x\n", "p: line 1: price must be a number above 0"},
        {"[{\"accelerator\": \"h100-sxm\", \"provider\": \"acme\"}]", "p: item 1: price must be"},
        {"[{", "p: not valid JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&prices, 0, sizeof prices);
        cr_expect_eq(compare_prices_parse(t.akb, bad[i].text, strlen(bad[i].text), "p", &prices, err, sizeof err), -1);
        cr_expect(strstr(err, bad[i].says), "%s: %s", bad[i].text, err);
    }
    const char *json = "[{\"accelerator\": \"mi300x\", \"provider\": \"acme\", \"price\": 2.25}]";
    memset(&prices, 0, sizeof prices);
    cr_expect_eq(compare_prices_parse(t.akb, json, strlen(json), "p", &prices, err, sizeof err), 0, "%s", err);
    cr_expect_float_eq(prices.rows[0].usd, 2.25, 1e-12);
}

/* The knowledge base's prices table: a user's row is read with its source and date. */
Test(compare, prices_from_the_knowledge_base)
{
    cr_assert_eq(sqlite3_exec(kb_db(t.kb.kb),
                              "INSERT INTO prices (accelerator, provider, usd_per_device_hour, region, instance, source, as_of,"
                              " origin) VALUES ('h100-sxm', 'acme', 2.5, 'us-east-1', 'acme.8x', 'hw-nvidia-h100', "
                              "'2026-12-02', 'user')",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(kb_db(t.kb.kb)));
    cr_assert_eq(compare_prices_from_kb(t.kb.kb, &prices, err, sizeof err), KB_OK, "%s", err);
    cr_assert_eq(prices.count, 1);
    compare_sets("model_kind=llm model_params=7B team=pytorch");
    const struct compare_row *h100 = row_of("h100-sxm");
    cr_expect_eq(h100->price.from, PRICE_KB);
    cr_expect_float_eq(h100->cost, h100->device_hours * 2.5, 1e-9 * h100->cost);
    char text[256];
    compare_price_text(&h100->price, text, sizeof text);
    cr_expect_str_eq(text, "acme on-demand, us-east-1 acme.8x, read 2026-12-02 [hw-nvidia-h100]");
}

Test(compare, json_matches_its_schema)
{
    compare_sets("model_kind=llm model_params=70B job=finetune finetune=lora dataset_tokens=1B price_per_device_hour=2");
    cJSON *doc = compare_json(table, "compare", "2026-12-02T00:00:00Z");
    cr_assert_not_null(doc);
    cr_expect_eq(ts_validate_doc(doc, "compare.schema.json", err, sizeof err), 0, "%s", err);
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "sorted_by")->valuestring, "time");
    cJSON_Delete(doc);
}

/* A schema-4 file (no prices table) with a user's accelerator: the upgrade adds the table and
 * keeps the user's row. */
Test(compare, version_4_databases_gain_the_prices_table)
{
    const char *path = t.kb.path;
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(h,
                              "DROP TABLE prices; INSERT INTO accelerators (id, name, vendor, memory_gb, bandwidth_gbs,"
                              " fp32_tflops, bf16_tflops, fp16_tflops, match, source, as_of, origin) VALUES ('my-gpu', 'My GPU',"
                              " 'nvidia', 16, 500, 10, 40, 40, 'my gpu', 'hw-nvidia-a100', '2026-12-01', 'user');"
                              " PRAGMA user_version = 4;",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(h));
    sqlite3_close(h);
    kb *k;
    cr_assert_eq(kb_open(path, 0, &k, err, sizeof err), KB_OK, "%s", err);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(k),
                                    "SELECT (SELECT count(*) FROM pragma_table_info('prices')), (SELECT count(*) FROM "
                                    "accelerators WHERE id = 'my-gpu' AND origin = 'user'), (SELECT user_version FROM "
                                    "pragma_user_version)",
                                    -1, &st, NULL),
                 SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_eq(sqlite3_column_int(st, 0), 8, "the prices table's eight columns");
    cr_expect_eq(sqlite3_column_int(st, 1), 1, "the user's accelerator kept");
    cr_expect_eq(sqlite3_column_int(st, 2), KB_SCHEMA_VERSION, "upgraded through every version since");
    sqlite3_finalize(st);
    kb_close(k);
}

/* kb import and export carry the prices table: a user's row in, its columns out, a price of an
 * accelerator the catalog lacks refused. */
Test(compare, kb_import_and_export_carry_prices)
{
    const char *doc = "{\"schema\": \"fwadvisor.kb/1\", \"prices\": [{\"accelerator\": \"mi300x\", \"provider\": \"acme\","
                      " \"usd_per_device_hour\": 3.25, \"region\": \"us-east-1\", \"instance\": \"acme.8x\","
                      " \"source\": \"hw-amd-mi300x\", \"as_of\": \"2026-12-02\"}]}";
    struct kb_import_stats stats;
    cr_assert_eq(kb_import(t.kb.kb, doc, strlen(doc), "p.json", &stats, err, sizeof err), KB_OK, "%s", err);
    cr_expect_eq(stats.added, 1);
    cr_assert_eq(compare_prices_from_kb(t.kb.kb, &prices, err, sizeof err), KB_OK, "%s", err);
    cr_assert_eq(prices.count, 1);
    cr_expect_str_eq(prices.rows[0].accelerator, "mi300x");
    cr_expect_float_eq(prices.rows[0].usd, 3.25, 1e-12);
    cJSON *out;
    cr_assert_eq(kb_export(t.kb.kb, 1, &out, err, sizeof err), KB_OK, "%s", err);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(out, "prices"), 0);
    cr_assert_not_null(row);
    cr_expect_str_eq(cJSON_GetObjectItem(row, "provider")->valuestring, "acme");
    cr_expect_float_eq(cJSON_GetObjectItem(row, "usd_per_device_hour")->valuedouble, 3.25, 1e-12);
    cJSON_Delete(out);
    const char *bad = "{\"schema\": \"fwadvisor.kb/1\", \"prices\": [{\"accelerator\": \"nope\", \"provider\": \"acme\","
                      " \"usd_per_device_hour\": 2, \"region\": \"x\", \"instance\": \"y\", \"source\": \"hw-amd-mi300x\","
                      " \"as_of\": \"2026-12-02\"}]}";
    cr_expect_eq(kb_import(t.kb.kb, bad, strlen(bad), "bad.json", &stats, err, sizeof err), KB_ERR_INPUT);
    cr_expect(strstr(err, "prices[0].accelerator: unknown id 'nope'"), "%s", err);
}
