#include "engine/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* --- reading ------------------------------------------------------------------------------ */

static int open_failed(const char *path, char *err, size_t errsz)
{
    int e = errno;
    snprintf(err, errsz, "cannot read '%s': %s", path, strerror(e));
    return e == ENOENT || e == EACCES || e == EISDIR || e == ENOTDIR || e == ELOOP || e == ENAMETOOLONG ? ENG_FILE_MISSING
                                                                                                       : ENG_FILE_ERR;
}

/* Reads fd to its end into a growing buffer, at most max_bytes. */
static int read_stream(int fd, const char *name, size_t max_bytes, size_t hint, unsigned char **data, size_t *len,
                       char *err, size_t errsz)
{
    size_t cap = hint + 1 > 4096 ? hint + 1 : 4096, used = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            snprintf(err, errsz, "out of memory reading %s", name);
            return ENG_FILE_ERR;
        }
        if (used + 1 == cap) {
            if (cap - 1 > max_bytes) break;
            size_t grown_cap = cap * 2 > max_bytes + 2 ? max_bytes + 2 : cap * 2;
            unsigned char *grown = realloc(buf, grown_cap);
            if (!grown) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = grown;
            cap = grown_cap;
        }
        ssize_t n = read(fd, buf + used, cap - used - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            snprintf(err, errsz, "cannot read %s: %s", name, strerror(errno));
            free(buf);
            return ENG_FILE_ERR;
        }
        if (n == 0) break;
        used += (size_t)n;
    }
    if (used > max_bytes) {
        snprintf(err, errsz, "%s is larger than %zu MiB", name, max_bytes >> 20);
        free(buf);
        return ENG_FILE_TOO_BIG;
    }
    buf[used] = '\0';
    *data = buf;
    *len = used;
    return ENG_FILE_OK;
}

/* What a file that is not a regular one is, for a message. */
static const char *kind_name(mode_t mode)
{
    return S_ISDIR(mode) ? "directory" : S_ISBLK(mode) ? "block device" : S_ISSOCK(mode) ? "socket"
           : S_ISFIFO(mode) ? "FIFO" : S_ISCHR(mode) ? "character device" : "special file";
}

/* eng_file_read, or with regular_only what eng_file_read_regular reads. */
static int read_path(const char *path, int regular_only, size_t max_bytes, unsigned char **data, size_t *len, char *err,
                     size_t errsz)
{
    *data = NULL;
    *len = 0;
    if (!regular_only && strcmp(path, "-") == 0)
        return read_stream(STDIN_FILENO, "standard input", max_bytes, 0, data, len, err, errsz);
    /* O_NONBLOCK: a FIFO without a writer opens at once, to be refused below */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (regular_only ? O_NONBLOCK : 0));
    if (fd < 0) return open_failed(path, err, errsz);
    struct stat st;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) errno = EISDIR;
        int status = open_failed(path, err, errsz);
        close(fd);
        return status;
    }
    if (regular_only && !S_ISREG(st.st_mode)) {
        snprintf(err, errsz, "cannot read '%s': it is a %s, not a regular file", path, kind_name(st.st_mode));
        close(fd);
        return ENG_FILE_REFUSED;
    }
    char name[PATH_MAX + 2];
    snprintf(name, sizeof name, "'%s'", path);
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max_bytes) {
        snprintf(err, errsz, "'%s' is larger than %zu MiB", path, max_bytes >> 20);
        close(fd);
        return ENG_FILE_TOO_BIG;
    }
    /* Pipes and process substitutions are read as streams, under the same limit. */
    int status = read_stream(fd, name, max_bytes, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, data, len, err, errsz);
    close(fd);
    return status;
}

int eng_file_read(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err, size_t errsz)
{
    return read_path(path, 0, max_bytes, data, len, err, errsz);
}

int eng_file_read_regular(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err, size_t errsz)
{
    return read_path(path, 1, max_bytes, data, len, err, errsz);
}

int eng_file_map(const char *path, size_t max_bytes, struct eng_mapped *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return open_failed(path, err, errsz);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int status = open_failed(path, err, errsz);
        close(fd);
        return status;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errsz, "cannot read '%s': not a regular file", path);
        close(fd);
        return ENG_FILE_TOO_BIG;
    }
    if ((uint64_t)st.st_size > max_bytes) {
        snprintf(err, errsz, "'%s' is larger than %zu MiB", path, max_bytes >> 20);
        close(fd);
        return ENG_FILE_TOO_BIG;
    }
    size_t size = (size_t)st.st_size;
    if (size == 0) {
        close(fd);
        static const unsigned char empty[1];
        out->data = empty;
        return ENG_FILE_OK;
    }
    void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
        close(fd);
        out->data = p;
        out->len = size;
        out->base = p;
        out->is_mapped = 1;
        return ENG_FILE_OK;
    }
    /* A file system without mmap: read it. */
    unsigned char *buf;
    size_t len;
    char name[PATH_MAX + 2];
    snprintf(name, sizeof name, "'%s'", path);
    int status = read_stream(fd, name, max_bytes, size, &buf, &len, err, errsz);
    close(fd);
    if (status) return status;
    out->data = buf;
    out->len = len;
    out->base = buf;
    return ENG_FILE_OK;
}

void eng_file_unmap(struct eng_mapped *m)
{
    if (m->is_mapped) munmap(m->base, m->len);
    else free(m->base);
    memset(m, 0, sizeof *m);
}

/* --- writing ------------------------------------------------------------------------------ */

#define TMP_TAG ".fwtmp-"
#define TMP_BASE_MAX 200 /* of NAME in a temporary name, so the name stays under NAME_MAX */

static int write_all(int fd, const struct eng_chunk *chunks, int nchunks)
{
    for (int i = 0; i < nchunks; i++) {
        const char *p = chunks[i].data;
        size_t left = chunks[i].len;
        while (left > 0) {
            ssize_t n = write(fd, p, left);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) return -1;
            if (n == 0) {
                errno = EIO;
                return -1;
            }
            p += n;
            left -= (size_t)n;
        }
    }
    return 0;
}

/* A FIFO or character device: written where it is, as a shell redirection would. */
static int write_in_place(const char *path, const struct eng_chunk *chunks, int nchunks, char *err, size_t errsz)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 || write_all(fd, chunks, nchunks) != 0) {
        snprintf(err, errsz, "cannot write '%s': %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return ENG_FILE_ERR;
    }
    if (close(fd) != 0 && errno != EINTR) {
        snprintf(err, errsz, "cannot write '%s': %s", path, strerror(errno));
        return ENG_FILE_ERR;
    }
    return ENG_FILE_OK;
}

/* Removes ".BASE.PID.fwtmp-XXXXXX" files in dir whose process no longer exists. */
static void remove_stale(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char prefix[TMP_BASE_MAX + 3];
    int plen = snprintf(prefix, sizeof prefix, ".%.*s.", TMP_BASE_MAX, base);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, prefix, (size_t)plen) != 0) continue;
        char *end;
        long pid = strtol(e->d_name + plen, &end, 10);
        if (end == e->d_name + plen || pid <= 0 || strncmp(end, TMP_TAG, strlen(TMP_TAG)) != 0 ||
            strlen(end + strlen(TMP_TAG)) != 6)
            continue;
        if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

/* The directory a path names a file in ("." for a bare name); returns the file name part. */
static const char *split_dir(const char *target, char *dir, size_t dirsz)
{
    const char *slash = strrchr(target, '/');
    if (!slash) snprintf(dir, dirsz, ".");
    else if (slash == target) snprintf(dir, dirsz, "/");
    else snprintf(dir, dirsz, "%.*s", (int)(slash - target), target);
    return slash ? slash + 1 : target;
}

static int write_atomic(const char *target, const struct eng_chunk *chunks, int nchunks, int keep_mode,
                        mode_t mode, const char *shown, char *err, size_t errsz)
{
    char dir[PATH_MAX], tmp[PATH_MAX];
    const char *base = split_dir(target, dir, sizeof dir);
    if (!*base) {
        snprintf(err, errsz, "cannot write '%s': no file name", shown);
        return ENG_FILE_REFUSED;
    }
    remove_stale(dir, base);

    /* Hold back the signals that end the program until the temporary file is renamed or gone. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int fd = -1;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t seed = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 20 ^ (uint64_t)(uintptr_t)&ts;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
        char suffix[7];
        for (int i = 0; i < 6; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            suffix[i] = alphabet[(seed >> 33) % 36];
        }
        suffix[6] = '\0';
        if (snprintf(tmp, sizeof tmp, "%s/.%.*s.%ld" TMP_TAG "%s", dir, TMP_BASE_MAX, base, (long)getpid(), suffix) >=
            (int)sizeof tmp) {
            errno = ENAMETOOLONG;
            break;
        }
        /* 0666 less the umask, as a plain create would give */
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(errno));
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return ENG_FILE_ERR;
    }
    if (write_all(fd, chunks, nchunks) != 0 || (keep_mode && fchmod(fd, mode & 07777) != 0) || fsync(fd) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, target) != 0) goto fail;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* the rename itself, durable */
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ENG_FILE_OK;
fail:
    snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(errno));
    if (fd >= 0) close(fd);
    unlink(tmp);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ENG_FILE_ERR;
}

/* How path is written, decided once for the write and for the check before the work. */
enum how { HOW_NEW, HOW_REPLACE, HOW_IN_PLACE };

/* ENG_FILE_OK with *how (and, for a file replaced, its resolved path in real and its mode), or
 * ENG_FILE_REFUSED / ENG_FILE_ERR with one line in err. */
static int classify(const char *path, int regular_only, enum how *how, char *real, size_t realsz, mode_t *mode, char *err,
                    size_t errsz)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno != ENOENT) {
            snprintf(err, errsz, "cannot write '%s': %s", path, strerror(errno));
            return ENG_FILE_ERR;
        }
        if (lstat(path, &st) == 0) {
            snprintf(err, errsz, "cannot write '%s': a symbolic link to nothing", path);
            return ENG_FILE_REFUSED;
        }
        *how = HOW_NEW;
        return ENG_FILE_OK;
    }
    if (S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode)) {
        snprintf(err, errsz, "cannot write '%s': it is a %s, not a file", path, kind_name(st.st_mode));
        return ENG_FILE_REFUSED;
    }
    *how = HOW_IN_PLACE;
    if ((S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) && regular_only) {
        snprintf(err, errsz, "cannot write '%s': it is a %s, not a regular file", path, kind_name(st.st_mode));
        return ENG_FILE_REFUSED;
    }
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) return ENG_FILE_OK;
    /* A regular file: replace it, or the file a link points to (the link stays). What stands for
     * an open descriptor (/dev/stdout redirected to a file) is written through it. */
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) {
        snprintf(err, errsz, "cannot write '%s': %s", path, strerror(errno));
        return ENG_FILE_ERR;
    }
    if (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0 || strncmp(resolved, "/proc/", 6) == 0 ||
        strncmp(resolved, "/dev/", 5) == 0)
        return ENG_FILE_OK;
    snprintf(real, realsz, "%s", resolved);
    *mode = st.st_mode;
    *how = HOW_REPLACE;
    return ENG_FILE_OK;
}

static int write_path(const char *path, int regular_only, const struct eng_chunk *chunks, int nchunks, char *err,
                      size_t errsz)
{
    enum how how;
    char real[PATH_MAX];
    mode_t mode = 0;
    int status = classify(path, regular_only, &how, real, sizeof real, &mode, err, errsz);
    if (status != ENG_FILE_OK) return status;
    if (how == HOW_IN_PLACE) return write_in_place(path, chunks, nchunks, err, errsz);
    if (how == HOW_NEW) return write_atomic(path, chunks, nchunks, 0, 0, path, err, errsz);
    return write_atomic(real, chunks, nchunks, 1, mode, path, err, errsz);
}

int eng_file_write(const char *path, const struct eng_chunk *chunks, int nchunks, char *err, size_t errsz)
{
    return write_path(path, 0, chunks, nchunks, err, errsz);
}

int eng_file_write_regular(const char *path, const struct eng_chunk *chunks, int nchunks, char *err, size_t errsz)
{
    return write_path(path, 1, chunks, nchunks, err, errsz);
}

int eng_file_check_write(const char *path, char *err, size_t errsz)
{
    enum how how;
    char real[PATH_MAX], dir[PATH_MAX];
    mode_t mode = 0;
    int status = classify(path, 0, &how, real, sizeof real, &mode, err, errsz);
    if (status != ENG_FILE_OK || how == HOW_IN_PLACE) return status;
    const char *target = how == HOW_REPLACE ? real : path;
    const char *base = split_dir(target, dir, sizeof dir);
    if (!*base) {
        snprintf(err, errsz, "cannot write '%s': no file name", target);
        return ENG_FILE_REFUSED;
    }
    /* The temporary file and the rename need a directory that exists and can be written. */
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
        int e = stat(dir, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : EACCES;
        snprintf(err, errsz, "cannot write '%s': %s", target, strerror(e));
        return ENG_FILE_ERR;
    }
    return ENG_FILE_OK;
}
