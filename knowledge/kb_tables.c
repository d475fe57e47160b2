/* The fact tables of data/schema.sql, described for code that treats them alike. Keep in step
 * with the schema: tests/test_kb_seed.c checks every described column exists there. */
#include "knowledge/kb_tables.h"
#include "knowledge/answer_keys.h"
#include "knowledge/kb.h"

#include <ctype.h>
#include <string.h>

const char *const kb_support_levels[] = {"first-class", "supported", "experimental", "community", "none", NULL};
static const char *const strategy_status[] = {"current", "maintenance", "legacy", "deprecated", NULL};
static const char *const runtime_status[] = {"current", "maintenance", "deprecated", "archived", NULL};
static const char *const targets[] = {"server", "mobile", "edge", "browser", NULL};
static const char *const rule_kinds[] = {"decision", "qa", "weight", "score", "rule_of_thumb", "pitfall", NULL};
static const char *const export_paths[] = {"native", "converter", "indirect", NULL};
const char *const kb_figure_kinds[] = {"vendor", "derived", "secondary", NULL};

#define ID {"id", KB_TEXT, KB_PK | KB_IDENT, NULL, NULL, 0, 0, NULL}
#define TEXT(n) {n, KB_TEXT, KB_NONEMPTY, NULL, NULL, 0, 0, NULL}
#define TEXT_OPT(n) {n, KB_TEXT, KB_OPTIONAL, NULL, NULL, 0, 0, ""}
/* A prose column's Chinese text, right after the column: optional, "" when there is none. */
#define ZH(n) {n "_zh", KB_TEXT, KB_OPTIONAL | KB_ZH, NULL, NULL, 0, 0, ""}
#define ENUM(n, list) {n, KB_TEXT, KB_NONEMPTY, list, NULL, 0, 0, NULL}
#define REF(n, table) {n, KB_TEXT, KB_NONEMPTY | KB_IDENT, NULL, table, 0, 0, NULL}
#define KEYREF(n, table) {n, KB_TEXT, KB_PK | KB_NONEMPTY | KB_IDENT, NULL, table, 0, 0, NULL}
#define REAL_MIN(n, lo) {n, KB_REAL, KB_MIN, NULL, NULL, lo, 0, NULL}
#define REAL_POS(n) {n, KB_REAL, KB_MIN_EXCL, NULL, NULL, 0, 0, NULL}
#define REAL_OPT(n) {n, KB_REAL, KB_OPTIONAL | KB_MIN, NULL, NULL, 0, 0, NULL} /* >= 0, schema default 0 */
#define SOURCE REF("source", "sources")
#define AS_OF {"as_of", KB_TEXT, KB_DATE, NULL, NULL, 0, 0, NULL}
#define ALSO {"also", KB_SET, KB_OPTIONAL, NULL, "sources", 0, 0, ""}
/* Model kinds, serving hardware and the accelerators' vendors are the answer keys' values (the
 * serving hardware without auto, the vendors the hardware answer's accelerator platforms). */
#define KINDS {"kinds", KB_SET, KB_OPTIONAL, ans_model_kinds, NULL, 0, 0, ""}

