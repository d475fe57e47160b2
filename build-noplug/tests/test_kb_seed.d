build-noplug/tests/test_kb_seed.o: tests/test_kb_seed.c knowledge/kb.h \
 knowledge/kb_tables.h tests/support.h
knowledge/kb.h:
knowledge/kb_tables.h:
tests/support.h:
