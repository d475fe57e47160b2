/* advisor_fw: the frameworks' training speed measured by a probe run (the frameworks workload),
 * as the advisor is handed it (struct adv_fw_speeds in knowledge/advisor.h). */
#ifndef FWADVISOR_PROBES_ADVISOR_FW_H
#define FWADVISOR_PROBES_ADVISOR_FW_H

#include <cjson/cJSON.h>

#include "knowledge/advisor.h"

/* The timed frameworks rows of one run document (the engine's among them), with the run's id and
 * its models in words; count 0 when it has none. */
void probe_fw_speeds_from_run(const cJSON *doc, struct adv_fw_speeds *out);

/* For the run the advice uses: `probe` a run id (that run's), "latest" (the newest stored run that
 * has frameworks rows: a later run of other workloads does not hide them) or "none" (nothing).
 * Leaves out->count 0 when there is none or the store cannot be read. */
void probe_fw_speeds_find(kb *k, const char *probe, struct adv_fw_speeds *out);

#endif
