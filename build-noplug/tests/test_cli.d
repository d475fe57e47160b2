build-noplug/tests/test_cli.o: tests/test_cli.c knowledge/kb.h \
 tests/support.h
knowledge/kb.h:
tests/support.h:
