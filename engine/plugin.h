/* The program's plug-ins (the CUDA back-end, the MPI layer) are shared objects opened at run
 * time, so the binary itself never needs CUDA or MPI. This finds and opens one.
 *
 * A plug-in runs with the user's rights, so it is taken only from where the build put it: the
 * plug-in directory fixed at build time (FWADVISOR_PLUGIN_DIR, $(LIBDIR)/fwadvisor), or the build
 * tree when the running binary is the uninstalled one of that build (both paths compiled in), or
 * an explicit path in the plug-in's environment variable. Never from a folder found relative to
 * wherever the binary was copied. The file and every directory above it must pass
 * eng_plugin_path_safe (engine/libpath.h). */
#ifndef FWADVISOR_ENGINE_PLUGIN_H
#define FWADVISOR_ENGINE_PLUGIN_H

#include <stddef.h>

#include "engine/libpath.h" /* eng_plugin_path_safe: the check of the file and the folders above it */

/* Checks what a plug-in's entry point returned (interface and program version); 0 when it will
 * do, else -1 with the reason in why. */
typedef int (*eng_plugin_check)(const void *api, const char *path, char *why, size_t whysz);

enum eng_plugin_status {
    ENG_PLUGIN_OK = 0,
    ENG_PLUGIN_ABSENT,  /* this build has none where plug-ins are taken from */
    ENG_PLUGIN_REFUSED, /* a file is there but unsafe to load, or from another build */
    ENG_PLUGIN_FAILED,  /* it would not open (missing libraries, no entry point) */
};

/* Opens the plug-in `file` ($env_var when set). On success *api is what calling `symbol` (a
 * function of no arguments returning a pointer) gave, the library staying open for the life of
 * the process. Otherwise *api is NULL and err holds one line naming the path and the reason.
 * `global`: open with RTLD_GLOBAL (MPI libraries load components that look for their symbols
 * there). */
enum eng_plugin_status eng_plugin_open(const char *env_var, const char *file, const char *symbol, int global,
                                       eng_plugin_check check, const void **api, char *err, size_t errsz);

#endif
