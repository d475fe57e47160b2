build-noplug/tui/probe_view.o: tui/probe_view.c engine/cuda/plugin.h \
 engine/backend.h knowledge/probe_store.h knowledge/kb.h tui/app.h \
 knowledge/advisor.h knowledge/answers.h knowledge/answer_keys.h \
 probes/probe.h tui/crt.h tui/layout.h tui/text.h
engine/cuda/plugin.h:
engine/backend.h:
knowledge/probe_store.h:
knowledge/kb.h:
tui/app.h:
knowledge/advisor.h:
knowledge/answers.h:
knowledge/answer_keys.h:
probes/probe.h:
tui/crt.h:
tui/layout.h:
tui/text.h:
