/* compare: the same job planned on other hardware, counts and answers. One variant is one run of
 * adv_recommend on answers changed by a few assignments; the hardware comparison (every catalog
 * accelerator at the fewest devices that fit and a few more) and the what-if sweep (one or two
 * keys over their values) are lists of such runs, so each row's figures are the plan's own. The
 * price of a device-hour comes from the answers (price_per_device_hour), a price file the user
 * passes, the config file's [prices] (knowledge/config_file.h) or the knowledge base's prices
 * table, in that order; without one no cost is planned. */
#ifndef FWADVISOR_COMPARE_H
#define FWADVISOR_COMPARE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "knowledge/advisor.h"

#define COMPARE_MAX_PRICES 256
#define COMPARE_MAX_ROWS 160
#define COMPARE_MAX_VALUES 24
/* The counts tried above the fewest that fit: x2 and x4. */
#define COMPARE_SCALES 3
/* The most devices the search for the fewest that fit tries. */
#define COMPARE_MAX_DEVICES 65536

/* Where a price comes from, in the order price_for tries them after the answer. */
enum compare_price_from { PRICE_NONE, PRICE_ANSWER, PRICE_FILE, PRICE_CONFIG, PRICE_KB };

struct compare_price {
    char accelerator[32], provider[32], region[32], instance[48], source[64], as_of[16];
    double usd;                     /* per device-hour */
    enum compare_price_from from;
};

struct compare_prices {
    int count;
    struct compare_price rows[COMPARE_MAX_PRICES];
};

/* The knowledge base's prices table into out (appended). KB_OK, or the error's status with one
 * line in err. */
int compare_prices_from_kb(kb *k, struct compare_prices *out, char *err, size_t errsz);
/* A price file: CSV lines "accelerator,provider,price" (a header line naming accelerator may
 * lead; # starts a comment) or JSON [{"accelerator", "provider", "price"}]; appended to out with
 * from PRICE_FILE. The accelerators must be catalog ids. 0, or -1 with one line in err naming
 * the file and the line or item. */
int compare_prices_parse(const struct adv_kb *akb, const char *text, size_t len, const char *name,
                         struct compare_prices *out, char *err, size_t errsz);
/* One price appended to out with its origin: acc a catalog id, price the text of a number above 0
 * and at most 1e6, provider a word of at most 31 characters (required from a file, optional from
 * the config). 0, or -1 with one line in err led by `where` ("FILE: line 3"). */
int compare_price_add(const struct adv_kb *akb, const char *acc, const char *provider, const char *price,
                      enum compare_price_from from, const char *where, struct compare_prices *out, char *err,
                      size_t errsz);

/* Why a variant cannot run the job, as data. */
enum compare_refusal {
    COMPARE_RUNS,          /* it runs */
    COMPARE_REFUSED,       /* the advisor refused the answers (FP8 absent, precision, OS ...) */
    COMPARE_NO_FRAMEWORK,  /* none of the team's frameworks runs there */
    COMPARE_NO_FIT,        /* the model does not fit at any count tried */
};

/* One variant's headline figures (NaN where the plan has none). */
struct compare_row {
    char accelerator[32], vendor[16], name[96];
    char label[200];                /* a sweep's values ("devices=64"), "" in a comparison */
    int devices, nodes;
    struct adv_layout layout;
    int serve;                      /* the job serves: the figures below are the inference plan's */
    int tp, pp;                     /* serving: the fewest devices that hold the model */
    int fits;
    double memory_gb, usable_gb;    /* per device */
    double hours, device_hours, cost, mfu;
    double tokens_per_s;            /* serving: decode tokens per second over the batch */
    double cost_per_hour;           /* serving: price x devices */
    const char *framework, *strategy, *precision;
    struct compare_price price;     /* from PRICE_NONE: no price */
    enum compare_refusal refusal;
    char why[1024];                 /* the refusal in one line */
    char why_local[1024];           /* the same in the reader's language ("" in English, or for an
                                     * error line of the answers', which is English: why) */
};

enum compare_sort { COMPARE_BY_TIME, COMPARE_BY_COST };

struct compare_table {
    int count;
    enum compare_sort sort;
    int serve;
    int truncated;                  /* more rows than COMPARE_MAX_ROWS */
    char keys[72];                  /* a sweep's keys in capitals, "DEVICES PRECISION" */
    struct compare_row rows[COMPARE_MAX_ROWS];
};

/* One variant: answers with assignments applied ("devices=16"), run by adv_recommend with the
 * price the row's accelerator has, into row (r is working space). 0, or -1 with one line in err
 * when an assignment is refused by the answers' own checks (the key's values, combinations). */
int compare_variant(const struct adv_kb *akb, const struct answers *answers, const struct adv_hw *hw,
                    const struct compare_prices *prices, const char *const *assign, int nassign,
                    struct adv_result *r, struct compare_row *row, char *err, size_t errsz);

/* Every catalog accelerator for the answered job: the fewest devices that fit (one, else the
 * advisor's fit_devices), then x2 and x4; rows that cannot run it once, with why; sorted by the
 * answers' priority (cost: cheapest first, rows without a cost after; else fastest first),
 * refused rows last. KB_OK, or KB_ERR_RUNTIME when out of memory. */
int compare_hardware(const struct adv_kb *akb, const struct answers *answers, const struct compare_prices *prices,
                     struct compare_table *out, char *err, size_t errsz);

/* A sweep's parsed keys: "KEY=v1,v2,...", one or two. */
struct compare_sweep {
    int nkeys;
    char keys[2][32];
    int nvalues[2];
    char values[2][COMPARE_MAX_VALUES][48];
};
/* Keys that cannot vary (unknown keys, lists) give 2 with the line naming them; values the
 * key refuses give 3 (the answers' own message); 0 when every value is taken. */
int compare_sweep_parse(const char *const *specs, int nspecs, const struct answers *answers, struct compare_sweep *out,
                        char *err, size_t errsz);
/* The sweep's rows in the values' order (the first key's outer). KB_OK, KB_ERR_INPUT when a
 * combination of values is refused (err names it), KB_ERR_RUNTIME when out of memory. */
int compare_sweep_run(const struct adv_kb *akb, const struct answers *answers, const struct adv_hw *hw,
                      const struct compare_prices *prices, const struct compare_sweep *sweep, struct compare_table *out,
                      char *err, size_t errsz);

/* The table as JSON (docs/compare.schema.json): kind "compare" or "sweep". Caller frees. */
cJSON *compare_json(const struct compare_table *t, const char *kind, const char *generated_at);
/* The same with each refusal in the reader's language, for the page made from it (the JSON output
 * is compare_json's, English in every language). */
cJSON *compare_json_local(const struct compare_table *t, const char *kind, const char *generated_at);

/* The price's origin in words: "your price_per_device_hour", "aws us-east-1 p5.48xlarge, read
 * 2026-12-02", ... */
void compare_price_text(const struct compare_price *p, char *out, size_t n);

#endif
