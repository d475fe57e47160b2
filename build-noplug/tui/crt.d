build-noplug/tui/crt.o: tui/crt.c tui/crt.h
tui/crt.h:
