"""Reading: the Reader turns inputs into memory items (router, parser, fine mode), with
failures isolated per input. It writes nothing; ingest (:mod:`omnireader.batch`) is the
layer above it."""

from omnireader.reading.outcomes import ReadOutcome, ReadResult
from omnireader.reading.reader import Reader

__all__ = ["Reader", "ReadOutcome", "ReadResult"]
