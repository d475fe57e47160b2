#include "common/file.h"

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
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* --- reading ------------------------------------------------------------------------------ */

static int open_failed(const char *path, char *err, size_t errsz)
{
    int e = errno;
    snprintf(err, errsz, "cannot read '%s': %s", path, strerror(e));
    return e == ENOENT || e == EACCES || e == EISDIR || e == ENOTDIR || e == ELOOP || e == ENAMETOOLONG ? FILE_MISSING
                                                                                                       : FILE_ERR;
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
            return FILE_ERR;
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
            return FILE_ERR;
        }
        if (n == 0) break;
        used += (size_t)n;
    }
    if (used > max_bytes) {
        snprintf(err, errsz, "%s is larger than %zu MiB", name, max_bytes >> 20);
        free(buf);
        return FILE_TOO_BIG;
    }
    buf[used] = '\0';
    *data = buf;
    *len = used;
    return FILE_OK;
}

/* What a file that is not a regular one is, for a message. */
static const char *kind_name(mode_t mode)
{
    return S_ISDIR(mode) ? "directory" : S_ISBLK(mode) ? "block device" : S_ISSOCK(mode) ? "socket"
           : S_ISFIFO(mode) ? "FIFO" : S_ISCHR(mode) ? "character device" : "special file";
}

/* file_read, or with regular_only what file_read_regular reads. */
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
        return FILE_REFUSED;
    }
    char name[PATH_MAX + 2];
    snprintf(name, sizeof name, "'%s'", path);
    if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max_bytes) {
        snprintf(err, errsz, "'%s' is larger than %zu MiB", path, max_bytes >> 20);
        close(fd);
        return FILE_TOO_BIG;
    }
    /* Pipes and process substitutions are read as streams, under the same limit. */
    int status = read_stream(fd, name, max_bytes, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, data, len, err, errsz);
    close(fd);
    return status;
}

int file_read(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err, size_t errsz)
{
    return read_path(path, 0, max_bytes, data, len, err, errsz);
}

int file_read_regular(const char *path, size_t max_bytes, unsigned char **data, size_t *len, char *err, size_t errsz)
{
    return read_path(path, 1, max_bytes, data, len, err, errsz);
}

int file_map(const char *path, size_t max_bytes, struct file_mapped *out, char *err, size_t errsz)
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
        return FILE_TOO_BIG;
    }
    if ((uint64_t)st.st_size > max_bytes) {
        snprintf(err, errsz, "'%s' is larger than %zu MiB", path, max_bytes >> 20);
        close(fd);
        return FILE_TOO_BIG;
    }
    size_t size = (size_t)st.st_size;
    if (size == 0) {
        close(fd);
        static const unsigned char empty[1];
        out->data = empty;
        return FILE_OK;
    }
    void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
        close(fd);
        out->data = p;
        out->len = size;
        out->base = p;
        out->is_mapped = 1;
        return FILE_OK;
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
    return FILE_OK;
}

void file_unmap(struct file_mapped *m)
{
    if (m->is_mapped) munmap(m->base, m->len);
    else free(m->base);
    memset(m, 0, sizeof *m);
}

/* --- writing ------------------------------------------------------------------------------ */

#define TMP_TAG ".fwtmp-"
#define TMP_BASE_MAX 200  /* of NAME in a temporary name, so the name stays under NAME_MAX */
#define MAX_LINK_HOPS 40  /* as the kernel's own limit */
#define RANDOM_CHARS 8

static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";

/* RANDOM_CHARS letters and digits nobody can guess, for names created with O_EXCL. */
static void random_name_part(char out[RANDOM_CHARS + 1])
{
    unsigned char bytes[RANDOM_CHARS];
    if (getrandom(bytes, sizeof bytes, GRND_NONBLOCK) != (ssize_t)sizeof bytes) {
        /* No entropy yet (early boot): the clock and the process, still unique with O_EXCL. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t seed = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 20 ^ (uint64_t)ts.tv_sec;
        for (int i = 0; i < RANDOM_CHARS; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            bytes[i] = (unsigned char)(seed >> 33);
        }
    }
    for (int i = 0; i < RANDOM_CHARS; i++) out[i] = alphabet[bytes[i] % 36];
    out[RANDOM_CHARS] = '\0';
}

/* Creates prefix + random part + suffix in dfd with O_EXCL|O_NOFOLLOW, trying other random parts
 * while the name is taken; the descriptor, or -1 with errno set (the name made in name). */
static int create_unique(int dfd, const char *prefix, const char *suffix, mode_t mode, char name[NAME_MAX + 1])
{
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        char part[RANDOM_CHARS + 1];
        random_name_part(part);
        if (snprintf(name, NAME_MAX + 1, "%s%s%s", prefix, part, suffix) > NAME_MAX) {
            errno = ENAMETOOLONG;
            return -1;
        }
        fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST) return -1;
    }
    return fd;
}

static int write_all(int fd, const struct file_chunk *chunks, int nchunks)
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

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT held back while a file of ours is half made. */
static void hold_signals(sigset_t *old)
{
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &block, old);
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

/* --- files no write may replace ------------------------------------------------------------ */

#define MAX_PROTECTED 8
static const char *const side_files[] = {"", "-wal", "-shm", "-journal"};
#define NSIDE (sizeof side_files / sizeof side_files[0])

static struct protected_file {
    dev_t dir_dev;
    ino_t dir_ino;
    char base[NAME_MAX + 1];
    char path[PATH_MAX];
} protected_files[MAX_PROTECTED];
static int nprotected;

void file_protect(const char *path)
{
    char dir[PATH_MAX];
    const char *base = split_dir(path, dir, sizeof dir);
    struct stat st;
    if (!*base || strlen(base) + 16 > NAME_MAX || strlen(path) + 16 >= PATH_MAX || stat(dir, &st) != 0) return;
    for (int i = 0; i < nprotected; i++)
        if (protected_files[i].dir_dev == st.st_dev && protected_files[i].dir_ino == st.st_ino &&
            strcmp(protected_files[i].base, base) == 0)
            return;
    if (nprotected == MAX_PROTECTED) return;
    struct protected_file *p = &protected_files[nprotected++];
    p->dir_dev = st.st_dev;
    p->dir_ino = st.st_ino;
    snprintf(p->base, sizeof p->base, "%s", base);
    snprintf(p->path, sizeof p->path, "%s", path);
}

void file_unprotect_all(void) { nprotected = 0; }

/* The protected file that name in directory dfd is, or would replace: by name for a file not
 * there yet, by inode for one that is (a hard or symbolic link to the database included). dfd
 * -1: by inode only. Returns 1 with its path in which. */
static int is_protected(int dfd, const char *name, const struct stat *st, char *which, size_t whichsz)
{
    struct stat dst;
    int by_name = dfd >= 0 && fstat(dfd, &dst) == 0;
    for (int i = 0; i < nprotected; i++) {
        const struct protected_file *p = &protected_files[i];
        for (size_t s = 0; s < NSIDE; s++) {
            char side[PATH_MAX + 16], side_base[NAME_MAX + 17];
            snprintf(side_base, sizeof side_base, "%s%s", p->base, side_files[s]);
            snprintf(side, sizeof side, "%s%s", p->path, side_files[s]);
            struct stat pst;
            int same_name = by_name && dst.st_dev == p->dir_dev && dst.st_ino == p->dir_ino && !strcmp(side_base, name);
            int same_file = st && stat(side, &pst) == 0 && pst.st_dev == st->st_dev && pst.st_ino == st->st_ino;
            if (same_name || same_file) {
                snprintf(which, whichsz, "%s", side);
                return 1;
            }
        }
    }
    return 0;
}

/* --- where a path leads ----------------------------------------------------------------- */

/* How a path is written, decided once for the write and for the check before the work. */
enum how { HOW_NEW, HOW_REPLACE, HOW_IN_PLACE };

struct target {
    enum how how;
    int dfd;                /* the directory that holds the file (-1 for a descriptor alias) */
    char base[NAME_MAX + 1];
    char alias[PATH_MAX];   /* HOW_IN_PLACE through /proc/self/fd/N, /dev/stdout and the like */
    mode_t mode;            /* HOW_REPLACE: the mode to keep, 0 for the default */
};

/* The kernel's protected_symlinks rule: in a sticky folder anyone may write to, a link is
 * followed only when its owner is the one who follows it, the folder's owner, or root. */
static int link_may_be_followed(const struct stat *dir, const struct stat *link)
{
    if (!(dir->st_mode & S_ISVTX) || !(dir->st_mode & S_IWOTH)) return 1;
    return link->st_uid == geteuid() || link->st_uid == dir->st_uid || link->st_uid == 0;
}

/* A name for one of this process's open descriptors (the standard streams, /dev/fd/N,
 * /proc/self/fd/N): what it stands for was opened by the caller, so it is written through. */
static int is_descriptor_alias(const char *p)
{
    return !strcmp(p, "/dev/stdout") || !strcmp(p, "/dev/stderr") || !strncmp(p, "/dev/fd/", 8) ||
           !strncmp(p, "/proc/self/fd/", 14) || !strncmp(p, "/proc/thread-self/fd/", 21);
}

/* A character device that takes output harmlessly: /dev/null or a terminal (/dev/tty, a
 * virtual console, a serial line, a pseudo-terminal). Others (/dev/mem, /dev/kmsg, a watchdog)
 * are never opened for writing. */
static int harmless_device(const struct stat *st)
{
    unsigned maj = major(st->st_rdev), min = minor(st->st_rdev);
    return (maj == 1 && min == 3) || maj == 4 || maj == 5 || (maj >= 136 && maj <= 143);
}

static int refuse_kind(const struct stat *st, const char *shown, char *err, size_t errsz)
{
    const char *kind = S_ISDIR(st->st_mode)   ? "a directory"
                       : S_ISBLK(st->st_mode) ? "a block device"
                       : S_ISSOCK(st->st_mode) ? "a socket"
                       : S_ISCHR(st->st_mode) ? "a device other than a terminal or /dev/null"
                                              : NULL;
    if (!kind) return 0;
    snprintf(err, errsz, "cannot write '%s': it is %s, not a file", shown, kind);
    return 1;
}

/* Whether folder dfd lies on the file system of /dev (devtmpfs), where no file of ours is ever
 * created or replaced: a name there that is not a device yet may become one. */
static int under_dev(int dfd)
{
    struct stat d, dev, root;
    if (fstat(dfd, &d) != 0 || stat("/dev", &dev) != 0) return 0;
    if (d.st_dev == dev.st_dev && d.st_ino == dev.st_ino) return 1;
    return d.st_dev == dev.st_dev && stat("/", &root) == 0 && root.st_dev != dev.st_dev;
}

static int refuse_protected(const char *shown, const char *which, char *err, size_t errsz)
{
    snprintf(err, errsz, "cannot write '%s': it would replace the knowledge base in use ('%s')", shown, which);
    return FILE_REFUSED;
}

static void close_target(struct target *t)
{
    if (t->dfd >= 0) close(t->dfd);
    t->dfd = -1;
}

static int target_alias(const char *cur, const char *shown, struct target *t, char *err, size_t errsz)
{
    struct stat st;
    char which[PATH_MAX + 16];
    if (stat(cur, &st) != 0) {
        snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(errno));
        return FILE_ERR;
    }
    if (S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode)) {
        refuse_kind(&st, shown, err, errsz);
        return FILE_REFUSED;
    }
    if (S_ISREG(st.st_mode) && is_protected(-1, "", &st, which, sizeof which))
        return refuse_protected(shown, which, err, errsz);
    t->how = HOW_IN_PLACE;
    snprintf(t->alias, sizeof t->alias, "%s", cur);
    return FILE_OK;
}

