/* The advisor's hardware facts: what the stored probe runs say (knowledge/measured_hw.c), else a
 * quick look at the device nodes. */
#include "probes/advisor_hw.h"
#include "probes/quick.h"

#include <stdio.h>
#include <string.h>

int probe_advisor_hardware(kb *k, const char *probe, const struct answers *answers, int cpu_model, struct adv_hw *hw,
                           char *err, size_t errsz)
{
    int matched = 0;
    int status = adv_hw_from_probe_runs(k, probe, answers, hw, &matched, err, errsz);
    if (status != KB_OK || matched) return status;
    /* No matching run: what a quick look at the device nodes finds, and the skipped runs said. */
    struct quick_hw q;
    quick_detect(&q, cpu_model);
    snprintf(hw->source, sizeof hw->source, "detected");
    snprintf(hw->kind, sizeof hw->kind, "%s", q.kind);
    snprintf(hw->name, sizeof hw->name, "%s", q.name);
    snprintf(hw->evidence, sizeof hw->evidence, "quick detection: %s", q.evidence);
    hw->count = q.count;
    hw->cpu_threads = q.cpu_threads;
    hw->host_memory_gb = q.host_memory_gb;
    return KB_OK;
}
