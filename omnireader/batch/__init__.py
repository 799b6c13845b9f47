"""Batch ingest, the layer above the Reader: folders into a store in parallel worker
processes or on a Ray cluster, resumably, with a ledger, progress and a report."""

__all__: list[str] = []
