"""Runner scripts and parser demos: run as files (python runners/x.py) or modules (python -m runners.x)."""
