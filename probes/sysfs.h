/* sysfs: the probes' own file reads, all under $FWADVISOR_SYSROOT when it is set, so tests feed
 * recorded /dev, /proc and /sys trees. */
#ifndef FWADVISOR_PROBES_SYSFS_H
#define FWADVISOR_PROBES_SYSFS_H

#include <stddef.h>

/* path under the root prefix */
void sysfs_path(const char *path, char *out, size_t n);
int sysfs_exists(const char *path);
/* Entries of dir named prefix + digit (digit_next) or prefix + anything; the first such name in
 * `first` (may be NULL). */
int sysfs_count(const char *dir, const char *prefix, int digit_next, char *first, size_t firstsz);
/* The value after "key" and a ':' on the first line that has it, trimmed; 1 when found. */
int sysfs_field(const char *file, const char *key, char *out, size_t n);
/* The first line of a file, trimmed; 1 when read. */
int sysfs_line(const char *file, char *out, size_t n);
/* The number after "key " in a "key value" file (kfd properties); 1 when found. */
int sysfs_keyval(const char *file, const char *key, long long *out);

#endif