static const struct kb_column sources_cols[] = {
    ID, TEXT("title"), TEXT("url"),
    {"published", KB_TEXT, KB_PUBDATE, NULL, NULL, 0, 0, NULL},
    TEXT_OPT("note"), ZH("note"),
};
static const struct kb_column frameworks_cols[] = {
    ID, TEXT("name"), TEXT("version"),
    {"released", KB_TEXT, KB_PUBDATE, NULL, NULL, 0, 0, NULL},
    TEXT("summary"), ZH("summary"), SOURCE, AS_OF,
};
static const struct kb_column criteria_cols[] = {
    ID, TEXT("name"), ZH("name"), TEXT("description"), ZH("description"), REAL_MIN("weight", 0), SOURCE, AS_OF,
};
static const struct kb_column scores_cols[] = {
    KEYREF("framework", "frameworks"), KEYREF("criterion", "criteria"),
    {"score", KB_INT, KB_MIN | KB_MAX, NULL, NULL, 0, 10, NULL},
    TEXT("note"), ZH("note"), SOURCE, ALSO, AS_OF,
};
static const struct kb_column hardware_cols[] = {
    ID, TEXT("name"), ZH("name"), TEXT("summary"), ZH("summary"), SOURCE, AS_OF,
};
static const struct kb_column hw_support_cols[] = {
    KEYREF("framework", "frameworks"), KEYREF("hardware", "hardware"), ENUM("level", kb_support_levels),
    TEXT_OPT("since"),
    {"fit", KB_INT, KB_ADDED | KB_MIN | KB_MAX, NULL, NULL, 0, 10, NULL},
    {"os_support", KB_JSON, KB_ADDED, NULL, NULL, 0, 0, NULL},
    TEXT("note"), ZH("note"), SOURCE, ALSO, AS_OF,
};
static const struct kb_column strategies_cols[] = {
    ID, TEXT("name"), ZH("name"), TEXT("shards"), ZH("shards"), TEXT("scale"), ZH("scale"),
    {"min_devices", KB_INT, KB_MIN, NULL, NULL, 1, 0, NULL},
    ENUM("status", strategy_status), TEXT("memory_formula"),
    REAL_MIN("replicated_bytes_per_param", 0), REAL_MIN("sharded_bytes_per_param", 0),
    REAL_MIN("cpu_bytes_per_param", 0),
    {"tensor_parallel", KB_INT, KB_OPTIONAL | KB_MIN | KB_MAX, NULL, NULL, 0, 1, NULL}, KINDS,
    TEXT("summary"), ZH("summary"), SOURCE, AS_OF,
};
static const struct kb_column strategy_frameworks_cols[] = {
    KEYREF("strategy", "strategies"), KEYREF("framework", "frameworks"),
    {"hardware", KB_SET, KB_ADDED | KB_NONEMPTY_SET, NULL, "hardware", 0, 0, NULL},
    TEXT("note"), ZH("note"), SOURCE, AS_OF,
};
static const struct kb_column runtimes_cols[] = {
    ID, TEXT("name"), {"targets", KB_SET, 0, targets, NULL, 0, 0, NULL},
    {"hardware", KB_SET, KB_ADDED, ans_deploy_hardware + 1, NULL, 0, 0, NULL}, KINDS,
    ENUM("status", runtime_status), TEXT("summary"), ZH("summary"), SOURCE, AS_OF,
};
static const struct kb_column runtime_frameworks_cols[] = {
    KEYREF("runtime", "runtimes"), KEYREF("framework", "frameworks"),
    {"path", KB_TEXT, KB_OPTIONAL, export_paths, NULL, 0, 0, "converter"},
    TEXT("note"), ZH("note"), SOURCE, AS_OF,
};
static const struct kb_column accelerators_cols[] = {
    ID, TEXT("name"), ENUM("vendor", ans_accelerator_vendors), REAL_POS("memory_gb"), REAL_POS("bandwidth_gbs"),
    REAL_POS("fp32_tflops"), REAL_MIN("bf16_tflops", 0), REAL_MIN("fp16_tflops", 0),
    REAL_OPT("tf32_tflops"), REAL_OPT("fp8_tflops"), REAL_OPT("link_gbs"), REAL_OPT("network_gbs"),
    TEXT_OPT("interconnect"), TEXT_OPT("compute_capability"), TEXT("match"),
    {"planner_default", KB_INT, KB_OPTIONAL | KB_MIN | KB_MAX, NULL, NULL, 0, 1, NULL},
    {"figures", KB_TEXT, KB_OPTIONAL, kb_figure_kinds, NULL, 0, 0, "vendor"}, SOURCE, AS_OF,
};
static const struct kb_column prices_cols[] = {
    KEYREF("accelerator", "accelerators"), {"provider", KB_TEXT, KB_PK | KB_NONEMPTY | KB_IDENT, NULL, NULL, 0, 0, NULL},
    REAL_POS("usd_per_device_hour"), TEXT("region"), TEXT("instance"), SOURCE, AS_OF,
};
static const struct kb_column rules_cols[] = {
    ID, ENUM("kind", rule_kinds), {"title", KB_TEXT, 0, NULL, NULL, 0, 0, NULL}, ZH("title"), TEXT("text"), ZH("text"),
    {"condition", KB_JSON, 0, NULL, NULL, 0, 0, NULL},
    {"effect", KB_JSON, 0, NULL, NULL, 0, 0, NULL},
    {"priority", KB_INT, KB_OPTIONAL, NULL, NULL, 0, 0, NULL},
    SOURCE, ALSO, AS_OF,
};

