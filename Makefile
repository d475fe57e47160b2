# fwadvisor: GNU Makefile. `make run` and `make test` install missing Debian packages first
# (scripts/deps.sh), so on a fresh Debian machine they are the whole set-up.

VERSION   := 0.1.0
CC        ?= cc
PREFIX    ?= /usr/local
MANDIR    ?= $(PREFIX)/share/man
LOCALEDIR ?= $(PREFIX)/share/locale
LIBDIR    ?= $(PREFIX)/lib
# Where the shells look for completions: bash-completion's, zsh's site-functions, fish's vendor folder.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
BUILD     ?= build
BIN       ?= fwadvisor
CFLAGS    ?= -O2 -g
WARNFLAGS := -std=c11 -Wall -Wextra -Wshadow
CPPFLAGS  += -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE -DFWADVISOR_VERSION='"$(VERSION)"' -I. -I$(BUILD)

PKGCONFIG ?= pkg-config
# Libraries the binary uses now; the engine, probes and interface add theirs as they land.
PKGS_MAIN := sqlite3 libcjson hwloc ncursesw
PKGS_TEST := criterion
pc_cflags  = $(shell $(PKGCONFIG) --cflags $(1) 2>/dev/null)
pc_libs    = $(shell $(PKGCONFIG) --libs $(1) 2>/dev/null)
# ncursesw.pc asks for _XOPEN_SOURCE=600; the project sets 700 (a superset) itself.
MAIN_CFLAGS := $(filter-out -D_XOPEN_SOURCE=% -D_DEFAULT_SOURCE,$(call pc_cflags,$(PKGS_MAIN)))
# OpenBLAS is no link dependency: the engine opens libopenblas.so.0 with dlopen when it first
# multiplies (engine/blas.h), so commands that never do start without its thread pool.
MAIN_LIBS   := $(call pc_libs,$(PKGS_MAIN)) -ldl -lm -lpthread
TEST_CFLAGS := $(call pc_cflags,$(PKGS_TEST))
TEST_LIBS   := $(call pc_libs,$(PKGS_TEST))

KB_DATA   := data/schema.sql $(sort $(wildcard data/kb/*.sql))
PRESETS   := $(sort $(wildcard data/presets/*.json))
MODELS    := $(sort $(wildcard data/models/*.json))
# The frameworks probe's scripts, carried in the binary and written to a temporary folder to run.
FW_SCRIPTS := $(sort $(wildcard probes/frameworks/*.py))
# The message catalogs, po/LANG.po, and the sources their messages come from (common/i18n.h).
PO_FILES  := $(sort $(wildcard po/*.po))
PO_LANGS  := $(PO_FILES:po/%.po=%)
MO_FILES  := $(PO_LANGS:%=$(BUILD)/locale/%/LC_MESSAGES/fwadvisor.mo)
I18N_SRC  := $(sort $(wildcard common/*.c knowledge/*.c probes/*.c engine/*.c tui/*.c cli/*.c))
LIB_SRC   := $(sort $(wildcard common/*.c knowledge/*.c probes/*.c engine/*.c tui/*.c)) $(filter-out cli/main.c,$(sort $(wildcard cli/*.c)))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/kb_data.o $(BUILD)/presets_data.o $(BUILD)/models_data.o $(BUILD)/fw_scripts_data.o
MAIN_OBJ  := $(BUILD)/cli/main.o
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/support.o $(BUILD)/tests/tmux_driver.o
BENCH_OBJ := $(BUILD)/tests/bench.o $(BUILD)/tests/support.o

# The CUDA plug-in (engine/cuda): built when nvcc is found, `make CUDA=0` skips it. The main
# binary never links CUDA; it loads build/fwadvisor-cuda.so with dlopen when asked for a GPU.
# NCCL is no build or load dependency: the plug-in opens libnccl.so.2 at run time. CUDA_ARCHS
# narrows the build to one GPU (scripts/gpu-check.sh passes the machine's own).
NVCC        ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
CUDA        ?= $(if $(NVCC),1,0)
CUDA_HOME   ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CUDA_ARCHS  ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
               -gencode arch=compute_90,code=compute_90
comma       := ,
# "sm_80 sm_90 compute_90", for the build's message
CUDA_ARCH_NAMES = $(patsubst code=%,%,$(filter code=%,$(subst $(comma), ,$(CUDA_ARCHS))))
CUDA_PLUGIN := $(BUILD)/fwadvisor-cuda.so
CUDA_SRC    := engine/cuda/cuda_backend.cu engine/cuda/cuda_bench.cu engine/cuda/gpt_kernels.cu
CUDA_OBJ    := $(CUDA_SRC:%.cu=$(BUILD)/%.o)
# The plug-in checks $FWADVISOR_NCCL_LIB with the program's own check of a library's path.
CUDA_C_OBJ  := $(BUILD)/engine/cuda/libpath.o
CUDA_HDRS   := engine/cuda/plugin.h engine/cuda/numerics.h engine/backend.h engine/gpt_ops.h engine/libpath.h
# Host code warning-free as the C code is; numerics.h's optimizer arithmetic relies on the
# default --fmad=true never touching its explicitly rounded intrinsics, and on no fast math.
NVCC_FLAGS  := -O3 -std=c++17 $(CUDA_ARCHS) -Xcompiler -fPIC,-Wall,-Wextra,-Wshadow -Xcompiler -fvisibility=hidden \
               -DFWADVISOR_VERSION='"$(VERSION)"' -I.
ifeq ($(CUDA),1)
CUDA_TARGET := $(CUDA_PLUGIN)
endif

# The MPI plug-in (probes/mpi): built when mpicc is found, `make MPI=0` skips it; loaded only
# when an MPI launcher starts the program.
MPICC       ?= $(shell command -v mpicc 2>/dev/null)
MPI         ?= $(if $(MPICC),1,0)
MPI_PLUGIN  := $(BUILD)/fwadvisor-mpi.so
ifeq ($(MPI),1)
MPI_TARGET  := $(MPI_PLUGIN)
endif

# Builds run in parallel by default, one job per core; an explicit -jN (-j1 for a serial build)
# overrides it. Only the top make decides: a sub-make (make test's) shares its jobserver, and its
# MAKEFLAGS do not show the -j yet when this is read.
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
endif

SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: FORCE all run test-prep mutate test test-run bench bench-run bench-peers asan sanitize-run fuzz fuzz-run test-peer test-peer-run deps install uninstall clean
.DEFAULT_GOAL := all

all: $(BIN) $(CUDA_TARGET) $(MPI_TARGET) $(MO_FILES)

deps:
	@scripts/deps.sh

# ARGS passes arguments through: make run ARGS="kb list"
run: deps
	@$(MAKE) --no-print-directory all
	./$(BIN) $(ARGS)

# The mutation list is checked to parse and apply here, not in test-run, which make mutate runs
# on mutated trees.
test: deps
	@scripts/mutate.py --check
	@$(MAKE) --no-print-directory test-run

# XDG_CONFIG_HOME: a folder that does not exist, so no user's config file changes what the tests see;
# LANGUAGE=en: English whatever the user's locale (the Chinese tests ask for Chinese themselves).
TEST_ENV = FWADVISOR_CUDA_PLUGIN="$(abspath $(CUDA_PLUGIN))" FWADVISOR_MPI_PLUGIN="$(abspath $(MPI_PLUGIN))" FWADVISOR_BIN="$(abspath $(BIN))" FWADVISOR_FIXTURES="$(abspath tests/fixtures)" \
	FWADVISOR_SCHEMA_DIR="$(abspath docs)" FWADVISOR_FAKE_NVML="$(abspath $(BUILD)/libfake_nvml.so)" \
	FWADVISOR_PLANTED_PLUGIN="$(abspath $(BUILD)/libplanted.so)" FWADVISOR_FAKE_CUDA_PLUGIN="$(abspath $(BUILD)/libfake_cuda_plugin.so)" \
	XDG_CONFIG_HOME="$(abspath $(BUILD))/no-config-home" LANGUAGE=en FWADVISOR_LOCALES="$(abspath $(BUILD))/locale" \
	FWADVISOR_POT="$(abspath $(BUILD))/fwadvisor.pot" FWADVISOR_SOURCE="$(abspath .)"
TEST_FIXTURES = $(BUILD)/libfake_nvml.so $(BUILD)/libplanted.so $(BUILD)/libfake_cuda_plugin.so

# TEST_ARGS passes arguments to the test binary: make test-run TEST_ARGS="--filter 'cuda/*'"
test-run: test-prep
	$(TEST_ENV) $(BUILD)/unit-tests $(TEST_ARGS)

# Everything the tests need, built.
test-prep: $(BIN) $(CUDA_TARGET) $(MPI_TARGET) $(MO_FILES) $(BUILD)/unit-tests $(TEST_FIXTURES)

# A list of small bugs (tests/mutate/mutations.txt) put in one at a time, each against the unit
# tests in a build of its own (build-mutate): the score per area says how many the tests catch.
# Not part of CI: it takes minutes.
mutate: deps
	@scripts/mutate.py

bench: deps
	@$(MAKE) --no-print-directory bench-run

# Optional: current CPU PyTorch, JAX and TensorFlow from PyPI in a virtual environment under
# build/, which `make bench` then runs side by side with Debian's PyTorch. Nothing else needs it.
PEERS_VENV := build/peers-venv

bench-run: $(BIN) $(BUILD)/bench
	$(BUILD)/bench "$(abspath $(BIN))" "$(abspath tests/peer/bench_torch.py)" "$(abspath tests/peer/bench_gpt.py)" \
	    "$(abspath $(PEERS_VENV))/bin/python"

bench-peers:
	@scripts/deps.sh --venv
	/usr/bin/python3 -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/pip install --quiet --upgrade pip
	$(PEERS_VENV)/bin/pip install --quiet --upgrade torch jax tensorflow-cpu numpy

# AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer included) build of the binary and
# the tests, then the suite. Criterion does not fail a test whose process reports a leak at exit,
# so scripts/sanitizer-check.sh reads the log as well.
asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/fwadvisor \
	    CFLAGS="$(SAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" CUDA=0 sanitize-run

sanitize-run: $(BIN) $(MPI_TARGET) $(MO_FILES) $(BUILD)/unit-tests $(TEST_FIXTURES)
	@status=0; $(TEST_ENV) $(BUILD)/unit-tests > $(BUILD)/sanitize.log 2>&1 || status=$$?; \
	cat $(BUILD)/sanitize.log; \
	scripts/sanitizer-check.sh $(BUILD)/sanitize.log $$status || { echo "sanitizer reports or failures above"; exit 1; }

# libFuzzer targets for the readers of outside input (.npy, safetensors, answers, kb import;
# clang): each runs FUZZ_SECONDS, new inputs go to
# build/fuzz/work-*, the seed corpus in tests/fuzz/corpus stays untouched.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SRC     := engine/tensor_io.c common/file.c engine/model.c engine/data.c engine/cpu_backend.c engine/gpt_cpu.c \
                engine/blas.c engine/libpath.c \
                engine/pool.c
# The answers and import readers need the knowledge layer (and, for import, the built-in facts).
FUZZ_KB_SRC  := knowledge/answers.c knowledge/answer_keys.c common/json_doc.c knowledge/rules.c common/suggest.c \
                common/units.c common/i18n.c knowledge/kb_tables.c
FUZZ_TARGETS := npy safetensors answers import

fuzz:
	@scripts/deps.sh --fuzz
	@$(MAKE) --no-print-directory fuzz-run

fuzz-run: $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p build/fuzz/work-$$t; \
	    echo "fuzzing the $$t reader for $(FUZZ_SECONDS) s"; \
	    build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	        build/fuzz/work-$$t tests/fuzz/corpus/$$t 2> build/fuzz/$$t.log || { tail -40 build/fuzz/$$t.log; exit 1; }; \
	    grep -E '^stat::number_of_executed_units|^Done' build/fuzz/$$t.log; \
	done

build/fuzz/fuzz_npy build/fuzz/fuzz_safetensors: build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SRC) | build/answer_key_ids.h
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(WARNFLAGS) $(CPPFLAGS) $(MAIN_CFLAGS) -o $@ $^ $(call pc_libs,libcjson) -ldl -lpthread -lm

build/fuzz/fuzz_answers: tests/fuzz/fuzz_answers.c $(FUZZ_KB_SRC) | build/answer_key_ids.h build/build_paths.h
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(WARNFLAGS) $(CPPFLAGS) $(MAIN_CFLAGS) -o $@ $^ $(call pc_libs,libcjson) -lm

build/fuzz/fuzz_import: tests/fuzz/fuzz_import.c $(filter common/% knowledge/%,$(LIB_SRC)) build/kb_data.c build/presets_data.c build/models_data.c | build/answer_key_ids.h build/build_paths.h
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(WARNFLAGS) $(CPPFLAGS) $(MAIN_CFLAGS) -Wno-unused-command-line-argument -o $@ $^ \
	    $(call pc_libs,libcjson sqlite3) -lm

# The peer checks against PyTorch (tests/peer/: the MLP, the GPT) where `import torch` works, and
# the launch files against the real launchers' parsers (torchrun's of that torch; accelerate,
# DeepSpeed and Slurm where installed, else skipped with the reason).
# The launch files' check runs in a virtual environment that adds accelerate's and DeepSpeed's own
# readers to Debian's torch (tests/peer/launch-requirements.txt); without it the check skips them.
LAUNCH_VENV := build/launch-venv

test-peer:
	@scripts/deps.sh --peer
	@$(MAKE) --no-print-directory $(LAUNCH_VENV)/installed
	@$(MAKE) --no-print-directory test-peer-run

$(LAUNCH_VENV)/installed: tests/peer/launch-requirements.txt
	rm -rf $(LAUNCH_VENV)
	/usr/bin/python3 -m venv --system-site-packages $(LAUNCH_VENV)
	$(LAUNCH_VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -r $<
	touch $@

test-peer-run: $(BIN)
	/usr/bin/python3 tests/peer/peer_check.py $(BIN)
	/usr/bin/python3 tests/peer/peer_gpt.py $(BIN)
	$(if $(wildcard $(LAUNCH_VENV)/installed),$(LAUNCH_VENV)/bin/python,/usr/bin/python3) tests/peer/launch_check.py $(BIN)

$(BIN): $(MAIN_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(MAIN_LIBS)

$(BUILD)/unit-tests: $(TEST_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(MAIN_LIBS) $(TEST_LIBS)

$(BUILD)/bench: $(BENCH_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(MAIN_LIBS)

# One object per .cu file, so that make -j compiles them side by side.
$(BUILD)/engine/cuda/%.o: engine/cuda/%.cu $(CUDA_HDRS)
	@mkdir -p $(dir $@)
	@echo "CUDA plug-in: nvcc compiles $< for $(CUDA_ARCH_NAMES) (minutes each; make CUDA=0 skips the plug-in)"
	$(NVCC) $(NVCC_FLAGS) -c -o $@ $<

$(CUDA_C_OBJ): engine/libpath.c engine/libpath.h
	@mkdir -p $(dir $@)
	$(CC) $(WARNFLAGS) -O2 -g -fPIC -fvisibility=hidden -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE -I. -c -o $@ $<

$(CUDA_PLUGIN): $(CUDA_OBJ) $(CUDA_C_OBJ)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDA_ARCHS) -shared -o $@ $(CUDA_OBJ) $(CUDA_C_OBJ) -lcublas -ldl -Xlinker -rpath=$(CUDA_HOME)/lib64

$(MPI_PLUGIN): probes/mpi/mpi_plugin.c probes/mpi/plugin.h
	@mkdir -p $(dir $@)
	$(MPICC) $(WARNFLAGS) -O2 -g -fPIC -shared -fvisibility=hidden -D_XOPEN_SOURCE=700 -DFWADVISOR_VERSION='"$(VERSION)"' -I. -o $@ $<

# The NVIDIA driver libraries' stand-in for the detection tests (plain flags: it is loaded by
# dlopen into sanitized and plain test binaries alike).
$(BUILD)/libfake_nvml.so: tests/fixtures/fake_nvml.c
	@mkdir -p $(dir $@)
	$(CC) $(WARNFLAGS) -O1 -shared -fPIC -o $@ $<

$(BUILD)/libplanted.so: tests/fixtures/planted_plugin.c
	@mkdir -p $(dir $@)
	$(CC) $(WARNFLAGS) -O1 -shared -fPIC -o $@ $<

# A CUDA plug-in from other headers, which the loader must refuse (no CUDA needed to build it).
$(BUILD)/libfake_cuda_plugin.so: tests/fixtures/fake_cuda_plugin.c engine/cuda/plugin.h engine/backend.h
	@mkdir -p $(dir $@)
	$(CC) $(WARNFLAGS) -O1 -shared -fPIC -fvisibility=hidden -DFWADVISOR_VERSION='"$(VERSION)"' -I. -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARNFLAGS) $(CPPFLAGS) $(CFLAGS) $(MAIN_CFLAGS) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

# The engine's elementwise kernels: vectorised loops and sqrtf without errno, and no trapping
# math, which lets GCC if-convert the selects of GELU, the exponential and the masks so that
# the AVX2 loops vectorise too (only AVX-512's masked operations did before; the values are the
# same, no FP exception flag is read anywhere; the GPT step 20% faster on AVX2). No multiply-add
# contraction (ISO C's default, said here): the optimizers' rounding is what the GPU's
# reproduces bit for bit (engine/cuda/numerics.h), and the tests that check it likewise.
$(BUILD)/engine/cpu_backend.o: CFLAGS += -O3 -fno-math-errno -fno-trapping-math -ffp-contract=off
$(BUILD)/engine/gpt_cpu.o: CFLAGS += -O3 -fno-math-errno -fno-trapping-math
$(BUILD)/tests/test_cuda.o: CFLAGS += -ffp-contract=off

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARNFLAGS) $(CPPFLAGS) $(CFLAGS) $(MAIN_CFLAGS) -MMD -MP -c -o $@ $<

# The answer keys' indices (enum ans_index), written from the rows of their table; rewritten
# only when a key is added, moved or renamed, so that a changed help line rebuilds one object.
KEY_IDS := $(BUILD)/answer_key_ids.h
$(KEY_IDS): knowledge/answer_keys.c scripts/answer-key-ids.awk
	@mkdir -p $(dir $@)
	@awk -f scripts/answer-key-ids.awk $< > $@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }
$(LIB_OBJ) $(MAIN_OBJ) $(TEST_OBJ) $(BENCH_OBJ): | $(KEY_IDS)

# Where plug-ins and message catalogs are taken from (engine/plugin.c, common/i18n.c): the
# installed folders, and this build tree for this build's own binary. Rewritten only when a path
# changes, so the objects rebuild then.
BUILD_PATHS = \#define FWADVISOR_PLUGIN_DIR "$(LIBDIR)/fwadvisor"\n\#define FWADVISOR_LOCALE_DIR "$(LOCALEDIR)"\n\#define FWADVISOR_BUILD_BIN "$(abspath $(BIN))"\n\#define FWADVISOR_BUILD_DIR "$(abspath $(BUILD))"\n
$(BUILD)/build_paths.h: FORCE
	@mkdir -p $(dir $@)
	@printf '$(BUILD_PATHS)' > $@.tmp; cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(BUILD)/engine/plugin.o $(BUILD)/common/i18n.o: $(BUILD)/build_paths.h

# The message catalogs (common/i18n.h): po/LANG.po, built with msgfmt --check. The build fails on
# a message of the code (xgettext's template) that a catalog lacks or holds fuzzy or untranslated,
# or whose translation leaves out a glossary term, and warns of a catalog's message the code no
# longer has (scripts/po-check.py). PO_CHECK=0 skips that check (make mutate's builds).
$(BUILD)/fwadvisor.pot: $(I18N_SRC) scripts/po-check.py
	@mkdir -p $(dir $@)
	@scripts/po-check.py pot $@ $(I18N_SRC)
# Each language has its glossary (po/glossary.LANG.tsv), which its catalog follows.
$(BUILD)/locale/%/LC_MESSAGES/fwadvisor.mo: po/%.po $(BUILD)/fwadvisor.pot po/glossary.%.tsv scripts/po-check.py
	@mkdir -p $(dir $@)
	@$(if $(filter 0,$(PO_CHECK)),:,scripts/po-check.py check $< $(BUILD)/fwadvisor.pot po/glossary.$*.tsv)
	@msgfmt --check --output-file=$@.tmp $< && mv $@.tmp $@
FORCE:

$(BUILD)/kb_data.c: $(KB_DATA) $(BUILD)/embed
	$(BUILD)/embed $@ kb_builtin $(KB_DATA)

$(BUILD)/presets_data.c: $(PRESETS) $(BUILD)/embed
	$(BUILD)/embed $@ presets $(PRESETS)

$(BUILD)/models_data.c: $(MODELS) $(BUILD)/embed
	$(BUILD)/embed $@ models $(MODELS)

$(BUILD)/fw_scripts_data.c: $(FW_SCRIPTS) $(BUILD)/embed
	$(BUILD)/embed $@ fw_scripts $(FW_SCRIPTS)

$(BUILD)/kb_data.o $(BUILD)/presets_data.o $(BUILD)/models_data.o $(BUILD)/fw_scripts_data.o: $(BUILD)/%.o: $(BUILD)/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The embed tool runs on the build machine: no sanitizers, no project flags beyond warnings.
$(BUILD)/embed: scripts/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(WARNFLAGS) -O1 -o $@ $<

# The completion scripts, written by the program from its own tables (cli/completion.c).
COMPLETIONS := $(BUILD)/completions/fwadvisor.bash $(BUILD)/completions/_fwadvisor $(BUILD)/completions/fwadvisor.fish
$(BUILD)/completions/fwadvisor.bash: $(BIN)
	@mkdir -p $(dir $@)
	"$(abspath $(BIN))" completion bash > $@.tmp && mv $@.tmp $@
$(BUILD)/completions/_fwadvisor: $(BIN)
	@mkdir -p $(dir $@)
	"$(abspath $(BIN))" completion zsh > $@.tmp && mv $@.tmp $@
$(BUILD)/completions/fwadvisor.fish: $(BIN)
	@mkdir -p $(dir $@)
	"$(abspath $(BIN))" completion fish > $@.tmp && mv $@.tmp $@

install: $(BIN) $(CUDA_TARGET) $(MPI_TARGET) $(MO_FILES) $(COMPLETIONS)
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(MANDIR)/man1"
	install -m 755 $(BIN) "$(DESTDIR)$(PREFIX)/bin/fwadvisor"
	install -d "$(DESTDIR)$(BASHCOMPDIR)" "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"
	install -m 644 $(BUILD)/completions/fwadvisor.bash "$(DESTDIR)$(BASHCOMPDIR)/fwadvisor"
	install -m 644 $(BUILD)/completions/_fwadvisor "$(DESTDIR)$(ZSHCOMPDIR)/_fwadvisor"
	install -m 644 $(BUILD)/completions/fwadvisor.fish "$(DESTDIR)$(FISHCOMPDIR)/fwadvisor.fish"
	$(if $(MPI_TARGET),install -d "$(DESTDIR)$(LIBDIR)/fwadvisor" && install -m 755 $(MPI_PLUGIN) "$(DESTDIR)$(LIBDIR)/fwadvisor/fwadvisor-mpi.so")
	$(if $(CUDA_TARGET),install -d "$(DESTDIR)$(LIBDIR)/fwadvisor" && install -m 755 $(CUDA_PLUGIN) "$(DESTDIR)$(LIBDIR)/fwadvisor/fwadvisor-cuda.so")
	install -m 644 docs/fwadvisor.1 "$(DESTDIR)$(MANDIR)/man1/fwadvisor.1"
	install -d "$(DESTDIR)$(MANDIR)/zh_CN/man1"
	install -m 644 docs/fwadvisor.zh_CN.1 "$(DESTDIR)$(MANDIR)/zh_CN/man1/fwadvisor.1"
	$(foreach l,$(PO_LANGS),install -d "$(DESTDIR)$(LOCALEDIR)/$(l)/LC_MESSAGES" && install -m 644 $(BUILD)/locale/$(l)/LC_MESSAGES/fwadvisor.mo "$(DESTDIR)$(LOCALEDIR)/$(l)/LC_MESSAGES/fwadvisor.mo";)

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/fwadvisor" "$(DESTDIR)$(MANDIR)/man1/fwadvisor.1" "$(DESTDIR)$(MANDIR)/zh_CN/man1/fwadvisor.1" \
	    "$(DESTDIR)$(LIBDIR)/fwadvisor/fwadvisor-cuda.so" "$(DESTDIR)$(LIBDIR)/fwadvisor/fwadvisor-mpi.so" \
	    "$(DESTDIR)$(BASHCOMPDIR)/fwadvisor" "$(DESTDIR)$(ZSHCOMPDIR)/_fwadvisor" "$(DESTDIR)$(FISHCOMPDIR)/fwadvisor.fish" \
	    $(foreach l,$(PO_LANGS),"$(DESTDIR)$(LOCALEDIR)/$(l)/LC_MESSAGES/fwadvisor.mo")

clean:
	rm -rf build build-asan build-mutate fwadvisor

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
