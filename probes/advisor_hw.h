/* advisor_hw: the hardware facts the advisor is handed, as the command line and the interface
 * both build them: from a stored probe run (the latest, or a given id), else from a quick look
 * at the device nodes. */
#ifndef FWADVISOR_PROBES_ADVISOR_HW_H
#define FWADVISOR_PROBES_ADVISOR_HW_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "knowledge/advisor.h"

/* The hardware facts for the answers (NULL: none yet, as on the home screen). probe: a run id
 * (its figures, as asked), "none" (a quick look at the device nodes only) or "latest": the newest
 * complete stored run that matches the answers supplies the device figures (the same kind of
 * device, the same catalog id when `accelerator` is answered; a CPU run only for a plan of this
 * very machine), the newest matching run made under MPI the scaling figures; runs passed over
 * are listed with why (cancelled, nothing finished, another device). Without a match: the quick
 * look. cpu_model: let detection name the CPU (a few milliseconds of hwloc). An unknown id is
 * KB_ERR_INPUT. */
int probe_advisor_hardware(kb *k, const char *probe, const struct answers *answers, int cpu_model, struct adv_hw *hw,
                           char *err, size_t errsz);

#endif
