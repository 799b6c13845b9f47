# Thin wrappers over dev.py, which needs only Python (and creates .venv when missing).
PY ?= python3

.PHONY: run test bench faults setup clean
run:    ; $(PY) dev.py run
test:   ; $(PY) dev.py test
bench:  ; $(PY) dev.py bench
faults: ; $(PY) dev.py faults
setup:  ; $(PY) dev.py setup
clean:  ; rm -rf .venv omnireader.lance samples/files bench/out
