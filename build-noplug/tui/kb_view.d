build-noplug/tui/kb_view.o: tui/kb_view.c tui/app.h knowledge/advisor.h \
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
