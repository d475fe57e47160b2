/* advisor_hw: the hardware facts the advisor is handed, as the command line and the interface
 * both build them: from a stored probe run (the latest, or a given id), else from a quick look
 * at the device nodes. */
#ifndef FWADVISOR_PROBES_ADVISOR_HW_H
#define FWADVISOR_PROBES_ADVISOR_HW_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "knowledge/advisor.h"

/* probe: a run id, "latest" (falls back to detection when none is stored) or "none" (detection
 * only). cpu_model: let detection name the CPU (a few milliseconds of hwloc). An unknown id is
 * KB_ERR_INPUT. */
int probe_advisor_hardware(kb *k, const char *probe, int cpu_model, struct adv_hw *hw, char *err, size_t errsz);

/* The facts of one stored run document: its first accelerator, else the CPU with the measured
 * sgemm peak. */
void probe_hw_from_run(const cJSON *doc, struct adv_hw *hw);

#endif
