build-noplug/tui/layout.o: tui/layout.c tui/layout.h
tui/layout.h:
