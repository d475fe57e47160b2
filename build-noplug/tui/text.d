build-noplug/tui/text.o: tui/text.c tui/text.h
tui/text.h:
