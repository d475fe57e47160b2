build-noplug/tests/test_kb_create.o: tests/test_kb_create.c \
 knowledge/kb.h tests/support.h
knowledge/kb.h:
tests/support.h:
