build-noplug/tests/test_mpi.o: tests/test_mpi.c engine/cuda/plugin.h \
 engine/backend.h probes/dist.h probes/mpi/plugin.h probes/probe.h \
 tests/support.h
engine/cuda/plugin.h:
engine/backend.h:
probes/dist.h:
probes/mpi/plugin.h:
probes/probe.h:
tests/support.h:
