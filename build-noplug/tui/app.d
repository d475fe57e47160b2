build-noplug/tui/app.o: tui/app.c tui/tui.h tui/app.h knowledge/advisor.h \
 knowledge/answers.h knowledge/answer_keys.h knowledge/kb.h \
 probes/probe.h tui/crt.h tui/layout.h tui/text.h probes/advisor_hw.h
tui/tui.h:
tui/app.h:
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
knowledge/kb.h:
probes/probe.h:
tui/crt.h:
tui/layout.h:
tui/text.h:
probes/advisor_hw.h:
