build-noplug/tests/test_tui.o: tests/test_tui.c tests/support.h \
 tui/layout.h
tests/support.h:
tui/layout.h:
