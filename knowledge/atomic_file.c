#include "knowledge/atomic_file.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_write_file(const char *path, const char *data, size_t len, char *err, size_t errsz)
{
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp) {
        snprintf(err, errsz, "output path is too long");
        return -1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errsz, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            goto fail;
        }
        done += (size_t)n;
    }
    mode_t mask = umask(022); /* read the umask: the file gets the mode a plain create would */
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || fsync(fd) != 0) goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) != 0) goto fail;
    return 0;
fail:
    snprintf(err, errsz, "cannot write '%s': %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    unlink(tmp);
    return -1;
}
