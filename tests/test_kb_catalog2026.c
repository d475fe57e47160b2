/* The accelerator catalog's 2026 rows: the key figures of the HGX B300 and GB300 NVL72 rows pinned,
 * their node sizes, and the catalog's dense-FP8 check shown to catch a sparse figure as well as to
 * pass the rows. */
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

/* An expression of the columns of the catalog row id. */
static double row_of(const char *id, const char *column)
{
    char sql[192];
    snprintf(sql, sizeof sql, "SELECT %s FROM accelerators WHERE id = ?1", column);
    return value_of(sql, id);
}

static double b300(const char *column) { return row_of("b300", column); }
static double gb300(const char *column) { return row_of("gb300", column); }

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

/* GB300 NVL72 per GPU (NVIDIA's Blackwell Ultra blog): 288 GB HBM3E at 8 TB/s, NVLink 5 1.8 TB/s
 * both directions = 900 one way, one 800 Gb/s ConnectX-8 = 100 GB/s a GPU; the dense rates are the
 * HGX page's for the same GPU (BF16 2.25 PF, FP8 4.5 PF, TF32 1.1 PF, FP32 75 TF), a lower bound. */
Test(kb_catalog2026, gb300_key_figures)
{
    static const struct { const char *column; double want; } figures[] = {
        {"memory_gb", 288},   {"bandwidth_gbs", 8000}, {"bf16_tflops", 2250}, {"fp16_tflops", 2250},
        {"fp8_tflops", 4500}, {"tf32_tflops", 1100},   {"fp32_tflops", 75},
        {"link_gbs * 2", 1800},   /* NVLink 5, 1.8 TB/s both directions */
        {"network_gbs * 8", 800}, /* one 800 Gb/s ConnectX-8 a GPU */
        {"planner_default", 0},   /* the H100 stays NVIDIA's assumed device */
    };
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        cr_expect_eq(gb300(figures[i].column), figures[i].want, "gb300 %s", figures[i].column);
    cr_expect_eq(gb300("compute_capability = '10.3' AND match = 'gb300' AND vendor = 'nvidia'"), 1);
    cr_expect_eq(value_of("SELECT count(*) FROM accelerators g JOIN accelerators b ON b.id = 'b300' "
                          "WHERE g.id = 'gb300' AND g.bf16_tflops = b.bf16_tflops AND g.fp8_tflops = b.fp8_tflops "
                          "AND g.tf32_tflops = b.tf32_tflops AND g.fp32_tflops = b.fp32_tflops",
                          NULL),
                 1, "the HGX rates of the same Blackwell Ultra GPU");
}

/* The row's source is the vendor's page with the date read, and its note keeps what the columns
 * cannot: the dense NVFP4 rate (15 PF) and where the dense rates come from. */
Test(kb_catalog2026, gb300_source_is_the_vendor_page)
{
    cr_expect_eq(value_of("SELECT count(*) FROM accelerators a JOIN sources s ON s.id = a.source WHERE a.id = ?1 "
                          "AND s.url = 'https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era/' "
                          "AND s.published = '2025-08' AND a.as_of = '2026-12-02'",
                          "gb300"),
                 1);
    cr_expect_eq(value_of("SELECT instr(note, '15 PetaFLOPS dense NVFP4') > 0 AND instr(note, 'hw-nvidia-hgx-b200') > 0 "
                          "AND instr(note, 'Read 2026-12-02') > 0 FROM sources WHERE id = 'hw-nvidia-blackwell-ultra'",
                          NULL),
                 1);
}

/* Like GB200, a GB300 rack is one NVLink domain of 72 GPUs, not an HGX board of eight: the
 * devices_per_node rule lists b300 and not gb300, and the interconnect says 72. */
Test(kb_catalog2026, gb300_is_a_domain_of_72_not_a_node_of_eight)
{
    static const char in_hgx[] = "SELECT json_extract(effect, '$.facts.devices_per_node') FROM rules "
                                 "WHERE id = 'node-nvidia-hgx' AND EXISTS (SELECT 1 FROM json_each(condition, "
                                 "'$.accelerator') WHERE value = ?1)";
    cr_expect_eq(value_of(in_hgx, "gb300"), -1);
    cr_expect_eq(value_of(in_hgx, "b300"), 8);
    cr_expect_eq(gb300("instr(interconnect, 'the 72 GPUs of a rack') > 0"), 1);
    cr_expect_eq(value_of("SELECT count(*) FROM rules WHERE json_extract(effect, '$.facts.devices_per_node') IS NOT NULL "
                          "AND instr(condition, '\"gb300\"') > 0",
                          NULL),
                 0);
}

/* A driver's "NVIDIA GB300" is the gb300 row, not b300 ("nvidia b300" is no part of it) nor gb200;
 * the HGX board's "NVIDIA B300 SXM6 AC" stays b300. */
Test(kb_catalog2026, gb300_matches_its_driver_name)
{
    struct kb_accel_peaks p;
    cr_assert_eq(kb_accel_lookup(fx.kb, "NVIDIA GB300", "10.3", &p), 1);
    cr_expect_str_eq(p.id, "gb300");
    cr_expect_eq(p.bf16_tflops, 2250);
    cr_assert_eq(kb_accel_lookup(fx.kb, "NVIDIA B300 SXM6 AC", "10.3", &p), 1);
    cr_expect_str_eq(p.id, "b300");
    cr_assert_eq(kb_accel_lookup(fx.kb, "NVIDIA GB200", "10.0", &p), 1);
    cr_expect_str_eq(p.id, "gb200");
}

/* The FP8 training stacks and the planned compute efficiency of data-centre Blackwell reach GB300
 * (Transformer Engine lists compute capability 10.3), as they reach B300 and GB200. */
Test(kb_catalog2026, gb300_has_blackwell_stacks_and_efficiency)
{
    static const char listed[] = "SELECT count(*) FROM rules WHERE id IN ('fp8-stack-nvidia', 'plan-efficiency-hopper') "
                                 "AND EXISTS (SELECT 1 FROM json_each(condition, '$.accelerator') WHERE value = ?1)";
    cr_expect_eq(value_of(listed, "gb300"), 2);
    cr_expect_eq(value_of(listed, "b300"), 2);
    cr_expect_eq(value_of("SELECT json_extract(effect, '$.facts.compute_efficiency') FROM rules "
                          "WHERE id = 'plan-efficiency-hopper'",
                          NULL),
                 0.50);
}

/* The GB300 rack's FP8 figure is sparse: 720 PF per 72 GPUs is 10 PF a GPU, four times the dense
 * BF16 rate, which the dense-FP8 check refuses; the stored 4.5 PF passes it (at most 2.1 x 2250 =
 * 4725). */
