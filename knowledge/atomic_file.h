/* atomic_file: writing a whole file so readers see the old or the new content, never half: a
 * temporary file in the same directory, fsync, rename. */
#ifndef FWADVISOR_ATOMIC_FILE_H
#define FWADVISOR_ATOMIC_FILE_H

#include <stddef.h>

/* Returns 0, or -1 with one line in err; the temporary file never survives a failure. */
int atomic_write_file(const char *path, const char *data, size_t len, char *err, size_t errsz);

#endif
