/* libpath: whether a shared object may be loaded from a path, for everything the program loads
 * with dlopen from a path it did not fix itself: the plug-ins (engine/plugin.h) and the libraries
 * the environment names (FWADVISOR_NVML_LIB and FWADVISOR_CUDA_LIB for the probes'
 * detection, FWADVISOR_NCCL_LIB for the CUDA plug-in, which links this file too).
 *
 * A shared object runs with the user's rights, so the file and every directory above it must
 * belong to root or the running user and be writable by no one else (a sticky directory owned
 * by root, like /tmp, is allowed: nobody else can replace what is in it). Plain C, callable from
 * the CUDA plug-in's C++. */
#ifndef FWADVISOR_ENGINE_LIBPATH_H
#define FWADVISOR_ENGINE_LIBPATH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0 when path (made absolute and free of links into `real`) and every directory above it are
 * owned by root or the running user and writable by no one else; else -1 with the reason. */
int eng_plugin_path_safe(const char *path, char *real, size_t realsz, char *why, size_t whysz);

/* The library to dlopen for env_var: unset or empty, `name` itself (the dynamic loader's own
 * search); set, the path it names once eng_plugin_path_safe passes it, free of links, into
 * `path`. 0, or -1 with one line in why: "not loading the library PATH (ENV_VAR): REASON". */
int eng_env_library(const char *env_var, const char *name, char *path, size_t pathsz, char *why, size_t whysz);

#ifdef __cplusplus
}
#endif

#endif