Test(kb_catalog2026, gb300_sparse_fp8_would_trip_the_check)
{
    static const char check[] = "SELECT count(*) FROM accelerators WHERE bf16_tflops > 0 AND fp8_tflops > 2.1 * bf16_tflops";
    cr_expect_eq(value_of(check, NULL), 0);
    char *msg = NULL;
    int rc = sqlite3_exec(kb_db(fx.kb), "UPDATE accelerators SET fp8_tflops = 720000.0 / 72 WHERE id = 'gb300'", NULL, NULL,
                          &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s", msg ? msg : "");
    cr_expect_eq(value_of(check, NULL), 1, "the sparse 10 PF is caught");
    rc = sqlite3_exec(kb_db(fx.kb), "UPDATE accelerators SET fp8_tflops = 4725 WHERE id = 'gb300'", NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s", msg ? msg : "");
    cr_expect_eq(value_of(check, NULL), 0, "2.1 x BF16 is the boundary, and passes");
    rc = sqlite3_exec(kb_db(fx.kb), "UPDATE accelerators SET fp8_tflops = 4726 WHERE id = 'gb300'", NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s", msg ? msg : "");
    cr_expect_eq(value_of(check, NULL), 1, "just past the boundary is caught");
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

/* The devices of 2026 beyond NVIDIA's and AMD's flagships, their key figures pinned to the source
 * each row cites, and where the figures come from: AWS's own for Trainium3 (plain FP8 at the BF16
 * rate, the block-scaled MXFP8 2,517 only in the note), NVIDIA's tables with dense rates derived
 * for the RTX PRO 6000 and Jetson Thor, secondary for the 910C, 950PR, H20 and DGX Spark (NVIDIA's
 * one DGX Spark tensor figure is sparse FP4), Apple's memory with FP32 from third-party clocks. */
Test(kb_catalog2026, devices_of_2026_pinned_with_where_their_figures_come_from)
{
    static const struct {
        const char *id, *figures;
        double memory, bandwidth, fp32, bf16, fp8, link, network;
    } rows[] = {
        {"trainium3", "vendor", 144, 4900, 183, 671, 671, 1280, 25},
        {"ascend-910c", "secondary", 128, 3200, 376, 752, 0, 392, 50},
        {"ascend-950pr", "secondary", 128, 1600, 27, 432, 865, 1000, 0},
        {"apple-m5", "derived", 32, 153, 4.45, 4.45, 0, 0, 5},
        {"apple-m5-pro", "derived", 64, 307, 8.96, 8.96, 0, 0, 15},
        {"apple-m5-max", "derived", 128, 614, 17.9, 17.9, 0, 0, 15},
        {"rtx-pro-6000", "derived", 96, 1597, 120, 467.8, 935.6, 64, 25},
        {"rtx-pro-6000-ws", "derived", 96, 1792, 125, 503.8, 1007.6, 64, 0},
        {"dgx-spark", "secondary", 128, 273, 31, 125, 250, 0, 25},
        {"jetson-thor", "derived", 128, 273, 8, 258.5, 517, 0, 12.5},
        {"h20", "secondary", 96, 4000, 44, 148, 296, 450, 0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *id = rows[i].id;
        char sql[160];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM accelerators WHERE id = ?1 AND figures = '%s'", rows[i].figures);
        cr_expect_eq(value_of(sql, id), 1, "%s: figures %s", id, rows[i].figures);
        cr_expect_float_eq(row_of(id, "memory_gb"), rows[i].memory, 1e-9, "%s memory", id);
        cr_expect_float_eq(row_of(id, "bandwidth_gbs"), rows[i].bandwidth, 1e-9, "%s bandwidth", id);
        cr_expect_float_eq(row_of(id, "fp32_tflops"), rows[i].fp32, 1e-9, "%s fp32", id);
        cr_expect_float_eq(row_of(id, "bf16_tflops"), rows[i].bf16, 1e-9, "%s bf16", id);
        cr_expect_float_eq(row_of(id, "fp8_tflops"), rows[i].fp8, 1e-9, "%s fp8", id);
        cr_expect_float_eq(row_of(id, "link_gbs"), rows[i].link, 1e-9, "%s link", id);
        cr_expect_float_eq(row_of(id, "network_gbs"), rows[i].network, 1e-9, "%s network", id);
    }
    /* the MXFP8 rate is AWS's, in the note, not in the fp8 column */
    cr_expect_eq(value_of("SELECT count(*) FROM sources WHERE id = 'hw-aws-trainium3' AND note LIKE '%2,517 MXFP8%'", NULL), 1);
    /* Jetson Thor's dense FP8 is NVIDIA's "517 TFLOPs (Dense FP8 | Sparse FP16)": BF16 half of it */
    cr_expect_float_eq(row_of("jetson-thor", "fp8_tflops / bf16_tflops"), 2, 1e-9);
    /* "NVIDIA H20" must not be taken for the H200, nor "NVIDIA H200" for the H20 */
    cr_expect_eq(value_of("SELECT count(*) FROM accelerators WHERE id = 'h200-sxm' AND instr('nvidia h20', match) > 0", NULL), 0);
}

/* Every secondary row says so in its source's note, so that `kb show` shows why. */
Test(kb_catalog2026, secondary_rows_say_so_in_their_note)
{
    cr_expect_eq(value_of("SELECT count(*) FROM accelerators a JOIN sources s ON s.id = a.source WHERE a.figures = 'secondary' "
                          "AND s.note NOT LIKE '%econdary%' AND s.note NOT LIKE '%NVIDIA publishes no%'", NULL), 0);
    /* a10g, mi325x, mi350x, ascend-910b, h800-sxm, ascend-910c, ascend-950pr, dgx-spark, h20 */
    cr_expect_eq(value_of("SELECT count(*) FROM accelerators WHERE figures = 'secondary'", NULL), 9);
}
