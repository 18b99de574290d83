# Every target sets up what it needs: a virtual environment in .venv with the package and
# its test and dev extras, and the system Graphviz package (for SVG) when `dot` is missing.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test diagrams golden check bench graphviz mutation clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
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

demo: $(STAMP) graphviz
	$(VENV)/bin/ygo-fsm render --out diagrams
	$(VENV)/bin/ygo-fsm run --narrate tests/scenarios/sample_turn.yaml
	$(VENV)/bin/ygo-fsm run --story tests/scenarios/seed/000_timing_windows_example.yaml

test: $(STAMP) graphviz
	$(PY) -m pytest -q

diagrams: $(STAMP) graphviz
	$(VENV)/bin/ygo-fsm render --out diagrams

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

clean:
	rm -rf $(VENV) build dist *.egg-info .mutation
