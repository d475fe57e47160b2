/* file: whole-file input and output for every part of the program, in one place.
 *
 * Reading: a whole file (or standard input) into memory up to a limit, or a read-only mapping so
 * that a reader can check a header against the file's size before touching gigabytes of data.
 *
 * Writing: readers of a regular file see the old content or the new, never half: a temporary
 * file in the same directory (created with O_EXCL|O_NOFOLLOW), fsync, rename, all relative to
 * the directory opened once. SIGINT, SIGTERM and SIGHUP are held back while a temporary file
 * exists, so none is left behind by them; one left by SIGKILL or a crash is recognised by its
 * name (".NAME.PID.fwtmp-XXXXXXXX") and removed by the next write of NAME once its process is
 * gone. A target that exists and is not a regular file is never replaced: a FIFO, /dev/null or a
 * terminal is written in place, as is what a name for an open descriptor stands for
 * (/dev/stdout, /proc/self/fd/N); a directory, a block device, a socket or any other device is
 * refused. A symbolic link to a regular file stays a link: its target is replaced, but a link in
 * a sticky folder that anyone may write to (/tmp) is followed only when it belongs to the user,
 * the folder's owner or root, as the kernel's protected_symlinks rule has it. The files
 * file_protect names (the knowledge base in use and its -wal, -shm and -journal) are never
 * written, by name or through a link.
 *
 * Every function returns 0, or a negative status with one line in err. */
#ifndef FWADVISOR_COMMON_FILE_H
#define FWADVISOR_COMMON_FILE_H

#include <stddef.h>
#include <sys/types.h>

enum file_status {
    FILE_OK = 0,
    FILE_ERR = -1,     /* I/O failure, missing file, out of memory */
    FILE_REFUSED = -2, /* write: the target cannot be a file of ours: a directory, a device, the database (a usage
                        * error); the _regular forms: not a regular file */
    FILE_TOO_BIG = -3, /* read: larger than the limit, or not a regular file to map */
    FILE_MISSING = -4, /* read: no such file, no permission, a directory */
};

/* Reads path ("-": standard input) whole, at most max_bytes, NUL-terminated (the NUL not counted
 * in *len). Caller frees *data. */
int file_read(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err, size_t errsz);
/* The same for a reader that must never wait (the interface): a regular file only. A FIFO, a
 * device or a socket is refused at once, without waiting for a writer; "-" is a file's name. */
int file_read_regular(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err,
                      size_t errsz);

/* A regular file mapped read-only (or read into memory where mapping is not possible). */
struct file_mapped {
    const unsigned char *data;
    size_t len;
    void *base;   /* what to unmap or free */
    int is_mapped;
};
int file_map(const char *path, size_t max_bytes, struct file_mapped *out, char *err, size_t errsz);
void file_unmap(struct file_mapped *m);

/* One piece of the content; a write takes the pieces in order. */
struct file_chunk {
    const void *data;
    size_t len;
};
int file_write(const char *path, const struct file_chunk *chunks, int nchunks, char *err, size_t errsz);
/* The same for a writer that must never wait (the interface): a FIFO or a character device is
 * refused instead of written in place. */
int file_write_regular(const char *path, const struct file_chunk *chunks, int nchunks, char *err, size_t errsz);
/* Whether file_write could write path now, checked before minutes of work are spent on what
 * goes into it: FILE_REFUSED for a directory, a block device, a socket or a link to
 * nothing; FILE_ERR when the directory is missing or cannot be written. Nothing is created. */
int file_check_write(const char *path, char *err, size_t errsz);

/* Refuses every later write onto path, path-wal, path-shm and path-journal (the database in
 * use), by name and by inode. A handful of paths are kept; a path whose folder does not exist
 * yet is not kept (call again once it does). */
void file_protect(const char *path);
void file_unprotect_all(void);

/* A new file in dir named prefix + 8 random letters and digits + suffix, created with
 * O_EXCL|O_NOFOLLOW and mode 0600, so that nobody can guess the name or plant anything under it;
 * its path goes into path. */
int file_write_unique(const char *dir, const char *prefix, const char *suffix, const struct file_chunk *chunks,
                          int nchunks, char *path, size_t pathsz, char *err, size_t errsz);

/* Files written together into a folder of their own (recommend --emit DIR). */
struct file_named {
    const char *name; /* a plain file name */
    const void *data;
    size_t len;
    mode_t mode;      /* less the umask */
};
/* Whether file_dir_write_new could use path, checked before the work: FILE_REFUSED when it
 * exists and is not an empty directory of the user's that nobody else can write (or is a link
 * another user made in a sticky folder), or its parent is missing; FILE_ERR when the parent
 * cannot be written. */
int file_dir_check_new(const char *path, char *err, size_t errsz);
/* Creates path (mode 0755 less the umask) or takes an existing folder as file_dir_check_new
 * allows, then creates every file in it through the folder's descriptor with O_EXCL|O_NOFOLLOW,
 * in the order given: of two writers at once, one stops at the first file the other made. All or
 * nothing: on any failure the files made here (and the folder, when made here) are removed. */
int file_dir_write_new(const char *path, const struct file_named *files, int nfiles, char *err, size_t errsz);

#endif
