/* run_table: how a probe run reads, the same on the command line and in the interface: a few
 * summary lines (the run, the CPU, the accelerators, the ranks) and one table of results with
 * sizes, median, range, noise, fraction of peak, and the change against a baseline run marked
 * better or WORSE when it is beyond the noise. Cells are text from the stored document (outside
 * text: shown through the output filter). */
#ifndef FWADVISOR_PROBES_RUN_TABLE_H
#define FWADVISOR_PROBES_RUN_TABLE_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "probes/probe.h"

enum probe_col { PT_WORKLOAD, PT_METRIC, PT_PARAMS, PT_MEDIAN, PT_RANGE, PT_CV, PT_PEAK, PT_BASE, PT_CHANGE, PT_NCOLS };
extern const char *const probe_table_headers[PT_NCOLS];
/* The columns shown, in order (PT_NCOLS ends the list): without and with a baseline. */
extern const enum probe_col probe_table_plain[], probe_table_compared[];

enum probe_verdict { PV_NONE, PV_SAME, PV_BETTER, PV_WORSE, PV_NEW };

struct probe_table_row {
    char cell[PT_NCOLS][48];
    int skipped;           /* the reason says why; no figures */
    char reason[256];
    int noisy;             /* coefficient of variation above 5% */
    enum probe_verdict verdict;
    double peak_fraction;  /* < 0 when there is no peak */
    double change;         /* against the baseline, percent (PV_SAME, PV_BETTER, PV_WORSE only) */
    int frameworks;        /* a row of the frameworks workload: the command line and the interface
                            * show it in the frameworks table below instead (rows stay one per result) */
};

struct probe_table {
    int nrows, compared, any_noisy;
    struct probe_table_row rows[PROBE_MAX_RESULTS];
    /* the planned GPT step against the measured one (train-gpt step_ms): the first such row's */
    double planned_ms, measured_ms, plan_ratio; /* NaN when the run has none */
    char plan_note[400];
    char plan_shown[800]; /* plan_note in the chosen language (common/i18n.h) */
};

/* The table of a run read once (knowledge/measured.h), each finished result beside the
 * baseline's of the same workload, device, metric and parameters (what it was measured at, not
 * what it measured); base may be NULL. */
void probe_table_from(const struct measured_run *run, const struct measured_run *base, struct probe_table *t);
/* The same from the documents, each read once; base may be NULL. */
void probe_table_build(const cJSON *doc, const cJSON *base, struct probe_table *t);
/* What the verdicts mean and what the marks are, as one line each ("" when not needed), in
 * English: the command line and the interface show them through _() (common/i18n.h). */
const char *probe_table_noise_note(const struct probe_table *t);
const char *probe_table_compare_note(const struct probe_table *t);
/* The planned GPT step beside the measured one, its two parts and the figures they came from, and
 * planned/measured ("" when the run has no train-gpt step). */
const char *probe_table_plan_note(const struct probe_table *t);
/* The same in the chosen language (the command line and the interface; the page stays English). */
const char *probe_table_plan_note_shown(const struct probe_table *t);

/* A run's planned and measured GPT step, a point of the chart across stored runs. */
struct probe_plan_point {
    char id[80], started_at[32], device[16];
    double planned_ms, measured_ms;
};
/* How many stored runs the page's chart of planned against measured shows (the newest). */
#define PROBE_PLAN_HISTORY 12
/* The run's first train-gpt step_ms result with a plan: 1 and *pt filled, else 0. */
int probe_plan_point_from(const struct measured_run *m, struct probe_plan_point *pt);

/* The summary lines of a run read once (at most max, each up to 512 bytes); returns how many. */
int probe_summary_from(const struct measured_run *m, char (*lines)[512], int max);
/* The same in the chosen language (the command line and the interface; the page stays English). */
int probe_summary_shown_from(const struct measured_run *m, char (*lines)[512], int max);
/* The same from the document. */
int probe_summary_lines(const cJSON *doc, char (*lines)[512], int max);

/* --- the frameworks table (fw_table.c) -----------------------------------------------------
 * The rows of workload "frameworks" (marked `frameworks` in the table above) as one table per model:
 * framework, mode, device, median step time and its CV, samples or tokens per second, speed
 * relative to the engine on the same device and to the fastest there (1.35x: that much faster).
 * Timed rows come by model, then device, fastest first; then each row that did not run, with
 * why. Beneath: what each interpreter has. */
enum probe_fw_col { FC_FRAMEWORK, FC_MODE, FC_DEVICE, FC_STEP, FC_CV, FC_RATE, FC_VS_ENGINE, FC_VS_BEST, FC_NCOLS };
/* Headers (the rate's names the model's unit) and the interface's column widths. */
const char *probe_fw_header(enum probe_fw_col col, int model);
extern const int probe_fw_widths[FC_NCOLS];

struct probe_fw_row {
    char cell[FC_NCOLS][24];
    int model;             /* 0 the MLP, 1 the GPT, -1 none (the framework did not get that far) */
    int skipped;           /* the reason says why; no figures */
    char reason[288];      /* "PyTorch compile GPT cpu: why" */
    int noisy, engine, fastest;
};

struct probe_fw_table {
    int nrows, ntimed;     /* rows, and those with figures */
    struct probe_fw_row rows[PROBE_MAX_RESULTS];
    char title[2][192];    /* each model in words */
    int nfound;
    char found[PROBE_FW_MAX_PYTHONS][400]; /* per interpreter: its path, Python version, frameworks */
};

/* Builds the table from a run document (read with measured_read); 0 rows when the run has no
 * frameworks results. */
void probe_fw_table_build(const cJSON *doc, struct probe_fw_table *t);
/* The same from a run already read. */
void probe_fw_table_from(const struct measured_run *m, struct probe_fw_table *t);
/* What the ratios mean, one line. */
const char *probe_fw_table_note(void);

/* The finished results of a run's table aligned in columns at the table width (common/text.h):
 * how `fwadvisor probe` prints them and how the probe screen shows them. Returns the rows printed
 * (the header not counted). */
int probe_table_print(FILE *f, const struct probe_table *t, int bold);
/* The same for the frameworks workload's table of one model (0: the MLP, 1: the GPT). */
int probe_fw_table_print(FILE *f, const struct probe_fw_table *t, int model);

#endif