/* Follows path to what a write would touch, link by link, holding each folder open so that no
 * name is looked up twice: FILE_OK with t filled (t->dfd open, close_target frees it), or
 * FILE_REFUSED / FILE_ERR with one line in err that names shown. */
static int resolve(const char *path, const char *shown, int regular_only, struct target *t, char *err, size_t errsz)
{
    char cur[PATH_MAX], dir[PATH_MAX], which[PATH_MAX + 16];
    memset(t, 0, sizeof *t);
    t->dfd = -1;
    if (strlen(path) >= sizeof cur) {
        snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(ENAMETOOLONG));
        return FILE_ERR;
    }
    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0;; hop++) {
        if (hop > MAX_LINK_HOPS) {
            snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(ELOOP));
            return FILE_ERR;
        }
        if (is_descriptor_alias(cur)) {
            int status = target_alias(cur, shown, t, err, errsz);
            struct stat ast;
            if (status == FILE_OK && regular_only && stat(cur, &ast) == 0 && !S_ISREG(ast.st_mode)) {
                snprintf(err, errsz, "cannot write '%s': it is a %s, not a regular file", shown, kind_name(ast.st_mode));
                return FILE_REFUSED;
            }
            return status;
        }
        const char *base = split_dir(cur, dir, sizeof dir);
        if (!*base) {
            snprintf(err, errsz, "cannot write '%s': no file name", shown);
            return FILE_REFUSED;
        }
        if (strlen(base) > NAME_MAX) {
            snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(ENAMETOOLONG));
            return FILE_ERR;
        }
        snprintf(t->base, sizeof t->base, "%s", base);
        t->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (t->dfd < 0) {
            snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(errno));
            return FILE_ERR;
        }
        struct stat st, dst;
        if (fstatat(t->dfd, base, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            int e = errno;
            if (e == ENOENT && hop > 0) {
                snprintf(err, errsz, "cannot write '%s': a symbolic link to nothing", shown);
                close_target(t);
                return FILE_REFUSED;
            }
            if (e != ENOENT) {
                snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(e));
                close_target(t);
                return FILE_ERR;
            }
            if (is_protected(t->dfd, base, NULL, which, sizeof which)) {
                close_target(t);
                return refuse_protected(shown, which, err, errsz);
            }
            if (under_dev(t->dfd)) {
                snprintf(err, errsz, "cannot write '%s': no such device, and no file is made under /dev", shown);
                close_target(t);
                return FILE_REFUSED;
            }
            t->how = HOW_NEW;
            return FILE_OK;
        }
        if (S_ISLNK(st.st_mode)) {
            if (fstat(t->dfd, &dst) != 0 || !link_may_be_followed(&dst, &st)) {
                snprintf(err, errsz,
                         "cannot write '%s': a link another user made in a shared folder (sticky, writable by "
                         "all); not followed",
                         shown);
                close_target(t);
                return FILE_REFUSED;
            }
            char link[PATH_MAX];
            ssize_t n = readlinkat(t->dfd, base, link, sizeof link - 1);
            close_target(t);
            if (n < 0) {
                snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(errno));
                return FILE_ERR;
            }
            link[n] = '\0';
            char next[PATH_MAX * 2 + 2];
            if (link[0] == '/') snprintf(next, sizeof next, "%s", link);
            else snprintf(next, sizeof next, "%s/%s", dir, link);
            if (strlen(next) >= sizeof cur) {
                snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(ENAMETOOLONG));
                return FILE_ERR;
            }
            memcpy(cur, next, strlen(next) + 1);
            continue;
        }
        if ((S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) && regular_only) {
            snprintf(err, errsz, "cannot write '%s': it is a %s, not a regular file", shown, kind_name(st.st_mode));
            close_target(t);
            return FILE_REFUSED;
        }
        if (S_ISFIFO(st.st_mode) || (S_ISCHR(st.st_mode) && harmless_device(&st))) {
            t->how = HOW_IN_PLACE;
            return FILE_OK;
        }
        if (refuse_kind(&st, shown, err, errsz)) {
            close_target(t);
            return FILE_REFUSED;
        }
        if (is_protected(t->dfd, base, &st, which, sizeof which)) {
            close_target(t);
            return refuse_protected(shown, which, err, errsz);
        }
        if (under_dev(t->dfd)) {
            snprintf(err, errsz, "cannot write '%s': no file under /dev is replaced", shown);
            close_target(t);
            return FILE_REFUSED;
        }
        t->how = HOW_REPLACE;
        /* The old file's permissions are kept when it is ours; set-id bits never are. */
        t->mode = st.st_uid == geteuid() ? st.st_mode & 0777 : 0;
        return FILE_OK;
    }
}

/* --- the writes ---------------------------------------------------------------------------- */

/* A FIFO or character device: written where it is, as a shell redirection would. */
static int write_in_place(const struct target *t, const char *shown, const struct file_chunk *chunks, int nchunks,
                          char *err, size_t errsz)
{
    int fd = t->alias[0] ? open(t->alias, O_WRONLY | O_NOCTTY | O_CLOEXEC)
                         : openat(t->dfd, t->base, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0 && !t->alias[0]) {
        /* what was checked is what was opened: no file swapped in between */
        struct stat st;
        if (fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || (S_ISCHR(st.st_mode) && harmless_device(&st)))) {
            close(fd);
            snprintf(err, errsz, "cannot write '%s': it changed while being opened", shown);
            return FILE_ERR;
        }
    }
    if (fd < 0 || write_all(fd, chunks, nchunks) != 0) {
        snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(errno));
        if (fd >= 0) close(fd);
        return FILE_ERR;
    }
    if (close(fd) != 0 && errno != EINTR) {
        snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(errno));
        return FILE_ERR;
    }
    return FILE_OK;
}

/* Removes ".BASE.PID.fwtmp-XXXXXX" files in dfd whose process no longer exists. */
static void remove_stale(int dfd, const char *base)
{
    int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return;
    }
    char prefix[TMP_BASE_MAX + 3];
    int plen = snprintf(prefix, sizeof prefix, ".%.*s.", TMP_BASE_MAX, base);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, prefix, (size_t)plen) != 0) continue;
        char *end;
        long pid = strtol(e->d_name + plen, &end, 10);
        if (end == e->d_name + plen || pid <= 0 || strncmp(end, TMP_TAG, strlen(TMP_TAG)) != 0) continue;
        size_t tail = strlen(end + strlen(TMP_TAG)); /* 6 random characters before, RANDOM_CHARS now */
        if (tail != 6 && tail != RANDOM_CHARS) continue;
        if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        unlinkat(dfd, e->d_name, 0);
    }
    closedir(d);
}

/* A regular file, new or replaced: a temporary file in the same folder, fsync, rename. */
static int write_atomic(const struct target *t, const char *shown, const struct file_chunk *chunks, int nchunks,
                        char *err, size_t errsz)
{
    char tmp[NAME_MAX + 1], prefix[NAME_MAX + 1];
    remove_stale(t->dfd, t->base);
    snprintf(prefix, sizeof prefix, ".%.*s.%ld" TMP_TAG, TMP_BASE_MAX, t->base, (long)getpid());
    sigset_t old;
    hold_signals(&old);
    /* 0666 less the umask, as a plain create would give */
    int fd = create_unique(t->dfd, prefix, "", 0666, tmp);
    if (fd < 0) {
        snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(errno));
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return FILE_ERR;
    }
    if (write_all(fd, chunks, nchunks) != 0 || (t->mode && fchmod(fd, t->mode) != 0) || fsync(fd) != 0) goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (renameat(t->dfd, tmp, t->dfd, t->base) != 0) goto fail;
    fsync(t->dfd); /* the rename itself, durable */
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return FILE_OK;
fail:
    snprintf(err, errsz, "cannot write '%s': %s", shown, strerror(errno));
    if (fd >= 0) close(fd);
    unlinkat(t->dfd, tmp, 0);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return FILE_ERR;
}

static int write_path(const char *path, int regular_only, const struct file_chunk *chunks, int nchunks, char *err,
                      size_t errsz)
{
    struct target t;
    int status = resolve(path, path, regular_only, &t, err, errsz);
    if (status != FILE_OK) return status;
    status = t.how == HOW_IN_PLACE ? write_in_place(&t, path, chunks, nchunks, err, errsz)
                                   : write_atomic(&t, path, chunks, nchunks, err, errsz);
    close_target(&t);
    return status;
}

int file_write(const char *path, const struct file_chunk *chunks, int nchunks, char *err, size_t errsz)
{
    return write_path(path, 0, chunks, nchunks, err, errsz);
}

int file_write_regular(const char *path, const struct file_chunk *chunks, int nchunks, char *err, size_t errsz)
{
    return write_path(path, 1, chunks, nchunks, err, errsz);
}

int file_check_write(const char *path, char *err, size_t errsz)
{
    struct target t;
    int status = resolve(path, path, 0, &t, err, errsz);
    if (status != FILE_OK) return status;
    /* The temporary file and the rename need a folder that can be written. */
    if (t.how != HOW_IN_PLACE && faccessat(t.dfd, ".", W_OK | X_OK, 0) != 0) {
        snprintf(err, errsz, "cannot write '%s': %s", path, strerror(errno));
        status = FILE_ERR;
    }
    close_target(&t);
    return status;
}

int file_write_unique(const char *dir, const char *prefix, const char *suffix, const struct file_chunk *chunks,
                          int nchunks, char *path, size_t pathsz, char *err, size_t errsz)
{
    path[0] = '\0';
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        snprintf(err, errsz, "cannot write into '%s': %s", dir, strerror(errno));
        return FILE_ERR;
    }
    sigset_t old;
    hold_signals(&old);
    char name[NAME_MAX + 1];
    int fd = create_unique(dfd, prefix, suffix, 0600, name);
    int status = FILE_OK;
    if (fd < 0 || write_all(fd, chunks, nchunks) != 0 || fsync(fd) != 0) {
        snprintf(err, errsz, "cannot write into '%s': %s", dir, strerror(errno));
        if (fd >= 0) close(fd), unlinkat(dfd, name, 0);
        status = FILE_ERR;
    } else if (close(fd) != 0) {
        snprintf(err, errsz, "cannot write into '%s': %s", dir, strerror(errno));
        unlinkat(dfd, name, 0);
        status = FILE_ERR;
    } else {
        fsync(dfd);
        snprintf(path, pathsz, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(dfd);
    return status;
}

/* --- a folder of new files ------------------------------------------------------------------- */

/* Opens an existing folder for new files: a link followed only as resolve() would follow one,
 * the folder the user's own, writable by nobody else, and empty. */
static int open_private_dir(const char *path, int created, char *err, size_t errsz)
{
    char parent[PATH_MAX];
    const char *base = split_dir(path, parent, sizeof parent);
    struct stat lst, pst;
    int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
    if (*base && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        if (stat(parent, &pst) != 0 || !link_may_be_followed(&pst, &lst)) {
            snprintf(err, errsz, "'%s' is a link another user made in a shared folder; not followed", path);
            return FILE_REFUSED;
        }
    } else {
        flags |= O_NOFOLLOW;
    }
    int dfd = open(path, flags);
    if (dfd < 0) {
        int e = errno;
        snprintf(err, errsz, "'%s': %s", path, e == ENOTDIR || e == ELOOP ? "exists and is not an empty directory" : strerror(e));
        return e == ENOTDIR || e == ELOOP ? FILE_REFUSED : FILE_ERR;
    }
    struct stat st;
    if (fstat(dfd, &st) != 0) {
        snprintf(err, errsz, "'%s': %s", path, strerror(errno));
        close(dfd);
        return FILE_ERR;
    }
    const char *why = st.st_uid != geteuid()            ? "belongs to another user"
                      : !created && (st.st_mode & 022)   ? "can be written by others"
                                                         : NULL;
    int empty = 1;
    if (!why) {
        int fd = dup(dfd);
        DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
        if (!d && fd >= 0) close(fd);
        for (struct dirent *e; d && empty && (e = readdir(d));)
            empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
        if (d) closedir(d);
        else empty = 0;
        if (!empty) why = "exists and is not an empty directory";
    }
    if (why) {
        snprintf(err, errsz, "'%s' %s; nothing written", path, why);
        close(dfd);
        return FILE_REFUSED;
    }
    return dfd;
}

int file_dir_check_new(const char *path, char *err, size_t errsz)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT) {
            snprintf(err, errsz, "'%s': %s", path, strerror(errno));
            return FILE_ERR;
        }
        char parent[PATH_MAX];
        split_dir(path, parent, sizeof parent);
        if (access(parent, W_OK | X_OK) != 0) {
            int e = errno;
            snprintf(err, errsz, "'%s': %s", path, strerror(e));
            return e == ENOENT || e == ENOTDIR ? FILE_REFUSED : FILE_ERR;
        }
        return FILE_OK;
    }
    int dfd = open_private_dir(path, 0, err, errsz);
    if (dfd < 0) return dfd;
    close(dfd);
    return FILE_OK;
}

int file_dir_write_new(const char *path, const struct file_named *files, int nfiles, char *err, size_t errsz)
{
    int created = mkdir(path, 0755) == 0;
    if (!created && errno != EEXIST) {
        int e = errno;
        snprintf(err, errsz, "'%s': %s", path, strerror(e));
        return e == ENOENT || e == ENOTDIR ? FILE_REFUSED : FILE_ERR;
    }
    int dfd = open_private_dir(path, created, err, errsz);
    if (dfd < 0) {
        if (created) rmdir(path);
        return dfd;
    }
    sigset_t old;
    hold_signals(&old);
    int made = 0, status = FILE_OK;
    for (; made < nfiles && status == FILE_OK; made++) {
        const struct file_named *f = &files[made];
        /* O_EXCL in the same order for every writer: of two writing into one folder at once,
         * the second finds the first's first file and stops with nothing of its own written. */
        int fd = openat(dfd, f->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, f->mode);
        if (fd < 0) {
            if (errno == EEXIST)
                snprintf(err, errsz, "'%s/%s' appeared while the files were written (another process writes "
                         "there); nothing written", path, f->name);
            else
                snprintf(err, errsz, "cannot write '%s/%s': %s", path, f->name, strerror(errno));
            status = FILE_ERR;
            break;
        }
        struct file_chunk chunk = {f->data, f->len};
        if (write_all(fd, &chunk, 1) != 0 || fsync(fd) != 0 || close(fd) != 0) {
            snprintf(err, errsz, "cannot write '%s/%s': %s", path, f->name, strerror(errno));
            status = FILE_ERR;
        }
    }
    if (status != FILE_OK) { /* all or nothing: what this call made goes */
        for (int i = 0; i < made; i++) unlinkat(dfd, files[i].name, 0);
        if (created) rmdir(path);
    } else {
        fsync(dfd);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(dfd);
    return status;
}
