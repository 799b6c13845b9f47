"""The orchestration users call: the Reader (fast, fine, transfer) and batch ingest."""

from omnireader.readers.reader import Reader, ReadOutcome, ReadResult

__all__ = ["Reader", "ReadOutcome", "ReadResult"]
