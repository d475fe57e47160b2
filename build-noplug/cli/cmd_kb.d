build-noplug/cli/cmd_kb.o: cli/cmd_kb.c cli/cli.h tui/text.h \
 knowledge/kb.h
cli/cli.h:
tui/text.h:
knowledge/kb.h:
