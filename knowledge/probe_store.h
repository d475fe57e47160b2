/* probe_store: probe runs kept in the knowledge base, one row per run holding its whole
 * fwadvisor.probe/1 document. Saving and deleting are single transactions. */
#ifndef FWADVISOR_PROBE_STORE_H
#define FWADVISOR_PROBE_STORE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "knowledge/kb.h"

/* Stores a run document. Its "id" is the base of the stored id: the first free one of "base",
 * "base-2", "base-3", ..., chosen inside the write transaction so that probes saving at the same
 * moment never collide; doc's "id" is updated to what was stored. Waits for other writers up to
 * the busy timeout. */
int kb_probe_save(kb *k, cJSON *doc, char *err, size_t errsz);
/* [{id, started_at, duration_s, interrupted, summary}], newest first. Caller frees. */
int kb_probe_list(kb *k, cJSON **rows, char *err, size_t errsz);
/* The document of run `id`, or of the newest run for "latest". *doc stays NULL with KB_OK when
 * "latest" finds no run; an unknown id is KB_ERR_INPUT. Caller frees. */
int kb_probe_get(kb *k, const char *id, cJSON **doc, char *err, size_t errsz);
/* The ids of the runs holding at least one "ok" result of workload, newest first (as
 * kb_probe_list orders them), in a JSON array of strings: found inside the database, so no run
 * without one is read in full. */
int kb_probe_ids_with(kb *k, const char *workload, cJSON **ids, char *err, size_t errsz);
int kb_probe_delete(kb *k, const char *id, char *err, size_t errsz);

#endif
