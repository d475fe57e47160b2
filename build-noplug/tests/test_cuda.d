build-noplug/tests/test_cuda.o: tests/test_cuda.c engine/cuda/plugin.h \
 engine/backend.h engine/engine.h knowledge/kb.h probes/probe.h \
 tests/support.h
engine/cuda/plugin.h:
engine/backend.h:
engine/engine.h:
knowledge/kb.h:
probes/probe.h:
tests/support.h:
