/* file: whole-file input and output for every part of the program, in one place.
 *
 * Reading: a whole file (or standard input) into memory up to a limit, or a read-only mapping so
 * that a reader can check a header against the file's size before touching gigabytes of data.
 *
 * Writing: readers of a regular file see the old content or the new, never half: a temporary
 * file in the same directory, fsync, rename. SIGINT, SIGTERM and SIGHUP are held back while a
 * temporary file exists, so none is left behind by them; one left by SIGKILL or a crash is
 * recognised by its name (".NAME.PID.fwtmp-XXXXXX") and removed by the next write of NAME once
 * its process is gone. A target that exists and is not a regular file is never replaced: a FIFO
 * or a character device (/dev/stdout, a terminal) is written in place, a directory or a block
 * device is refused. A symbolic link to a regular file stays a link: its target is replaced.
 *
 * Every function returns 0, or a negative status with one line in err. */
#ifndef FWADVISOR_ENGINE_FILE_H
#define FWADVISOR_ENGINE_FILE_H

#include <stddef.h>

enum eng_file_status {
    ENG_FILE_OK = 0,
    ENG_FILE_ERR = -1,     /* I/O failure, missing file, out of memory */
    ENG_FILE_REFUSED = -2, /* write: the target is a directory or a block device (a usage error);
                            * the _regular forms: not a regular file */
    ENG_FILE_TOO_BIG = -3, /* read: larger than the limit, or not a regular file to map */
    ENG_FILE_MISSING = -4, /* read: no such file, no permission, a directory */
};

/* Reads path ("-": standard input) whole, at most max_bytes, NUL-terminated (the NUL not counted
 * in *len). Caller frees *data. */
int eng_file_read(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err, size_t errsz);
/* The same for a reader that must never wait (the interface): a regular file only. A FIFO, a
 * device or a socket is refused at once, without waiting for a writer; "-" is a file's name. */
int eng_file_read_regular(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err,
                          size_t errsz);

/* A regular file mapped read-only (or read into memory where mapping is not possible). */
struct eng_mapped {
    const unsigned char *data;
    size_t len;
    void *base;   /* what to unmap or free */
    int is_mapped;
};
int eng_file_map(const char *path, size_t max_bytes, struct eng_mapped *out, char *err, size_t errsz);
void eng_file_unmap(struct eng_mapped *m);

/* One piece of the content; a write takes the pieces in order. */
struct eng_chunk {
    const void *data;
    size_t len;
};
int eng_file_write(const char *path, const struct eng_chunk *chunks, int nchunks, char *err, size_t errsz);
/* The same for a writer that must never wait (the interface): a FIFO or a character device is
 * refused instead of written in place. */
int eng_file_write_regular(const char *path, const struct eng_chunk *chunks, int nchunks, char *err, size_t errsz);
/* Whether eng_file_write could write path now, checked before minutes of work are spent on what
 * goes into it: ENG_FILE_REFUSED for a directory, a block device, a socket or a link to
 * nothing; ENG_FILE_ERR when the directory is missing or cannot be written. Nothing is created. */
int eng_file_check_write(const char *path, char *err, size_t errsz);

#endif
