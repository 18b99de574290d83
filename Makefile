# Every target sets up what it needs: a virtual environment in .venv with the package and
# its test and dev extras, the system Graphviz package (for SVG) when `dot` is missing, the
# font the diagrams name (WenQuanYi Micro Hei) when fontconfig does not know it, and, for the
# tests, Debian's Chromium and its driver (the rule-review site is tested in a real browser).
# The env and openspiel extras (the agents' environments) are installed for the tests too.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test diagrams site docs golden check bench bench-compare fuzz mutation graphviz fonts chromium clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev,env,openspiel]'
	@touch $(STAMP)

graphviz:
	@command -v dot >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing the system Graphviz package (dot is missing)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz fonts-wqy-microhei >/dev/null; \
	  else \
	    echo "Graphviz's 'dot' is missing: install it (e.g. 'sudo apt-get install graphviz' or 'brew install graphviz') and run make again" >&2; \
	    exit 1; \
	  fi; }

fonts:
	@fc-list 2>/dev/null | grep -q "WenQuanYi Micro Hei" || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing the font the diagrams use (fonts-wqy-microhei)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fontconfig fonts-wqy-microhei >/dev/null; \
	  else \
	    echo "the font WenQuanYi Micro Hei is missing: install it (e.g. 'sudo apt-get install fonts-wqy-microhei') and run make again" >&2; \
	    exit 1; \
	  fi; }

chromium:
	@{ command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; } || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's Chromium and ChromeDriver (the site's browser test uses them)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else \
	    echo "Chromium or ChromeDriver is missing and cannot be installed here (needs root and apt-get):" \
	         "install them (e.g. 'sudo apt-get install chromium chromium-driver'); until then the browser test is skipped" >&2; \
	  fi; }

demo: $(STAMP) graphviz fonts
	$(VENV)/bin/ygo-fsm render --out diagrams
	$(VENV)/bin/ygo-fsm run --narrate tests/scenarios/sample_turn.yaml
	$(VENV)/bin/ygo-fsm run --story tests/scenarios/seed/000_timing_windows_example.yaml
	$(VENV)/bin/ygo-fsm site --out site >/dev/null
	@echo "rule-review site: file://$(CURDIR)/site/index.html"

test: $(STAMP) graphviz fonts chromium
	$(PY) -m pytest -q

diagrams: $(STAMP) graphviz fonts
	$(VENV)/bin/ygo-fsm render --out diagrams

site: $(STAMP) graphviz fonts
	$(VENV)/bin/ygo-fsm site --out site >/dev/null
	@echo "rule-review site: file://$(CURDIR)/site/index.html"

docs: $(STAMP)
	@mkdir -p docs
	$(VENV)/bin/ygo-fsm reference > docs/effects.md

golden: $(STAMP)
	$(VENV)/bin/ygo-fsm run --quiet --golden tests/golden tests/scenarios/seed

check: $(STAMP)
	$(VENV)/bin/ruff check ygo_fsm tests
	$(VENV)/bin/mypy --strict ygo_fsm
	$(VENV)/bin/ygo-fsm check

# Would the tests notice a wrong rule? Mutates machines/*.yaml and the rule modules listed in
# mutation/config.toml (a sample; SAMPLE=1 for every mutant) and reports the score per file and
# per operator with each survivor (see mutation/run.py). Too slow for `make test`.
# MUTATION_ARGS passes options on, e.g. MUTATION_ARGS='--files machines/turn.yaml'.
MUTATION_STAMP := $(VENV)/.mutation-installed
SAMPLE ?=
MUTATION_ARGS ?=

$(MUTATION_STAMP): $(STAMP) mutation/operators/pyproject.toml mutation/operators/ygo_fsm_mutation_operators/__init__.py
	$(PY) -m pip install --quiet -e '.[test,dev,mutation]' ./mutation/operators
	@touch $(MUTATION_STAMP)

mutation: $(MUTATION_STAMP)
	nice -n 19 $(PY) mutation/run.py $(if $(SAMPLE),--sample $(SAMPLE)) $(MUTATION_ARGS)

bench: $(STAMP) graphviz
	$(PY) -m ygo_fsm.bench

# This tree against another commit on the full-duels workload, the two alternating in fresh
# processes (python -m ygo_fsm.bench_compare; its options through BENCH_COMPARE_ARGS, e.g.
# BENCH_COMPARE_ARGS="--no-trace --deck mixed"). REF defaults to 4b264d2, the engine the agents'
# issue measured and set its speed targets against (it asks for every pass; the driver deals its
# decks); 96b02c4, where this tree's own speed measurements began, is REF=96b02c4.
REF ?= 4b264d2
bench-compare: $(STAMP)
	@rm -rf .bench-ref && git worktree prune
	@git worktree add --quiet --detach --force .bench-ref $(REF) >/dev/null
	@$(PY) -m ygo_fsm.bench_compare .bench-ref $(BENCH_COMPARE_ARGS); status=$$?; \
	  git worktree remove --force .bench-ref; exit $$status

# The action fuzzer: 100,000 seeded actions; fails on a corruption, a crash, a hang or a
# declared transition never taken (make test runs a 60,000-action slice of it).
fuzz: $(STAMP)
	$(PY) -m ygo_fsm.fuzz --actions 100000 --seed 12

clean:
	rm -rf $(VENV) build dist *.egg-info .mutation
