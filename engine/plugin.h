/* The program's plug-ins (the CUDA back-end, the MPI layer) are shared objects opened at run
 * time, so the binary itself never needs CUDA or MPI. This finds and opens one. */
#ifndef FWADVISOR_ENGINE_PLUGIN_H
#define FWADVISOR_ENGINE_PLUGIN_H

#include <stddef.h>

/* Checks what a plug-in's entry point returned (interface and program version); 0 when it will
 * do, else -1 with the reason in why. */
typedef int (*eng_plugin_check)(const void *api, const char *path, char *why, size_t whysz);

/* Opens $env_var when it is set, else `file` beside the program, in build/ below it, or in
 * ../lib/fwadvisor/ (an installed copy), taking the first that opens and passes `check`. Returns
 * what calling `symbol` (a function of no arguments returning a pointer) gave, the library then
 * staying open for the life of the process; or NULL with the reason in err. `global`: open with
 * RTLD_GLOBAL (MPI libraries load components that look for their symbols there). */
const void *eng_plugin_open(const char *env_var, const char *file, const char *symbol, int global,
                            eng_plugin_check check, char *err, size_t errsz);

#endif