#define TABLE(n, label, max_rows) {#n, n##_cols, (int)(sizeof n##_cols / sizeof n##_cols[0]), label, max_rows}

const struct kb_table kb_tables[] = {
    TABLE(sources, "source", 0),
    TABLE(frameworks, "framework", KB_MAX_FRAMEWORKS),
    TABLE(criteria, "criterion", 0),
    TABLE(scores, NULL, 0),
    TABLE(hardware, "hardware", KB_MAX_HARDWARE),
    TABLE(hw_support, NULL, 0),
    TABLE(strategies, "strategy", 0),
    TABLE(strategy_frameworks, NULL, 0),
    TABLE(runtimes, "runtime", 0),
    TABLE(runtime_frameworks, NULL, 0),
    TABLE(accelerators, "accelerator", 0),
    TABLE(prices, NULL, 0),
    TABLE(rules, "rule", 0),
};
const int kb_table_count = (int)(sizeof kb_tables / sizeof kb_tables[0]);
_Static_assert(sizeof kb_tables / sizeof kb_tables[0] <= KB_MAX_TABLES, "raise KB_MAX_TABLES");

const struct kb_table *kb_table_find(const char *name)
{
    for (int i = 0; i < kb_table_count; i++)
        if (strcmp(kb_tables[i].name, name) == 0) return &kb_tables[i];
    return NULL;
}

const struct kb_column *kb_column_find(const struct kb_table *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->cols[i].name, name) == 0) return &t->cols[i];
    return NULL;
}

const struct kb_column *kb_column_zh(const struct kb_table *t, const struct kb_column *col)
{
    const struct kb_column *next = col + 1;
    return next < t->cols + t->ncols && (next->flags & KB_ZH) ? next : NULL;
}

int kb_table_id_col(const struct kb_table *t)
{
    int found = -1;
    for (int i = 0; i < t->ncols; i++) {
        if (!(t->cols[i].flags & KB_PK)) continue;
        if (found >= 0) return -1;
        found = i;
    }
    return found;
}

static int digits(const char *s, int n)
{
    for (int i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i])) return 0;
    return 1;
}

int kb_valid_date(const char *s)
{
    if (strlen(s) != 10 || !digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) || s[7] != '-' ||
        !digits(s + 8, 2))
        return 0;
    int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    int month = (s[5] - '0') * 10 + (s[6] - '0');
    int day = (s[8] - '0') * 10 + (s[9] - '0');
    if (month < 1 || month > 12) return 0;
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; /* Gregorian */
    return day >= 1 && day <= days[month - 1] + (month == 2 && leap);
}

int kb_valid_pubdate(const char *s)
{
    size_t n = strlen(s);
    if (strcmp(s, "undated") == 0) return 1;
    if (n == 4) return digits(s, 4);
    if (n == 7) {
        if (!digits(s, 4) || s[4] != '-' || !digits(s + 5, 2)) return 0;
        int month = (s[5] - '0') * 10 + (s[6] - '0');
        return month >= 1 && month <= 12;
    }
    return kb_valid_date(s);
}

int kb_valid_ident(const char *s)
{
    if (!*s || strlen(s) > 64) return 0;
    if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s)) return 0;
    for (; *s; s++)
        if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-' && *s != '_' &&
            *s != '.')
            return 0;
    return 1;
}
