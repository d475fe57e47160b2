/* run_html: a probe run as one self-contained HTML page (docs/probe.md, "The HTML report"), drawn
 * from its fwadvisor.probe/1 document alone, read once into struct measured_run
 * (knowledge/measured.h): the machine, each result's median and spread against the measured and
 * the catalog's peaks, a roofline of the training workloads, all-reduce bus bandwidth by message
 * size, data-parallel efficiency by rank count, frameworks side by side, and the change against a
 * baseline run as run_table.h judges it. */
#ifndef FWADVISOR_PROBES_RUN_HTML_H
#define FWADVISOR_PROBES_RUN_HTML_H

#include <cjson/cJSON.h>

#include "common/html.h"
#include "knowledge/measured.h"

/* Appends the page for run `doc` to h (a zeroed html), compared with `base` when not NULL; each is
 * read once with measured_read. history (n points, oldest first; probes/session.h
 * probe_session_plan_history) charts the planned GPT step against the measured one run by run.
 * Returns 0, or -1 when out of memory; the caller frees h either way. */
struct probe_plan_point;
int probe_run_html(const cJSON *doc, const cJSON *base, const struct probe_plan_point *history, int n,
                   struct html *h);

/* The arithmetic intensity (FLOP per byte of memory traffic) of a gemm, train-mlp or train-gpt
 * result (as measured_result_read reads it) from its params, NAN for other workloads. Traffic counts the operands of every matrix
 * product read once and its result written once, in the precision of the run, plus the
 * optimizer's 28 bytes per parameter (Adam, FP32 states); activations kept for the backward pass,
 * elementwise work and caches are left out, so it is an upper bound of the intensity. */
double probe_intensity(const struct measured_result *result);

#endif
