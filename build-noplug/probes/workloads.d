build-noplug/probes/workloads.o: probes/workloads.c engine/cuda/plugin.h \
 engine/backend.h engine/engine.h probes/probe.h
engine/cuda/plugin.h:
engine/backend.h:
engine/engine.h:
probes/probe.h:
