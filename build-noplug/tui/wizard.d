build-noplug/tui/wizard.o: tui/wizard.c tui/app.h knowledge/advisor.h \
 knowledge/answers.h knowledge/answer_keys.h knowledge/kb.h \
 probes/probe.h tui/crt.h tui/layout.h tui/text.h
tui/app.h:
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/kb.h:
probes/probe.h:
tui/crt.h:
tui/layout.h:
tui/text.h:
