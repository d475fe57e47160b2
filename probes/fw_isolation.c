/* The frameworks workload's children kept apart from the caller (fw_internal.h): the private
 * folder they run in and read from, and the environment they get.
 *
 * The folder: $TMPDIR/fwadvisor-frameworks-PID-XXXXXX (else /tmp), mode 0700, locked (flock)
 * while the run lasts, the scripts written into it; it is every child's working directory and,
 * as the scripts' own folder, the one entry Python puts on sys.path by itself. It is removed at
 * the end without following a link. A run killed before its end (SIGKILL) leaves its folder:
 * the next run removes the folders of this user whose process is gone (and that no run holds
 * locked, as one in another PID namespace sharing the folder would), never another user's,
 * never by way of a link.
 *
 * The environment: the caller's, less what would let a file the caller did not name for this
 * run take part: no user site-packages (PYTHONNOUSERSITE, and -s on the command line); of
 * PYTHONPATH and PYTHONHOME only absolute entries (an empty or relative one means the current
 * folder, wherever the caller happened to be); no PYTHONSTARTUP, PYTHONINSPECT (interactive
 * only), PYTHONUSERBASE, PYTHONBREAKPOINT, PYTHONPYCACHEPREFIX, PYTHONEXECUTABLE, nor
 * PYTHONSAFEPATH (what it leaves out is the private folder the scripts import from). */
#include "probes/fw_internal.h"
#include "common/file.h"
#include "common/i18n.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The framework scripts, built into the binary from probes/frameworks/ (scripts/embed.c). */
extern const char *const fw_scripts_names[];
extern const char *const fw_scripts_texts[];
extern const size_t fw_scripts_count;
extern char **environ;

#define FOLDER_PREFIX "fwadvisor-frameworks-"
#define TREE_DEPTH_MAX 16 /* the folder is flat; anything deeper is left */

/* --- removing a folder ------------------------------------------------------------------------ */

/* Removes `name` in directory `at`: a directory with all it holds (to TREE_DEPTH_MAX levels),
 * anything else, a link included, as a name. Nothing is reached through a link: each level is
 * opened relative to the one above with O_NOFOLLOW. */
static void remove_tree_at(int at, const char *name, int depth)
{
    struct stat st;
    if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        unlinkat(at, name, 0);
        return;
    }
    if (depth >= TREE_DEPTH_MAX) return;
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) remove_tree_at(dirfd(d), e->d_name, depth + 1);
    closedir(d);
    unlinkat(at, name, AT_REMOVEDIR);
}

/* The pid in "fwadvisor-frameworks-PID-XXXXXX", or -1 when name is not such a folder's. */
static long folder_pid(const char *name)
{
    size_t plen = strlen(FOLDER_PREFIX);
    if (strncmp(name, FOLDER_PREFIX, plen) != 0 || name[plen] < '1' || name[plen] > '9') return -1;
    char *end;
    long pid = strtol(name + plen, &end, 10);
    return pid > 0 && *end == '-' && strlen(end + 1) == 6 ? pid : -1;
}

/* As common/file.c's stale temporary files: gone when kill says there is no such process (a
 * process of another user's that exists answers EPERM). */
static int process_gone(long pid) { return pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH; }

void fw_remove_stale(const char *base)
{
    int at = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = at >= 0 ? fdopendir(at) : NULL;
    if (!d) {
        if (at >= 0) close(at);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        long pid = folder_pid(e->d_name);
        struct stat st;
        if (pid < 0 || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
            st.st_uid != geteuid() || !process_gone(pid))
            continue;
        int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) { /* a run still holds it */
            close(fd);
            continue;
        }
        remove_tree_at(dirfd(d), e->d_name, 0);
        close(fd);
    }
    closedir(d);
}

/* --- the private folder ----------------------------------------------------------------------- */

int fw_folder_make(struct fw_state *s, char *why, size_t whysz)
{
    const char *tmp = getenv("TMPDIR");
    const char *base = tmp && *tmp ? tmp : "/tmp";
    fw_remove_stale(base);
    char made[PATH_MAX];
    snprintf(made, sizeof made, "%s/" FOLDER_PREFIX "%ld-XXXXXX", base, (long)getpid());
    if (!mkdtemp(made)) {
        snprintf(why, whysz, "cannot make a temporary folder in %s: %s", base, strerror(errno));
        return -1;
    }
    /* Absolute and free of links: the children start in it and are given paths in it. */
    if (!realpath(made, s->dir)) {
        snprintf(why, whysz, "cannot use the temporary folder %s: %s", made, strerror(errno));
        rmdir(made);
        s->dir[0] = '\0';
        return -1;
    }
    s->dir_fd = open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (s->dir_fd >= 0) flock(s->dir_fd, LOCK_EX | LOCK_NB);
    for (size_t i = 0; i < fw_scripts_count; i++) {
        char path[PATH_MAX + 64], err[PATH_MAX + 128];
        snprintf(path, sizeof path, "%s/%s", s->dir, fw_scripts_names[i]);
        struct file_chunk chunk = {fw_scripts_texts[i], strlen(fw_scripts_texts[i])};
        if (file_write(path, &chunk, 1, err, sizeof err) != FILE_OK) {
            snprintf(why, whysz, "%.250s", err);
            return -1;
        }
    }
    return 0;
}

void fw_folder_remove(struct fw_state *s)
{
    if (s->dir[0]) remove_tree_at(AT_FDCWD, s->dir, 0);
    if (s->dir_fd >= 0) close(s->dir_fd);
    s->dir[0] = '\0';
    s->dir_fd = -1;
}

/* --- the environment -------------------------------------------------------------------------- */

/* Never passed on (see the top of this file). */
static const char *const dropped[] = {"PYTHONSTARTUP",       "PYTHONINSPECT",    "PYTHONUSERBASE", "PYTHONBREAKPOINT",
                                      "PYTHONPYCACHEPREFIX", "PYTHONEXECUTABLE", "PYTHONSAFEPATH"};
/* Lists of folders passed on with their absolute entries only. */
static const char *const path_lists[] = {"PYTHONPATH", "PYTHONHOME"};

/* 1 when entry ("KEY=VALUE") sets one of the n names. */
static int sets(const char *entry, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        if (strncmp(entry, names[i], len) == 0 && entry[len] == '=') return 1;
    }
    return 0;
}

/* "KEY=" and the absolute entries of the ':'-separated list after it; NULL when none is left
 * (the variable is then left out) or there is no memory (*failed set). */
static char *absolute_entries(const char *entry, int *failed)
{
    const char *value = strchr(entry, '=') + 1;
    char *out = malloc(strlen(entry) + 1);
    if (!out) {
        *failed = 1;
        return NULL;
    }
    size_t key = (size_t)(value - entry), used = key, kept = 0;
    memcpy(out, entry, key);
    for (const char *p = value; *p;) {
        size_t len = strcspn(p, ":");
        if (p[0] == '/') {
            if (kept++) out[used++] = ':';
            memcpy(out + used, p, len);
            used += len;
        }
        p += len;
        if (*p == ':') p++;
    }
    out[used] = '\0';
    if (kept) return out;
    free(out);
    return NULL;
}

int fw_env_make(struct fw_state *s)
{
    const char *ours[] = {"PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1", "PYTHONUNBUFFERED=1", "TF_CPP_MIN_LOG_LEVEL=2",
                          "XLA_PYTHON_CLIENT_PREALLOCATE=false", s->opt->cpu_only ? "CUDA_VISIBLE_DEVICES=" : NULL,
                          s->opt->cpu_only ? "JAX_PLATFORMS=cpu" : NULL};
    size_t n = 0, nours = sizeof ours / sizeof ours[0];
    while (environ[n]) n++;
    s->env = calloc(n + nours + 1, sizeof *s->env);
    if (!s->env) return -1;
    size_t k = 0;
    int failed = 0;
    /* LANGUAGE as the user set it, not the program's own for its Chinese catalog (common/i18n.h) */
    const char *language = NULL;
    int own_language = i18n_caller_language(&language);
    for (size_t i = 0; i < n && !failed; i++) {
        const char *e = environ[i];
        if (own_language && strncmp(e, "LANGUAGE=", 9) == 0) {
            if (language && (s->env[k] = malloc(strlen(language) + 10))) sprintf(s->env[k++], "LANGUAGE=%s", language);
            else if (language) failed = 1;
            continue;
        }
        int replaced = 0;
        for (size_t j = 0; j < nours && !replaced; j++)
            replaced = ours[j] && strncmp(e, ours[j], (size_t)(strchr(ours[j], '=') - ours[j]) + 1) == 0;
        if (replaced || sets(e, dropped, sizeof dropped / sizeof dropped[0])) continue;
        if (sets(e, path_lists, sizeof path_lists / sizeof path_lists[0])) {
            if ((s->env[k] = absolute_entries(e, &failed))) k++;
        } else if (!(s->env[k++] = strdup(e))) {
            failed = 1;
        }
    }
    for (size_t j = 0; j < nours && !failed; j++)
        if (ours[j] && !(s->env[k++] = strdup(ours[j]))) failed = 1;
    return failed ? -1 : 0;
}

void fw_env_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++) free(env[i]);
    free(env);
}
