/* The accelerator catalog's 2026 rows: the key figures of the HGX B300 row pinned, its node size,
 * and the catalog's dense-FP8 check shown to catch a sparse figure as well as to pass the rows. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "knowledge/kb.h"
#include "tests/support.h"

static struct ts_kb fx;
static char err[1024];

static void setup(void) { cr_assert_eq(ts_kb_open(&fx, err, sizeof err), 0, "%s", err); }
static void teardown(void) { ts_kb_close(&fx); }

TestSuite(kb_catalog2026, .init = setup, .fini = teardown);

/* The first column of the first row of sql, ?1 bound to arg when given; -1 when there is no row. */
static double value_of(const char *sql, const char *arg)
{
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(kb_db(fx.kb), sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(kb_db(fx.kb)));
    if (arg) sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    double v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_double(st, 0) : -1;
    sqlite3_finalize(st);
    return v;
}

static double b300(const char *column)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT %s FROM accelerators WHERE id = 'b300'", column);
    return value_of(sql, NULL);
}

/* HGX B300 per GPU: 288 GB HBM3e at 8 TB/s, dense BF16 2.25 PF and FP8 4.5 PF (36 and 72 PF with
 * sparsity per 8 GPUs, halved and divided by eight), 800 Gb/s ConnectX-8 = 100 GB/s a GPU. */
Test(kb_catalog2026, b300_key_figures)
{
    cr_expect_eq(b300("memory_gb"), 288);
    cr_expect_eq(b300("bandwidth_gbs"), 8000);
    cr_expect_eq(b300("bf16_tflops"), 2250);
    cr_expect_eq(b300("fp8_tflops"), 4500);
    cr_expect_eq(b300("fp8_tflops * 8 * 2"), 72000, "72 PF FP8 with sparsity per HGX B300");
    cr_expect_eq(b300("link_gbs"), 900, "NVLink 5, 1.8 TB/s both directions");
    cr_expect_eq(b300("network_gbs"), 100, "800 Gb/s per GPU");
    cr_expect_eq(b300("planner_default"), 0);
}

/* An HGX B300 node holds eight GPUs: the devices_per_node rule lists the b300 row. */
Test(kb_catalog2026, b300_node_of_eight)
{
    cr_expect_eq(value_of("SELECT json_extract(effect, '$.facts.devices_per_node') FROM rules "
                          "WHERE id = 'node-nvidia-hgx' AND EXISTS (SELECT 1 FROM json_each(condition, '$.accelerator') "
                          "WHERE value = ?1)", "b300"), 8);
}

/* The dense-FP8 check (FP8 at most about twice BF16, never a sparse figure) passes the catalog and
 * catches a row whose FP8 is the sparse four-times figure. */
Test(kb_catalog2026, dense_fp8_check_both_ways)
{
    static const char check[] = "SELECT count(*) FROM accelerators WHERE bf16_tflops > 0 AND fp8_tflops > 2.1 * bf16_tflops";
    cr_expect_eq(value_of(check, NULL), 0);
    char *msg = NULL;
    int rc = sqlite3_exec(kb_db(fx.kb),
                          "INSERT INTO accelerators (id, name, vendor, memory_gb, bandwidth_gbs, fp32_tflops, tf32_tflops, "
                          "bf16_tflops, fp16_tflops, fp8_tflops, link_gbs, network_gbs, interconnect, compute_capability, "
                          "match, planner_default, source, as_of) SELECT 'b300-sparse', name, vendor, memory_gb, "
                          "bandwidth_gbs, fp32_tflops, tf32_tflops, bf16_tflops, fp16_tflops, 2 * fp8_tflops, link_gbs, "
                          "network_gbs, interconnect, compute_capability, 'b300-sparse', 0, source, as_of "
                          "FROM accelerators WHERE id = 'b300'",
                          NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s", msg ? msg : "");
    cr_expect_eq(value_of(check, NULL), 1, "the sparse FP8 figure is caught");
}

/* Every accelerator row names a source that exists and gives an address. */
Test(kb_catalog2026, every_row_has_a_sourced_address)
{
    cr_expect_eq(value_of("SELECT count(*) FROM accelerators a LEFT JOIN sources s ON s.id = a.source "
                          "WHERE s.id IS NULL OR s.url IS NULL OR s.url = ''", NULL), 0);
    cr_expect_gt(value_of("SELECT count(*) FROM accelerators", NULL), 30);
}
