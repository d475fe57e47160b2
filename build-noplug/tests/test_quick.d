build-noplug/tests/test_quick.o: tests/test_quick.c probes/quick.h
probes/quick.h:
