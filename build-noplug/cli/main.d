build-noplug/cli/main.o: cli/main.c cli/cli.h tui/text.h knowledge/kb.h \
 tui/tui.h
cli/cli.h:
tui/text.h:
knowledge/kb.h:
tui/tui.h:
