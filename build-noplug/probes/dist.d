build-noplug/probes/dist.o: probes/dist.c probes/dist.h \
 probes/mpi/plugin.h probes/probe.h engine/cuda/plugin.h engine/backend.h \
 engine/engine.h
probes/dist.h:
probes/mpi/plugin.h:
probes/probe.h:
engine/cuda/plugin.h:
engine/backend.h:
engine/engine.h:
