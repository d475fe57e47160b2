build-noplug/tests/test_probe.o: tests/test_probe.c probes/probe.h \
 tests/support.h
probes/probe.h:
tests/support.h:
