build-noplug/tui/results.o: tui/results.c knowledge/atomic_file.h \
 tui/app.h knowledge/advisor.h knowledge/answers.h \
 knowledge/answer_keys.h knowledge/kb.h probes/probe.h tui/crt.h \
 tui/layout.h tui/text.h
knowledge/atomic_file.h:
tui/app.h:
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/kb.h:
probes/probe.h:
tui/crt.h:
tui/layout.h:
tui/text.h:
