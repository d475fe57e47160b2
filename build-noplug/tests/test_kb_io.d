build-noplug/tests/test_kb_io.o: tests/test_kb_io.c knowledge/kb.h \
 tests/support.h
knowledge/kb.h:
tests/support.h:
