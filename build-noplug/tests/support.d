build-noplug/tests/support.o: tests/support.c tests/support.h \
 knowledge/kb.h
tests/support.h:
knowledge/kb.h:
