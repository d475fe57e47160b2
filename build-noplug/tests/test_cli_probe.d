build-noplug/tests/test_cli_probe.o: tests/test_cli_probe.c \
 knowledge/kb.h knowledge/probe_store.h tests/support.h
knowledge/kb.h:
knowledge/probe_store.h:
tests/support.h:
