build-noplug/cli/util.o: cli/util.c cli/cli.h tui/text.h \
 knowledge/atomic_file.h knowledge/kb.h
cli/cli.h:
tui/text.h:
knowledge/atomic_file.h:
knowledge/kb.h:
